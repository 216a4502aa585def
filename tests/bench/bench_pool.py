#!/usr/bin/env python3
"""warm pool vs cold path vs the engine floor, in one run (make bench).

Every figure here is compared with others measured in the same run on the
same machine; nothing is compared with a number from elsewhere.

  sequential   trivial Python and JavaScript programs, one at a time: warm
               (through the HTTP API, pools full), cold (through the API with
               pool size 0: a create per request, removal after the reply),
               seed (the seed article's way, by this minimal client: create,
               start, wait, remove, all on the request path), and the floor
               (start + wait of pre-created containers by this minimal
               client, no daemon).  Every timed run follows the same idle
               pause, so background work of the previous one is not billed
               to the next.
               piston is warm too, through POST /api/v2/execute with
               piston-client's default args (args travel in the frame, so
               they take pooled containers).
  burst        16 simultaneous requests to a warm daemon vs 16 naive parallel
               start + wait on the engine
  sustained    concurrency 4 for DURATION seconds through a warm daemon vs the
               floor's best parallelism (1, 2 or 4 at a time)

  python3 tests/bench/bench_pool.py [--n 30] [--duration 60] [--json FILE]
"""
import argparse
import concurrent.futures as cf
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from wbtest import BIN, Daemon, UnixHTTPConnection, docker_api, docker_socket, wait_until  # noqa: E402

PROGRAMS = {"python": "print(6*7)", "javascript": "console.log(6*7)"}
FLOOR_CMD = {"python": ["/usr/bin/python3", "-I", "-S", "-c", "print(6*7)"],
             "javascript": ["/usr/bin/node", "-e", "console.log(6*7)"]}


def pct(values, p):
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * p / 100.0
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def spec(language):
    out = subprocess.run([os.path.join(BIN, "warmboxd"), "--print-spec", language],
                         capture_output=True, check=True).stdout
    body = json.loads(out)
    # The floor runs the program directly: no bootstrap, no attached stdin.
    body["Cmd"] = FLOOR_CMD[language]
    for k in ("OpenStdin", "StdinOnce", "AttachStdin"):
        body[k] = False
    body["Labels"] = {"warmbox.instance": "bench-floor", "warmbox.owner": "bench"}
    return body


def floor_create(body):
    st, r = docker_api("POST", "/containers/create", body)
    if st != 201:
        raise RuntimeError("create: %s %s" % (st, r))
    return r["Id"]


def floor_run(cid):
    """start + wait of a pre-created container; seconds from start to exit."""
    conn = UnixHTTPConnection(docker_socket(), timeout=120)
    conn.request("POST", "/containers/%s/wait?condition=next-exit" % cid)
    resp = conn.getresponse()  # the head arrives once the wait is armed
    t0 = time.time()
    st, _ = docker_api("POST", "/containers/%s/start" % cid)
    body = json.loads(resp.read())
    elapsed = time.time() - t0
    conn.close()
    if st != 204 or body.get("StatusCode") != 0:
        raise RuntimeError("floor run: start %s wait %s" % (st, body))
    return elapsed


def floor_remove(cid):
    docker_api("DELETE", "/containers/%s?force=1" % cid)


def daemon_run(d, language):
    t0 = time.time()
    st, r = d.run(language, PROGRAMS[language])
    elapsed = time.time() - t0
    if st != 200 or r.get("stdout") != "42\n":
        raise RuntimeError("run: %s %s" % (st, r))
    return elapsed, r.get("pool_hit")


def piston_run(d, language):
    """POST /api/v2/execute the way piston-client sends it (args 1 2 3)."""
    body = {"language": language, "version": "*", "files": [{"content": PROGRAMS[language]}],
            "stdin": "", "args": ["1", "2", "3"], "compile_timeout": 10000, "run_timeout": 3000,
            "compile_memory_limit": -1, "run_memory_limit": -1}
    t0 = time.time()
    st, r = d.request("POST", "/api/v2/execute", body)
    elapsed = time.time() - t0
    if st != 200 or r["run"]["stdout"] != "42\n":
        raise RuntimeError("piston run: %s %s" % (st, r))
    return elapsed


def pools_full(d, n):
    st, body = d.request("GET", "/v1/pools")
    live = [p for p in body.get("pools", []) if not p["draining"]]
    return len(live) == 2 and all(p["ready"] >= n and p["creating"] == 0 for p in live)


IDLE = 0.25  # seconds of quiet engine before each timed sequential run


