#!/usr/bin/env python3
"""The OCI engine against the host's bare interpreter, the Docker floor and
the Docker engine, in one run (make bench).  Every figure is compared only
with others measured in the same minutes on the same machine.

  sequential  Python and JavaScript, one at a time, rounds interleaved:
              bare (python3 -c / node -e on the host, no container),
              floor (start + wait of a Docker container created ahead, by
              this minimal client), docker (warm through warmboxd on the
              Docker engine), oci (warm through warmboxd on the OCI engine)
  throughput  4, 8 and 16 clients for DURATION seconds each, Docker warm
              vs OCI warm; warmboxd's CPU per execution (and the OCI
              helper's)
  burst       32 simultaneous requests to a daemon holding 32 ready
  capacity    100 ready containers held: memory per ready container
              (MemAvailable before and after), and how long a pool of 16
              takes to refill after a burst that emptied it
  gvisor      Python warm p50 under runsc: Docker (runsc registered) vs the
              OCI engine running runsc

A call that fails is counted in its row (by what it ended as), never a
traceback; progress goes to stderr as it runs.

  python3 tests/bench/bench_oci.py [--n 30] [--duration 20] [--json FILE]
"""
import argparse
import concurrent.futures as cf
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
import bench_pool as bp  # noqa: E402
from wbtest import Daemon, wait_until  # noqa: E402

DOCKER = "unix:///var/run/docker.sock"


def say(msg):
    bp.say("bench_oci", msg)


def p50_ms(v):
    return statistics.median(v) * 1000 if v else None


def fmt(v, spec="%.1f"):
    return spec % v if v is not None else "-"


def ratio(a, b):
    return a / b if a and b else None


def pools_ready(d, language, n):
    st, b = d.request("GET", "/v1/pools")
    return any(p["language"] == language and not p["draining"] and p["ready"] >= n and p["creating"] == 0
               for p in b.get("pools", []))


def daemon(engine, pools, **extra):
    cfg = {"pools": pools, "max_containers": 160}
    cfg.update(extra)
    path = bp.write_config(cfg)
    d = Daemon(extra_args=["--config", path], engine=engine, wait_ready=True)
    d.cfg_path = path
    return d


def stop(d):
    d.stop()
    os.unlink(d.cfg_path)


