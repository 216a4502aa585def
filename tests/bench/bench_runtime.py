#!/usr/bin/env python3
"""The OCI engine's native runtimes side by side, crun against runc, in one
run (make bench; issue 35).  Every figure is compared only with others of
the same run.

  sequential  Python print(6*7), one at a time, rounds interleaved: the
              host's bare interpreter launched the same way (python3 -I -S
              -c from this process), and warm through warmboxd on each
              runtime; warmboxd's own part of each call (the client's round
              trip less the run the answer reports, duration_ms)
  throughput  4, 8 and 16 clients for DURATION seconds per runtime,
              interleaved per level: executions per second, and CPU per
              execution of warmboxd, the helper, the runtime with the inits
              (the helper's reaped children less the programs' own CPU, as
              their init reports it: runtime create and delete, its init's
              set-up, tini and warmbox's init) and the program

A call that fails is a row of its own (counted, its status shown), never a
traceback; progress goes to stderr as it runs.

  python3 tests/bench/bench_runtime.py [--n 30] [--duration 20] [--json FILE]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
import bench_oci as bo  # noqa: E402
import bench_pool as bp  # noqa: E402
from wbtest import Daemon, wait_until  # noqa: E402


def say(msg):
    bp.say("bench_runtime", msg)


def runtimes():
    """The native runtimes this host runs: crun only where it fits."""
    out = []
    if shutil.which("crun"):
        try:
            with open("/sys/fs/cgroup/unified/cgroup.controllers") as f:
                fits = f.read().strip() == ""
        except OSError:
            fits = True
        if fits:
            out.append("crun")
    if shutil.which("runc"):
        out.append("runc")
    return out


def daemon(runtime, pools):
    root = tempfile.mkdtemp(prefix="warmbox-bench-%s-" % runtime)
    path = bp.write_config({"engines": [{"name": "oci", "kind": "oci", "root": root, "runtime": runtime}],
                            "pools": pools, "max_containers": 160})
    d = Daemon(extra_args=["--config", path], engine="", wait_ready=True)
    d.cfg_path, d.bench_root = path, root
    return d


def stop(d):
    bo.stop(d)
    shutil.rmtree(d.bench_root, ignore_errors=True)


Failures = bp.Failures


def call(d, used=None, own=None):
    """One Python call: its round trip in s; bp.CallFailed when it did not
    give 42.  The program's CPU (its init's report) into used, warmboxd's
    own part (the round trip less the run it reports) into own."""
    t0 = time.time()
    st, r = d.run("python", bp.PROGRAMS["python"])
    elapsed = time.time() - t0
    if st != 200 or r.get("stdout") != "42\n":
        raise bp.CallFailed(st, r)
    if used is not None:
        u = r.get("usage") or {}
        used.append((u.get("cpu_user_ms") or 0) + (u.get("cpu_system_ms") or 0))
    if own is not None and r.get("duration_ms") is not None:
        own.append(elapsed * 1000 - r["duration_ms"])
    return elapsed


def sequential(n, daemons):
    times = {"bare": []}
    times.update({rt: [] for rt in daemons})
    own = {rt: [] for rt in daemons}
    fails = {rt: Failures() for rt in daemons}

    def bare():
        time.sleep(bp.IDLE)
        t0 = time.time()
        subprocess.run(bp.FLOOR_CMD["python"], check=True, capture_output=True)
        return time.time() - t0

    def warm(rt):
        d = daemons[rt]

        def run():
            wait_until(lambda: bo.pools_ready(d, "python", 2), timeout=30, step=0.02)
            time.sleep(bp.IDLE)
            return fails[rt].catch(call, d, own=own[rt])
        return run

    modes = [("bare", bare)] + [(rt, warm(rt)) for rt in daemons]
    for i in range(n):
        for k in range(len(modes)):
            name, fn = modes[(i + k) % len(modes)]
            secs = fn()
            if secs is not None:
                times[name].append(secs)
        if (i + 1) % 10 == 0 or i + 1 == n:
            say("sequential: %d of %d rounds" % (i + 1, n))
    out = {"p50_ms": {k: statistics.median(v) * 1000 if v else None for k, v in times.items()},
           "p90_ms": {k: bp.pct(v, 90) * 1000 if v else None for k, v in times.items()},
           "warmboxd_own_p50_ms": {rt: statistics.median(v) if v else None for rt, v in own.items()},
           "failed": {rt: str(f) for rt, f in fails.items()}}
    return out


def throughput(duration, rts, levels=(4, 8, 16)):
    out = {}
    for clients in levels:
        row = {}
        for rt in rts:
            say("throughput: %d clients on %s, %g s" % (clients, rt, duration))
            d = daemon(rt, {"python": {"min_ready": clients, "max_ready": clients * 2},
                            "default": {"min_ready": 0, "max_ready": 0}})
            wait_until(lambda: bo.pools_ready(d, "python", clients), timeout=120)
            time.sleep(1)
            h0, c0 = bo.helper_cpu(d)
            used, fails = [], Failures()
            rate, cpu_ms = bp.sustained(d, lambda: call(d, used=used), clients, duration, fails=fails)
            h1, c1 = bo.helper_cpu(d)
            done = max(1, len(used))
            row[rt] = {"per_s": rate, "ok": len(used), "failed": str(fails), "daemon_cpu_ms": cpu_ms,
                       "helper_cpu_ms": (h1 - h0) * 1000 / done, "program_cpu_ms": sum(used) / done,
                       "runtime_cpu_ms": ((c1 - c0) * 1000 - sum(used)) / done}
            stop(d)
        if "crun" in row and "runc" in row and row["runc"]["per_s"]:
            row["crun_vs_runc"] = row["crun"]["per_s"] / row["runc"]["per_s"]
        out[clients] = row
    return out


def fmt(v, spec="%.1f"):
    return spec % v if v is not None else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--duration", type=float, default=20)
    ap.add_argument("--json")
    args = ap.parse_args()
    rts = runtimes()
    if not rts or os.getuid() != 0:
        print("bench_runtime: the OCI engine needs root and crun or runc: not measured")
        return
    if "crun" not in rts:
        say("crun does not run on this host (not installed, or hybrid cgroups: scripts/setup.sh): runc only")
    result = {"runtimes": rts}
    pools = {"default": {"min_ready": 0, "max_ready": 0}, "python": {"min_ready": 2, "max_ready": 2}}
    daemons = {rt: daemon(rt, pools) for rt in rts}
    try:
        result["sequential"] = s = sequential(args.n, daemons)
    finally:
        for d in daemons.values():
            stop(d)
    print("sequential python print(6*7), %d rounds interleaved (ms, p50 / p90):" % args.n)
    print("  bare python3 -I -S -c   %s / %s" % (fmt(s["p50_ms"]["bare"]), fmt(s["p90_ms"]["bare"])))
    for rt in rts:
        p50 = s["p50_ms"][rt]
        print("  %-4s warm              %s / %s   (%s× bare; warmboxd's own part p50 %s ms; failed: %s)"
              % (rt, fmt(p50), fmt(s["p90_ms"][rt]),
                 fmt(p50 / s["p50_ms"]["bare"] if p50 and s["p50_ms"]["bare"] else None, "%.2f"),
                 fmt(s["warmboxd_own_p50_ms"][rt], "%.2f"), s["failed"][rt]))
    result["throughput"] = tp = throughput(args.duration, rts)
    print("throughput, %g s per level (executions/s; CPU ms per execution):" % args.duration)
    for c, row in tp.items():
        for rt in rts:
            r = row[rt]
            print("  %2d clients %-4s %6.1f/s  warmboxd %.2f  helper %.2f  runtime and inits %.1f  program %.1f"
                  "  (%d ok; failed: %s)"
                  % (c, rt, r["per_s"], r["daemon_cpu_ms"], r["helper_cpu_ms"], r["runtime_cpu_ms"],
                     r["program_cpu_ms"], r["ok"], r["failed"]))
        if "crun_vs_runc" in row:
            print("  %2d clients crun/runc %.2fx" % (c, row["crun_vs_runc"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
