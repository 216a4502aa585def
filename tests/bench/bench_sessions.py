#!/usr/bin/env python3
"""What a session call costs against a stateless execution of the same
code, in one run, rounds interleaved on one daemon (make bench):

  stateless   POST /v1/executions  print(6*7)
  small       the same code in a session holding a few names (the state
              restored before the code and saved after it)
  dataframe   the same code in a session holding a 50 MB pandas DataFrame
  rebuild     for scale: a stateless execution that builds that DataFrame
  ttfb        streamed (Accept: application/x-ndjson): a program that
              prints, sleeps 1 s and prints again; time to its first chunk
              against time to its result

and the session's state size.  Every call runs in its own fresh container
(pool hits).

    python3 tests/bench/bench_sessions.py [--n 20] [--json FILE]
"""
import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
import bench_pool as bp  # noqa: E402
from wbtest import Daemon, wait_until  # noqa: E402

CODE = "print(6*7)"
FRAME = "import numpy as np, pandas as pd\ndf = pd.DataFrame(np.random.rand(819200, 8))\n"


def ready(d, n):
    st, b = d.request("GET", "/v1/pools")
    return any(p["language"] == "python" and p["ready"] >= n for p in b.get("pools", []))


def timed(d, method, path, body):
    t0 = time.time()
    st, r = d.request(method, path, body, timeout=300)
    secs = time.time() - t0
    if st != 200 or r.get("status") != "ok":
        raise RuntimeError("%s: %s %s" % (path, st, str(r)[:400]))
    return secs, r


def ttfb(d, n):
    """(first chunk, result) seconds of n streamed runs of print, sleep 1 s, print."""
    from wbtest import UnixHTTPConnection
    firsts, ends = [], []
    body = json.dumps({"language": "python", "code": "import time\nprint(1, flush=True)\ntime.sleep(1)\nprint(2)"})
    for _ in range(n):
        wait_until(lambda: ready(d, 2), timeout=60, step=0.02)
        time.sleep(bp.IDLE)
        c = UnixHTTPConnection(d.sock, timeout=120)
        t0 = time.time()
        c.request("POST", "/v1/executions", body=body,
                  headers={"Content-Type": "application/json", "Accept": "application/x-ndjson"})
        r = c.getresponse()
        first = None
        while True:
            line = r.readline()
            if not line:
                break
            if first is None and json.loads(line).get("type") == "stdout":
                first = time.time() - t0
        ends.append(time.time() - t0)
        firsts.append(first if first is not None else ends[-1])
        c.close()
    return firsts, ends


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--json")
    args = ap.parse_args()
    cfg = bp.write_config({"pools": {"default": {"min_ready": 0, "max_ready": 0},
                                     "python": {"min_ready": 3, "max_ready": 3}}})
    d = Daemon(extra_args=["--config", cfg], wait_ready=True)
    sessions = {}
    for name, setup in (("small", "a = 1\nb = [1, 2, 3]\ndef f(x):\n    return x + a\n"), ("dataframe", FRAME)):
        st, s = d.request("POST", "/v1/sessions", {"language": "python", "memory_mb": 1024, "timeout_ms": 60000})
        sessions[name] = s["id"]
        _, r = timed(d, "POST", "/v1/sessions/%s/executions" % s["id"], {"code": setup})
        if not r["session"]["carried"]:
            raise RuntimeError("setup not carried: %s" % r)
    times = {"stateless": [], "small": [], "dataframe": [], "rebuild": []}
    state = {}
    modes = list(times)
    for i in range(args.n):
        for k in range(len(modes)):
            mode = modes[(i + k) % len(modes)]
            wait_until(lambda: ready(d, 2), timeout=60, step=0.02)
            time.sleep(bp.IDLE)
            if mode == "stateless":
                secs, r = timed(d, "POST", "/v1/executions", {"language": "python", "code": CODE})
            elif mode == "rebuild":
                secs, r = timed(d, "POST", "/v1/executions", {"language": "python", "code": FRAME + CODE,
                                                              "memory_mb": 1024, "timeout_ms": 60000})
            else:
                secs, r = timed(d, "POST", "/v1/sessions/%s/executions" % sessions[mode], {"code": CODE})
                state[mode] = r["session"]["state_bytes"]
            times[mode].append(secs)
    firsts, ends = ttfb(d, max(3, args.n // 2))
    d.stop()
    os.unlink(cfg)
    p50 = {k: statistics.median(v) * 1000 for k, v in times.items()}
    out = {"n": args.n, "p50_ms": p50, "p90_ms": {k: bp.pct(v, 90) * 1000 for k, v in times.items()},
           "state_bytes": state,
           "small_vs_stateless": p50["small"] / p50["stateless"],
           "dataframe_vs_stateless": p50["dataframe"] / p50["stateless"],
           "dataframe_vs_rebuild": p50["dataframe"] / p50["rebuild"]}
    out["ttfb_ms"] = {"first_chunk_p50": statistics.median(firsts) * 1000, "result_p50": statistics.median(ends) * 1000}
    print("sessions, %d rounds interleaved (ms, p50 / p90):" % args.n)
    for k in modes:
        print("  %-10s %7.1f / %7.1f%s" % (k, p50[k], out["p90_ms"][k],
                                           "   (state %d bytes)" % state[k] if k in state else ""))
    print("  session call / stateless: small state %.2fx, 50 MB DataFrame %.2fx; "
          "DataFrame carried / rebuilt %.2fx"
          % (out["small_vs_stateless"], out["dataframe_vs_stateless"], out["dataframe_vs_rebuild"]))
    print("  streamed print / sleep 1 s / print: first chunk %.1f ms, result %.1f ms (p50 of %d)"
          % (out["ttfb_ms"]["first_chunk_p50"], out["ttfb_ms"]["result_p50"], len(firsts)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
