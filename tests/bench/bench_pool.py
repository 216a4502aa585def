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
  burst        16 and 32 simultaneous requests to a warm daemon vs as many
               naive parallel start + wait on the engine, and vs as many
               naive parallel runs doing the daemon's work (attach, the
               frame on stdin, the bootstrap), in five alternating rounds;
               the median of the rounds' ratios
  sustained    concurrency 4, 8 and 16 for DURATION seconds through a warm
               daemon vs the floor's best parallelism (1 ... 16 at a time),
               with the daemon's CPU time per execution (/proc)
  slow engine  32 clients through tests/bench/slow_engine.py, a proxy that
               slows starts the more are in flight: warmboxd's start
               limiter vs 32 naive parallel starts

  python3 tests/bench/bench_pool.py [--n 30] [--duration 60] [--json FILE]
"""
import argparse
import concurrent.futures as cf
import json
import os
import socket
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


def same_work_spec(language):
    """The container warmboxd creates, whole: the bootstrap reading its
    frame from an attached stdin.  For a naive client doing the same
    execution as the daemon, not the floor's shortcut."""
    out = subprocess.run([os.path.join(BIN, "warmboxd"), "--print-spec", language],
                         capture_output=True, check=True).stdout
    body = json.loads(out)
    body["Labels"] = {"warmbox.instance": "bench-floor", "warmbox.owner": "bench"}
    return body


