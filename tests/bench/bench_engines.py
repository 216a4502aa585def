#!/usr/bin/env python3
"""One warmboxd over 1, 2 and 3 engines, in one run (make bench; issue 12).

Engines: the machine's dockerd ("main"), a second dockerd over mutual TLS
on 127.0.0.1 ("tls2"), and a root Podman service ("pod", when podman is
installed).  For each count k (1, 2, 3, in alternating rounds) a warmboxd
with the first k engines and python pools runs
  - sequential   N single requests, one at a time: the warm p50 / p90
  - sustained    concurrency 16 for DURATION seconds: executions per
                 second, and the daemon's CPU per execution (/proc)
Every engine here shares the same 2 CPUs: more engines add no CPU, so the
honest expectation is that adding engines costs nothing (ratios near 1),
not that it speeds anything up.  On separate hosts each engine brings its
own CPUs.

  python3 tests/bench/bench_engines.py [--n 30] [--duration 20] [--rounds 2] [--json FILE]
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from wbtest import (ROOT, Daemon, PodmanService, SecondDockerd, make_test_certs,  # noqa: E402
                    trusted_dir, wait_until)
from bench_pool import pct, sustained  # noqa: E402


def setup(tmp):
    """The engines, up, with the python profile only."""
    make_test_certs(tmp)
    e2 = SecondDockerd(tmp, tag="bench2")
    if not e2.start():
        raise RuntimeError("the second dockerd did not start:\n" + open(e2.log_path).read()[-2000:])
    engines = [{"name": "main", "endpoint": "unix:///var/run/docker.sock"}, e2.engine("tls2")]
    pod = None
    if shutil.which("podman") and shutil.which("catatonit"):
        pod = PodmanService()
        if not pod.start():
            raise RuntimeError("the Podman service did not start")
        os.chmod(tmp, 0o755)
        engines.append({"name": "pod", "endpoint": "unix://" + pod.sock,
                        "seccomp_dir": trusted_dir("seccomp")})
    profiles = os.path.join(tmp, "profiles")
    os.makedirs(profiles)
    shutil.copytree(os.path.join(ROOT, "profiles", "python"), os.path.join(profiles, "python"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    return e2, pod, engines, profiles


def daemon(tmp, engines, profiles):
    cfg = os.path.join(tmp, "engines-%d.json" % len(engines))
    with open(cfg, "w") as f:
        json.dump({"engines": engines, "profiles_dir": profiles,
                   "pools": {"default": {"min_ready": 12, "max_ready": 24}}}, f)
    d = Daemon(extra_args=["--config", cfg], wait_ready=False)

    def ready():
        st, body = d.request("GET", "/v1/engines")
        return st == 200 and all(e["state"] == "up" and e["images"] == 1 and e["ready"] >= 12 // len(engines)
                                 for e in body["engines"])

    if not wait_until(ready, timeout=300):
        d.stop()
        raise RuntimeError("engines not ready: %s" % d.request("GET", "/v1/engines")[1])
    time.sleep(2)
    return d


def run_one(d):
    t0 = time.time()
    st, r = d.run("python", "print(6*7)")
    if st != 200 or r.get("stdout") != "42\n":
        raise RuntimeError("a wrong answer: %s %s" % (st, r))
    return time.time() - t0


def measure(tmp, engines, profiles, n, duration):
    d = daemon(tmp, engines, profiles)
    try:
        seq = []
        for _ in range(n):
            seq.append(run_one(d))
            time.sleep(0.15)  # the refill, not billed to the next
        rate, cpu_ms = sustained(d, lambda: run_one(d), 16, duration)
        per = {}
        st, body = d.request("GET", "/v1/engines")
        for e in body["engines"]:
            per[e["name"]] = e["executions_total"]
        return {"p50": pct(seq, 50), "p90": pct(seq, 90), "rate": rate, "cpu_ms": cpu_ms, "per_engine": per}
    finally:
        d.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--duration", type=float, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="warmbox-bench-engines-")
    e2 = pod = None
    try:
        e2, pod, engines, profiles = setup(tmp)
        counts = list(range(1, len(engines) + 1))
        results = {k: [] for k in counts}
        for rnd in range(args.rounds):
            for k in (counts if rnd % 2 == 0 else counts[::-1]):
                r = measure(tmp, engines[:k], profiles, args.n, args.duration)
                results[k].append(r)
                print("round %d, %d engine(s): p50 %.3f s, %.2f/s, daemon CPU %.2f ms/execution, per engine %s"
                      % (rnd + 1, k, r["p50"], r["rate"], r["cpu_ms"], r["per_engine"]), flush=True)
        summary = {}
        for k in counts:
            summary[k] = {x: statistics.median(r[x] for r in results[k]) for x in ("p50", "p90", "rate", "cpu_ms")}
        print("\n| engines | warm p50 (s) | warm p90 (s) | throughput at 16 (/s) | vs 1 engine | daemon CPU / execution (ms) |")
        print("|---|---|---|---|---|---|")
        for k in counts:
            s = summary[k]
            print("| %d (%s) | %.3f | %.3f | %.2f | %.2f | %.2f |"
                  % (k, "+".join(e["name"] for e in engines[:k]), s["p50"], s["p90"], s["rate"],
                     s["rate"] / summary[1]["rate"], s["cpu_ms"]))
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"rounds": {str(k): v for k, v in results.items()},
                           "summary": {str(k): v for k, v in summary.items()}}, f, indent=1)
    finally:
        if pod:
            pod.cleanup()
        if e2:
            e2.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