def helper_cpu(d):
    """(the helper's server's own CPU s, its reaped children's: every runc
    command and each container's process tree, which it reaps as their
    subreaper)."""
    pid = d.oci_server_pid()
    if not pid:
        return 0.0, 0.0
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return bp.cpu_seconds(pid), (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def python_run(d, used):
    """bp.daemon_run for Python, adding the program's own CPU (its init's
    report) to used."""
    t0 = time.time()
    st, r = d.run("python", bp.PROGRAMS["python"])
    elapsed = time.time() - t0
    if st != 200 or r.get("stdout") != "42\n":
        raise bp.CallFailed(st, r)
    u = r.get("usage") or {}
    used.append((u.get("cpu_user_ms") or 0) + (u.get("cpu_system_ms") or 0))
    return elapsed, r.get("pool_hit")


def sequential(n, docker_d, oci_d):
    out = {}
    for language in ("python", "javascript"):
        body = bp.spec(language)
        times = {"bare": [], "floor": [], "docker": [], "oci": []}
        fails = {k: bp.Failures() for k in times}

        def bare():
            t0 = time.time()
            subprocess.run(bp.FLOOR_CMD[language], check=True, capture_output=True)
            return time.time() - t0

        def floor():
            cid = bp.floor_create(body)
            time.sleep(bp.IDLE)
            try:
                return bp.floor_run(cid)
            finally:
                bp.floor_remove(cid)

        def warm(d):
            def run():
                wait_until(lambda: pools_ready(d, language, 2), timeout=30, step=0.02)
                time.sleep(bp.IDLE)
                secs, hit = bp.daemon_run(d, language)
                if not hit:
                    raise bp.CallFailed(200, {"status": "not a pool hit"})
                return secs
            return run

        modes = [("bare", bare), ("floor", floor), ("docker", warm(docker_d)), ("oci", warm(oci_d))]
        for i in range(n):
            for k in range(len(modes)):
                name, fn = modes[(i + k) % len(modes)]
                if name == "bare":
                    time.sleep(bp.IDLE)
                secs = fails[name].catch(fn)
                if secs is not None:
                    times[name].append(secs)
            if (i + 1) % 10 == 0 or i + 1 == n:
                say("sequential %s: %d of %d rounds" % (language, i + 1, n))
        p50 = {k: p50_ms(v) for k, v in times.items()}
        out[language] = {"p50_ms": p50, "p90_ms": {k: bp.pct(v, 90) * 1000 if v else None for k, v in times.items()},
                         "oci_vs_bare": ratio(p50["oci"], p50["bare"]),
                         "oci_vs_docker": ratio(p50["oci"], p50["docker"]),
                         "oci_vs_floor": ratio(p50["oci"], p50["floor"]),
                         "failed": {k: str(f) for k, f in fails.items() if len(f)}}
    return out


def gvisor(n):
    """Warm p50 of Python under gVisor: Docker with runsc registered vs the
    OCI engine running runsc itself, rounds interleaved."""
    from wbtest import profiles_for_runtime
    profiles = profiles_for_runtime("runsc")
    pools = {"default": {"min_ready": 0, "max_ready": 0}, "python": {"min_ready": 2, "max_ready": 2}}
    ds = {}
    for name, engine in (("docker", DOCKER), ("oci", "oci:" + tempfile.mkdtemp(prefix="warmbox-bench-oci-"))):
        path = bp.write_config({"pools": pools})
        d = Daemon(extra_args=["--config", path, "--profiles", profiles], engine=engine, wait_ready=True)
        d.cfg_path = path
        ds[name] = d
    times = {"docker": [], "oci": []}
    fails = bp.Failures()
    for i in range(n):
        for name in (("docker", "oci") if i % 2 == 0 else ("oci", "docker")):
            d = ds[name]
            wait_until(lambda: pools_ready(d, "python", 2), timeout=60, step=0.02)
            time.sleep(bp.IDLE)
            r = fails.catch(bp.daemon_run, d, "python")
            if r is not None:
                times[name].append(r[0])
        say("gVisor: %d of %d rounds" % (i + 1, n))
    for d in ds.values():
        stop(d)
    p50 = {k: p50_ms(v) for k, v in times.items()}
    return {"p50_ms": p50, "ratio": ratio(p50["oci"], p50["docker"]), "failed": str(fails)}


def throughput(duration, clients_levels=(4, 8, 16)):
    out = {}
    for clients in clients_levels:
        row = {}
        for name, engine in (("docker", DOCKER), ("oci", "oci:" + tempfile.mkdtemp(prefix="warmbox-bench-oci-"))):
            say("throughput: %d clients on %s, %g s" % (clients, name, duration))
            d = daemon(engine, {"python": {"min_ready": clients, "max_ready": clients * 2},
                                "default": {"min_ready": 0, "max_ready": 0}})
            wait_until(lambda: pools_ready(d, "python", clients), timeout=120)
            time.sleep(1)
            h0, c0 = helper_cpu(d)
            used, fails = [], bp.Failures()
            rate, cpu_ms = bp.sustained(d, lambda: python_run(d, used), clients, duration, fails=fails)
            h1, c1 = helper_cpu(d)
            done = max(1, len(used))
            row[name] = {"per_s": rate, "daemon_cpu_ms": cpu_ms, "failed": str(fails)}
            if name == "oci":
                # The children's CPU less the programs' own: the runtime
                # (runc create, runc init's set-up, delete) with tini and
                # warmbox's init, per execution.
                row[name].update(helper_cpu_ms=(h1 - h0) * 1000 / done,
                                 program_cpu_ms=sum(used) / done,
                                 runtime_cpu_ms=((c1 - c0) * 1000 - sum(used)) / done)
            stop(d)
        row["ratio"] = ratio(row["oci"]["per_s"], row["docker"]["per_s"])
        out[clients] = row
    return out


def burst(n=32):
    out = {}
    for name, engine in (("docker", DOCKER), ("oci", "oci:" + tempfile.mkdtemp(prefix="warmbox-bench-oci-"))):
        d = daemon(engine, {"python": {"min_ready": n, "max_ready": n},
                            "default": {"min_ready": 0, "max_ready": 0}})
        rates, fails = [], bp.Failures()
        for k in range(3):
            say("burst of %d on %s: round %d of 3" % (n, name, k + 1))
            wait_until(lambda: pools_ready(d, "python", n), timeout=180)
            time.sleep(1)
            t0 = time.time()
            with cf.ThreadPoolExecutor(n) as ex:
                got = [r for r in ex.map(lambda _: fails.catch(bp.daemon_run, d, "python"), range(n)) if r]
            rates.append(len(got) / (time.time() - t0))
            hits = sum(bool(h) for _, h in got)
        out[name] = {"per_s": statistics.median(rates), "hits_last_round": hits, "failed": str(fails)}
        stop(d)
    out["ratio"] = ratio(out["oci"]["per_s"], out["docker"]["per_s"])
    return out


def mem_available():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 0


def capacity():
    out = {}
    say("capacity: 100 ready containers, then refills of 16")
    root = tempfile.mkdtemp(prefix="warmbox-bench-oci-")
    d = daemon("oci:" + root, {"default": {"min_ready": 0, "max_ready": 0},
                               "python": {"min_ready": 0, "max_ready": 0}})
    time.sleep(2)
    before = mem_available()
    stop(d)
    d = daemon("oci:" + root, {"default": {"min_ready": 0, "max_ready": 0},
                               "python": {"min_ready": 100, "max_ready": 100}}, create_concurrency=8)
    t0 = time.time()
    ok = wait_until(lambda: pools_ready(d, "python", 100), timeout=300, step=0.2)
    out["fill_100_s"] = time.time() - t0 if ok else None
    time.sleep(3)
    after = mem_available()
    out["ready"] = 100 if ok else None
    out["mem_per_ready_mb"] = (before - after) / 100 / 1048576
    stop(d)
    d = daemon("oci:" + root, {"default": {"min_ready": 0, "max_ready": 0},
                               "python": {"min_ready": 16, "max_ready": 16}})
    refills, fails = [], bp.Failures()
    for _ in range(3):
        wait_until(lambda: pools_ready(d, "python", 16), timeout=120)
        time.sleep(1)
        with cf.ThreadPoolExecutor(16) as ex:
            list(ex.map(lambda _: fails.catch(bp.daemon_run, d, "python"), range(16)))
        t0 = time.time()
        wait_until(lambda: pools_ready(d, "python", 16), timeout=120, step=0.02)
        refills.append(time.time() - t0)
    out["refill_16_s"] = statistics.median(refills)
    out["failed"] = str(fails)
    stop(d)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--duration", type=float, default=20)
    ap.add_argument("--json")
    args = ap.parse_args()
    result = {}
    docker_d = daemon(DOCKER, {"default": {"min_ready": 0, "max_ready": 0},
                               "python": {"min_ready": 2, "max_ready": 2},
                               "javascript": {"min_ready": 2, "max_ready": 2}})
    oci_d = daemon("oci:" + tempfile.mkdtemp(prefix="warmbox-bench-oci-"),
                   {"default": {"min_ready": 0, "max_ready": 0},
                    "python": {"min_ready": 2, "max_ready": 2},
                    "javascript": {"min_ready": 2, "max_ready": 2}})
    say("sequential: %d rounds per language" % args.n)
    result["sequential"] = sequential(args.n, docker_d, oci_d)
    stop(docker_d)
    stop(oci_d)
    print("sequential, %d rounds interleaved (ms, p50 / p90):" % args.n)
    for lang, r in result["sequential"].items():
        p50, p90 = r["p50_ms"], r["p90_ms"]
        print("  %-10s bare %s / %s   floor %s / %s   docker warm %s / %s   oci warm %s / %s"
              % (lang, fmt(p50["bare"]), fmt(p90["bare"]), fmt(p50["floor"]), fmt(p90["floor"]),
                 fmt(p50["docker"]), fmt(p90["docker"]), fmt(p50["oci"]), fmt(p90["oci"])))
        print("  %-10s oci/bare %sx   oci/docker warm %sx   oci/floor %sx   failed: %s"
              % ("", fmt(r["oci_vs_bare"], "%.2f"), fmt(r["oci_vs_docker"], "%.2f"), fmt(r["oci_vs_floor"], "%.2f"),
                 ", ".join("%s %s" % kv for kv in r["failed"].items()) or "none"))
    result["throughput"] = throughput(args.duration)
    print("throughput, %g s per level (executions/s; warmboxd CPU ms per execution):" % args.duration)
    for c, r in result["throughput"].items():
        print("  %2d clients  docker %6.1f/s (%.2f ms)   oci %6.1f/s (%.2f ms, helper %.2f ms, runtime and inits "
              "%.2f ms, program %.2f ms)   oci/docker %sx   failed: docker %s, oci %s"
              % (c, r["docker"]["per_s"], r["docker"]["daemon_cpu_ms"], r["oci"]["per_s"], r["oci"]["daemon_cpu_ms"],
                 r["oci"]["helper_cpu_ms"], r["oci"]["runtime_cpu_ms"], r["oci"]["program_cpu_ms"],
                 fmt(r["ratio"], "%.2f"), r["docker"]["failed"], r["oci"]["failed"]))
    result["burst"] = burst(32)
    b = result["burst"]
    print("burst of 32 (median of 3): docker %.1f/s   oci %.1f/s   oci/docker %sx   failed: docker %s, oci %s"
          % (b["docker"]["per_s"], b["oci"]["per_s"], fmt(b["ratio"], "%.2f"), b["docker"]["failed"],
             b["oci"]["failed"]))
    result["capacity"] = capacity()
    c = result["capacity"]
    print("capacity: 100 ready OCI containers held (filled in %s s), %.1f MB each (MemAvailable); "
          "a pool of 16 refills in %.2f s after a burst (its calls failed: %s)"
          % ("%.1f" % c["fill_100_s"] if c["fill_100_s"] else "-", c["mem_per_ready_mb"], c["refill_16_s"],
             c["failed"]))
    if "runsc" in subprocess.run(["docker", "info", "--format", "{{json .Runtimes}}"], capture_output=True,
                                 text=True).stdout:
        result["gvisor"] = g = gvisor(max(6, args.n // 2))
        print("gVisor, python warm p50: Docker/runsc %s ms   OCI/runsc %s ms   oci/docker %sx   failed: %s"
              % (fmt(g["p50_ms"]["docker"]), fmt(g["p50_ms"]["oci"]), fmt(g["ratio"], "%.2f"), g["failed"]))
    else:
        print("gVisor: not measured (Docker has no runsc runtime registered)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