def interleaved(language, n, warm, cold):
    """n rounds; each round times one run of every mode, in an order that
    rotates, so the machine's drift falls on all modes alike."""
    body = spec(language)
    times = {"warm": [], "piston": [], "cold": [], "seed": [], "floor": []}
    hits = 0

    def run_warm():
        nonlocal hits
        wait_until(lambda: pools_full(warm, 4), timeout=30, step=0.05)
        time.sleep(IDLE)
        secs, hit = daemon_run(warm, language)
        hits += bool(hit)
        return secs

    def run_piston():
        wait_until(lambda: pools_full(warm, 4), timeout=30, step=0.05)
        time.sleep(IDLE)
        return piston_run(warm, language)

    def run_cold():
        time.sleep(IDLE)
        return daemon_run(cold, language)[0]

    def run_seed():
        time.sleep(IDLE)
        t0 = time.time()
        cid = floor_create(body)
        floor_run(cid)
        floor_remove(cid)
        return time.time() - t0

    def run_floor():
        cid = floor_create(body)
        time.sleep(IDLE)
        try:
            return floor_run(cid)
        finally:
            floor_remove(cid)

    modes = [("warm", run_warm), ("piston", run_piston), ("cold", run_cold), ("seed", run_seed),
             ("floor", run_floor)]
    for i in range(n):
        for k in range(len(modes)):
            name, fn = modes[(i + k) % len(modes)]
            times[name].append(fn())
    return times, hits