def attach_run(cid, first_line, code, expect):
    """What a client must do to run code in a pre-created container the way
    warmboxd does: attach (stdin, stdout, stderr), arm the wait, start, send
    the init's line and the frame, close stdin, read the output to its end.
    Seconds from the start to the output's end."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(120)
    s.connect(docker_socket())
    s.sendall(("POST /containers/%s/attach?stream=1&stdin=1&stdout=1&stderr=1 HTTP/1.1\r\n"
               "Host: docker\r\nConnection: Upgrade\r\nUpgrade: tcp\r\nContent-Length: 0\r\n\r\n"
               % cid).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            raise RuntimeError("attach: connection closed")
        head += chunk
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError("attach: %r" % head[:80])
    data = head.split(b"\r\n\r\n", 1)[1]
    conn = UnixHTTPConnection(docker_socket(), timeout=120)
    conn.request("POST", "/containers/%s/wait?condition=next-exit" % cid)
    resp = conn.getresponse()
    t0 = time.time()
    st, _ = docker_api("POST", "/containers/%s/start" % cid)
    src = code.encode()
    s.sendall(first_line + b"\n" + b"%d\n" % len(src) + src)
    s.shutdown(socket.SHUT_WR)
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    elapsed = time.time() - t0
    s.close()
    body = json.loads(resp.read())
    conn.close()
    if st != 204 or body.get("StatusCode") != 0 or expect not in data:
        raise RuntimeError("attached run: start %s wait %s output %r" % (st, body, data[-300:]))
    return elapsed


def same_work_run(cid, code=PROGRAMS["python"]):
    """The daemon's work for one execution, done by a naive client
    (attach_run with a nonce for the init's usage line)."""
    attach_run(cid, b"w1 " + os.urandom(16).hex().encode(), code, b"42\n")


def run_through_socket(path, cid):
    """Arm the wait, then start, through the engine socket at path (the
    slowing proxy's)."""
    conn = UnixHTTPConnection(path, timeout=300)
    conn.request("POST", "/containers/%s/wait?condition=next-exit" % cid)
    resp = conn.getresponse()
    c2 = UnixHTTPConnection(path, timeout=300)
    c2.request("POST", "/containers/%s/start" % cid)
    st = c2.getresponse().status
    c2.close()
    json.loads(resp.read())
    conn.close()
    if st != 204:
        raise RuntimeError("start through the proxy: %s" % st)


class CallFailed(RuntimeError):
    """A call that did not give 42; kind is what it ended as, short enough
    for a table's row ("503 busy", "200 timeout")."""

    def __init__(self, st, r):
        r = r if isinstance(r, dict) else {}
        err = r.get("error")
        self.kind = "%s %s" % (st, r.get("status") or (err.get("code") if isinstance(err, dict) else err))
        super().__init__("run: %s %s" % (st, r))


class Failures:
    """Calls that failed, counted by what they ended as: a benchmark shows
    them as a row of its table instead of ending with a traceback."""

    def __init__(self):
        self.lock = threading.Lock()
        self.by = {}

    def add(self, what):
        with self.lock:
            self.by[what] = self.by.get(what, 0) + 1

    def catch(self, fn, *a, **kw):
        """fn(*a, **kw), or None when it raised (counted by its kind)."""
        try:
            return fn(*a, **kw)
        except Exception as e:  # noqa: BLE001: a failed call is a row, not a traceback
            self.add(getattr(e, "kind", type(e).__name__))
            return None

    def __len__(self):
        return sum(self.by.values())

    def __str__(self):
        return ", ".join("%d %s" % (n, k) for k, n in sorted(self.by.items())) or "none"


def say(bench, msg):
    """Progress, as a benchmark runs: to stderr, at once."""
    print("%s: %s" % (bench, msg), file=sys.stderr, flush=True)


def daemon_run(d, language, **kw):
    t0 = time.time()
    st, r = d.run(language, PROGRAMS[language], **kw)
    elapsed = time.time() - t0
    if st != 200 or r.get("stdout") != "42\n":
        raise CallFailed(st, r)
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


def python_pool_ready(d, n):
    st, b = d.request("GET", "/v1/pools")
    return any(p["language"] == "python" and not p["draining"] and p["ready"] >= n for p in b.get("pools", []))


def python_only(min_ready, max_ready, **extra):
    cfg = {"pools": {"python": {"min_ready": min_ready, "max_ready": max_ready},
                     "javascript": {"min_ready": 0, "max_ready": 0}}, "max_containers": 128}
    cfg.update(extra)
    return write_config(cfg)


def naive_burst(body, n, run):
    """n containers of body, each run by `run` in its own thread at once.
    A body with a User gets a uid of its own per container, as warmboxd
    gives them (RLIMIT_NPROC counts per uid on the host: 32 containers of
    one uid would share one nproc limit)."""
    ids = []
    try:
        for i in range(n):
            b = dict(body)
            if "User" in b:
                b["User"] = "%d:%d" % (62000 + i, 62000 + i)
            ids.append(floor_create(b))
        time.sleep(1)
        t0 = time.time()
        with cf.ThreadPoolExecutor(n) as ex:
            list(ex.map(run, ids))
        return n / (time.time() - t0)
    finally:
        for cid in ids:
            floor_remove(cid)


def burst(body, n, rounds=5):
    """rounds of: n simultaneous requests to a daemon holding n ready; n
    naive parallel start + wait of pre-created containers (the floor's
    shortcut: the program on the command line, nothing attached); n naive
    parallel runs doing the daemon's work (same_work_run).  One burst lasts
    about two seconds, and on this machine one burst's rate moves by +-15%
    from one to the next, so one sample decides nothing: the three
    alternate (the machine's drift falls on all alike) and the median of
    the per-round ratios is the figure.  The daemon lives across the
    rounds, as in production, so from the second burst on its start limit
    is what the earlier ones taught it; the first round is reported apart."""
    cfg = python_only(n, n)
    d = Daemon(extra_args=["--config", cfg])
    same_body = same_work_spec("python")
    warm, naive, same, hits, full = [], [], [], 0, True

    def idle_and_full():
        st, b = d.request("GET", "/v1/pools")
        return any(p["language"] == "python" and not p["draining"] and p["ready"] >= n
                   and p["creating"] == 0 for p in b.get("pools", []))

    for _ in range(rounds):
        full = bool(wait_until(idle_and_full, timeout=120)) and full
        time.sleep(1)
        t0 = time.time()
        with cf.ThreadPoolExecutor(n) as ex:
            out = list(ex.map(lambda _: daemon_run(d, "python"), range(n)))
        warm.append(n / (time.time() - t0))
        hits += sum(1 for _, h in out if h)
        naive.append(naive_burst(body, n, floor_run))
        same.append(naive_burst(same_body, n, same_work_run))
    limit = d.request("GET", "/v1/pools")[1].get("start_limit")
    d.stop()
    os.unlink(cfg)
    ratios = [w / v for w, v in zip(warm, naive)]
    same_ratios = [w / v for w, v in zip(warm, same)]
    return {"warm_per_s": statistics.median(warm), "naive_per_s": statistics.median(naive),
            "same_work_per_s": statistics.median(same),
            "ratio_median": statistics.median(ratios), "ratios": ratios,
            "same_work_ratio_median": statistics.median(same_ratios), "same_work_ratios": same_ratios,
            "warm_rounds_per_s": warm, "naive_rounds_per_s": naive, "same_work_rounds_per_s": same,
            "first_ratio": ratios[0], "start_limit": limit, "warm_hits": hits,
            "executions": n * rounds, "pool_was_full": full}


def cpu_seconds(pid):
    total = 0.0
    for tid in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def sustained(d, run, clients, duration, fails=None):
    """clients loops calling run() for duration seconds against daemon d:
    (successful runs per second, d's CPU ms per successful run).  With
    fails (Failures), a run that raises is counted there and the loop goes
    on; without, it ends the benchmark."""
    stop_at = time.time() + duration
    done = [0]
    lock = threading.Lock()

    def worker():
        while time.time() < stop_at:
            try:
                run()
            except Exception as e:  # noqa: BLE001
                if fails is None:
                    raise
                fails.add(getattr(e, "kind", type(e).__name__))
                continue
            with lock:
                done[0] += 1

    c0 = cpu_seconds(d.proc.pid)
    t0 = time.time()
    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return done[0] / (time.time() - t0), (cpu_seconds(d.proc.pid) - c0) * 1000 / max(1, done[0])


def sustained_warm(clients, duration, engine=None, pools=None):
    """clients loops sending requests for duration seconds: (executions per
    second, daemon CPU ms per execution, the start limit at the end)."""
    cfg = python_only(*(pools or (clients, clients * 2)))
    d = Daemon(extra_args=["--config", cfg], engine=engine, wait_ready=True)
    wait_until(lambda: python_pool_ready(d, 1), timeout=60)
    time.sleep(1)
    rate, cpu_ms = sustained(d, lambda: daemon_run(d, "python"), clients, duration)
    limit = d.request("GET", "/v1/pools")[1].get("start_limit")
    d.stop()
    os.unlink(cfg)
    return rate, cpu_ms, limit


def floor_parallel(body, par, duration, socket_path=None):
    """par loops of start + wait on containers created ahead (as a pool
    would), through socket_path (default: the engine's own)."""
    stop_at = time.time() + duration
    count = [0]
    lock = threading.Lock()
    ready, ready_lock = [], threading.Lock()

    def run(cid):
        if socket_path is None:
            return floor_run(cid)
        run_through_socket(socket_path, cid)

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
            run(cid)
            threading.Thread(target=floor_remove, args=(cid,)).start()
            with lock:
                count[0] += 1

    t0 = time.time()
    makers = max(1, par // 4)  # enough that runners never wait for a container
    ths = [threading.Thread(target=maker) for _ in range(makers)] + \
        [threading.Thread(target=runner) for _ in range(par)]
    for th in ths:
        th.start()
    for th in ths:
        th.join()
    rate = count[0] / (time.time() - t0)
    for cid in ready:
        floor_remove(cid)
    return rate


def slow_engine_compare(body, duration, clients=32, per_round=64, rounds=4, knee=4):
    """Rounds of per_round executions by `clients` clients through
    tests/bench/slow_engine.py (starts held longer the more are in flight
    past the knee): warmboxd with full pools and its start limiter, vs
    naive parallelism (the same number of clients each starting containers
    created ahead).  The limiter learns over the rounds: the last ones
    count."""
    sock = os.path.join(tempfile.mkdtemp(prefix="warmbox-slow-"), "engine.sock")
    proxy = subprocess.Popen([sys.executable, os.path.join(HERE, "slow_engine.py"), sock, docker_socket(),
                              "--knee", str(knee)], stdout=subprocess.PIPE, start_new_session=True)
    warm, naive = [], []
    try:
        proxy.stdout.readline()  # "ready"
        cfg = python_only(per_round, per_round, max_containers=per_round * 3)
        d = Daemon(extra_args=["--config", cfg], engine="unix://" + sock, wait_ready=True)
        for _ in range(rounds):
            wait_until(lambda: python_pool_ready(d, per_round), timeout=180)
            time.sleep(1)
            t0 = time.time()
            with cf.ThreadPoolExecutor(clients) as ex:
                # The proxy holds each start up to 5 s on purpose, and an
                # execution's deadline counts from its start: the longest
                # deadline, so that only throughput is measured here.
                list(ex.map(lambda _: daemon_run(d, "python", timeout_ms=60000), range(per_round)))
            warm.append(per_round / (time.time() - t0))
        limit = d.request("GET", "/v1/pools")[1].get("start_limit")
        d.stop()
        os.unlink(cfg)

        def run_through(cid):
            run_through_socket(sock, cid)

        for _ in range(rounds):
            ids = [floor_create(body) for _ in range(per_round)]
            time.sleep(1)
            t0 = time.time()
            with cf.ThreadPoolExecutor(clients) as ex:
                list(ex.map(run_through, ids))
            naive.append(per_round / (time.time() - t0))
            for cid in ids:
                floor_remove(cid)
    finally:
        proxy.terminate()
        proxy.wait()
    last = max(1, rounds // 2)
    return {"knee": knee, "clients": clients, "per_round": per_round, "rounds": rounds,
            "warm_rounds_per_s": warm, "naive_rounds_per_s": naive,
            "warm_per_s": statistics.mean(warm[-last:]), "naive_per_s": statistics.mean(naive[-last:]),
            "start_limit": limit}


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

    # ---- bursts of 16 and 32 ---------------------------------------------
    warm.stop()
    results["burst"] = {}
    for n in (16, 32):
        results["burst"][n] = burst(body, n)

    # ---- sustained at concurrency 4, 8, 16; daemon CPU ---------------------
    results["sustained"] = {"warm_per_s": {}, "cpu_ms_per_execution": {}}
    for c in (4, 8, 16):
        rate, cpu_ms, limit = sustained_warm(c, args.duration)
        results["sustained"]["warm_per_s"][c] = rate
        results["sustained"]["cpu_ms_per_execution"][c] = cpu_ms
        results["sustained"]["start_limit_c%d" % c] = limit
    floor_rates = {}
    for par in (1, 2, 4, 8, 16):
        floor_rates[par] = floor_parallel(body, par, max(10.0, args.duration / 2))
    best_par = max(floor_rates, key=floor_rates.get)
    results["sustained"].update({"floor_per_s": floor_rates, "floor_best": floor_rates[best_par],
                                 "floor_best_parallelism": best_par})

    # ---- an engine that degrades under many starts -------------------------
    results["slow_engine"] = slow_engine_compare(body, args.duration)

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
    for n, b in results["burst"].items():
        print("burst of %d, %d alternating pairs: warm median %.2f/s vs naive parallel %.2f/s; "
              "median ratio %.2fx (pairs %s; first %.2fx); %d of %d pool hits; start limit after %s"
              % (n, len(b["ratios"]), b["warm_per_s"], b["naive_per_s"], b["ratio_median"],
                 " ".join("%.2f" % r for r in b["ratios"]), b["first_ratio"], b["warm_hits"],
                 b["executions"], b["start_limit"]))
        print("burst of %d vs naive parallel runs doing the daemon's work (attach, frame, bootstrap): "
              "%.2f/s; median ratio %.2fx (rounds %s)"
              % (n, b["same_work_per_s"], b["same_work_ratio_median"],
                 " ".join("%.2f" % r for r in b["same_work_ratios"])))
    s = results["sustained"]
    print("floor by parallelism: %s; best %d"
          % (", ".join("%d: %.2f/s" % kv for kv in sorted(s["floor_per_s"].items())), s["floor_best_parallelism"]))
    for c, rate in s["warm_per_s"].items():
        print("sustained c=%d: warm %.2f/s = %.0f%% of the floor's best (%.2f/s); daemon CPU %.2f ms per execution; "
              "start limit at the end %s"
              % (c, rate, 100 * rate / s["floor_best"], s["floor_best"], s["cpu_ms_per_execution"][c],
                 s["start_limit_c%d" % c]))
    se = results["slow_engine"]
    print("engine that degrades past %d starts in flight (tests/bench/slow_engine.py), rounds of %d by %d clients: "
          "warm %s/s vs naive %s/s; last %d rounds: %.2f vs %.2f/s = %.2fx (start limit at the end %s)"
          % (se["knee"], se["per_round"], se["clients"],
             " ".join("%.1f" % x for x in se["warm_rounds_per_s"]),
             " ".join("%.1f" % x for x in se["naive_rounds_per_s"]), max(1, se["rounds"] // 2),
             se["warm_per_s"], se["naive_per_s"], se["warm_per_s"] / se["naive_per_s"], se["start_limit"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    for p in (warm_cfg, cold_cfg):
        os.unlink(p)


if __name__ == "__main__":
    main()