def write_config(obj):
    fd, path = tempfile.mkstemp(suffix=".json", prefix="warmbox-bench-")
    with os.fdopen(fd, "w") as f:
        json.dump(obj, f)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--duration", type=float, default=60)
    ap.add_argument("--json")
    args = ap.parse_args()
    results = {"n": args.n, "duration_s": args.duration, "sequential": {}}

    # ---- sequential: warm, cold, floor ----------------------------------
    warm_cfg = write_config({"pools": {"default": {"min_ready": 4, "max_ready": 16}}, "max_containers": 64})
    cold_cfg = write_config({"pools": {"default": {"min_ready": 0, "max_ready": 0}}})
    warm = Daemon(extra_args=["--config", warm_cfg])
    wait_until(lambda: pools_full(warm, 4), timeout=60)
    cold = Daemon(extra_args=["--config", cold_cfg])
    for lang in PROGRAMS:
        daemon_run(warm, lang)  # first-use effects (page cache) out of the way
        daemon_run(cold, lang)
        tm, hits = interleaved(lang, args.n, warm, cold)
        w, c, sd, f = tm["warm"], tm["cold"], tm["seed"], tm["floor"]
        results["sequential"][lang] = {
            "warm_p50": pct(w, 50), "warm_p99": pct(w, 99), "warm_hits": hits,
            "piston_p50": pct(tm["piston"], 50), "piston_p99": pct(tm["piston"], 99),
            "cold_p50": pct(c, 50), "cold_p99": pct(c, 99),
            "seed_p50": pct(sd, 50), "seed_p99": pct(sd, 99),
            "floor_p50": pct(f, 50), "floor_p99": pct(f, 99)}
    cold.stop()

    # The create + remove that the warm path keeps off the request path.
    body = spec("python")
    cr, rm = [], []
    for _ in range(10):
        t0 = time.time()
        cid = floor_create(body)
        cr.append(time.time() - t0)
        t0 = time.time()
        floor_remove(cid)
        rm.append(time.time() - t0)
    results["create_p50"], results["remove_p50"] = pct(cr, 50), pct(rm, 50)

    # ---- burst of 16 -----------------------------------------------------
    warm.stop()
    burst_cfg = write_config({"pools": {"python": {"min_ready": 16, "max_ready": 16},
                                        "javascript": {"min_ready": 0, "max_ready": 0}},
                              "max_containers": 64})
    d = Daemon(extra_args=["--config", burst_cfg])
    st_ok = wait_until(lambda: (lambda b: any(p["language"] == "python" and p["ready"] >= 16
                                              for p in b.get("pools", [])))(d.request("GET", "/v1/pools")[1]),
                       timeout=90)
    t0 = time.time()
    with cf.ThreadPoolExecutor(16) as ex:
        out = list(ex.map(lambda _: daemon_run(d, "python"), range(16)))
    burst_warm = 16 / (time.time() - t0)
    d.stop()
    ids = [floor_create(body) for _ in range(16)]
    t0 = time.time()
    with cf.ThreadPoolExecutor(16) as ex:
        list(ex.map(floor_run, ids))
    burst_naive = 16 / (time.time() - t0)
    for cid in ids:
        floor_remove(cid)
    results["burst"] = {"warm_per_s": burst_warm, "naive_per_s": burst_naive,
                        "warm_hits": sum(1 for _, h in out if h), "pool_was_full": bool(st_ok)}

    # ---- sustained at concurrency 4 --------------------------------------
    sus_cfg = write_config({"pools": {"python": {"min_ready": 4, "max_ready": 16},
                                      "javascript": {"min_ready": 0, "max_ready": 0}},
                            "max_containers": 64})
    d = Daemon(extra_args=["--config", sus_cfg])
    wait_until(lambda: (lambda b: any(p["language"] == "python" and p["ready"] >= 4
                                      for p in b.get("pools", [])))(d.request("GET", "/v1/pools")[1]),
               timeout=60)
    stop_at = time.time() + args.duration
    done = [0]
    lock = threading.Lock()

    def worker():
        while time.time() < stop_at:
            daemon_run(d, "python")
            with lock:
                done[0] += 1

    t0 = time.time()
    threads = [threading.Thread(target=worker) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    sustained = done[0] / (time.time() - t0)
    st, pools_body = d.request("GET", "/v1/pools")
    d.stop()

    floor_rates = {}
    per = max(10.0, args.duration / 3)
    for par in (1, 2, 4):
        stop_at = time.time() + per
        count = [0]
        # Containers are created ahead by a helper, as a pool would be.
        ready, ready_lock = [], threading.Lock()

        def maker():
            while time.time() < stop_at:
                with ready_lock:
                    short = len(ready) < par * 2
                if short:
                    cid = floor_create(body)
                    with ready_lock:
                        ready.append(cid)
                else:
                    time.sleep(0.01)

        def runner():
            while time.time() < stop_at:
                with ready_lock:
                    cid = ready.pop(0) if ready else None
                if cid is None:
                    time.sleep(0.005)
                    continue
                floor_run(cid)
                threading.Thread(target=floor_remove, args=(cid,)).start()
                with lock:
                    count[0] += 1

        t0 = time.time()
        ths = [threading.Thread(target=maker)] + [threading.Thread(target=runner) for _ in range(par)]
        for th in ths:
            th.start()
        for th in ths:
            th.join()
        floor_rates[par] = count[0] / (time.time() - t0)
        for cid in ready:
            floor_remove(cid)
    best_par = max(floor_rates, key=floor_rates.get)
    results["sustained"] = {"warm_c4_per_s": sustained, "floor_per_s": floor_rates,
                            "floor_best": floor_rates[best_par], "floor_best_parallelism": best_par,
                            "start_limit": pools_body.get("start_limit")}

    # ---- the table -------------------------------------------------------
    print("warmbox benchmark — %s, n=%d per row, sustained %.0f s" % (time.strftime("%Y-%m-%d %H:%M"), args.n, args.duration))
    print()
    print("| sequential, seconds | p50 | p99 | p50 vs floor |")
    print("|---|---|---|---|")
    for lang, r in results["sequential"].items():
        for mode in ("floor", "warm", "piston", "cold", "seed"):
            print("| %s %s | %.3f | %.3f | %+.1f%% |" % (lang, mode, r[mode + "_p50"], r[mode + "_p99"],
                                                    100 * (r[mode + "_p50"] / r["floor_p50"] - 1)))
        print("| %s warm hits | %d of %d | | |" % (lang, r["warm_hits"], args.n))
    print()
    print("create p50 %.3f s, remove p50 %.3f s (engine, idle); create + remove = %.3f s"
          % (results["create_p50"], results["remove_p50"], results["create_p50"] + results["remove_p50"]))
    for lang, r in results["sequential"].items():
        print("%s: warm p50 is %.3f s below seed (the article's path) and %.3f s below cold"
              % (lang, r["seed_p50"] - r["warm_p50"], r["cold_p50"] - r["warm_p50"]))
    b = results["burst"]
    print("burst of 16: warm %.2f/s vs naive parallel %.2f/s = %.2fx (%d pool hits)"
          % (b["warm_per_s"], b["naive_per_s"], b["warm_per_s"] / b["naive_per_s"], b["warm_hits"]))
    s = results["sustained"]
    print("sustained c=4: warm %.2f/s vs floor best %.2f/s (parallelism %d) = %.0f%%; floor by parallelism %s"
          % (s["warm_c4_per_s"], s["floor_best"], s["floor_best_parallelism"],
             100 * s["warm_c4_per_s"] / s["floor_best"],
             ", ".join("%d: %.2f/s" % kv for kv in sorted(s["floor_per_s"].items()))))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    for p in (warm_cfg, cold_cfg, burst_cfg, sus_cfg):
        os.unlink(p)


if __name__ == "__main__":
    main()
