#!/usr/bin/env python3
"""What the E2B SDK's runCode costs through warmbox's E2B API, against
warmbox's own /v1 for the same code, in one run on one daemon:

  /v1 stateless   POST /v1/executions {"language":"python","code":"print(6*7)"}
  /v1 session     POST /v1/sessions/{id}/executions, the same code
  E2B runCode     sandbox.runCode("print(6*7)") with the official SDK
                  (@e2b/code-interpreter, tests/node/e2b_client.mjs --bench),
                  timed in Node with performance.now(), on one sandbox

N sequential calls of each (blocks, in that order), every one a pool hit:
before each call the python pool is full again and the engine quiet for
a moment, as in bench_sessions.py.  Prints p50 / p90 and the ratio to
/v1 stateless as a markdown table.

    python3 tests/bench/bench_e2b.py [--n 10] [--json FILE]
"""
import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
import bench_pool as bp  # noqa: E402
from wbtest import NODE_DIR, Daemon, UnixHTTPConnection, free_port, node_client_ready, wait_until  # noqa: E402

CODE = "print(6*7)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--json")
    args = ap.parse_args()
    token = os.urandom(16).hex()
    cfg = bp.write_config({"tokens": [{"name": "bench", "sha256": hashlib.sha256(token.encode()).hexdigest(),
                                       "rate": 10000, "burst": 10000, "role": "operator"}],
                           "pools": {"default": {"min_ready": 0, "max_ready": 0},
                                     "python": {"min_ready": 3, "max_ready": 3}}})
    port = free_port()
    url = "http://127.0.0.1:%d" % port
    d = Daemon(extra_args=["--config", cfg, "--listen", "127.0.0.1:%d" % port], wait_ready=False)

    def call(method, path, body=None):
        c = UnixHTTPConnection(d.sock, timeout=300)
        try:
            c.request(method, path, body=json.dumps(body) if body is not None else None,
                      headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
            r = c.getresponse()
            data = r.read()
            try:
                return r.status, json.loads(data)
            except ValueError:
                return r.status, {"_raw": data[:300]}
        finally:
            c.close()

    def ready(n):
        st, b = call("GET", "/v1/pools")
        return st == 200 and any(p["language"] == "python" and not p.get("draining") and p["ready"] >= n
                                 for p in b.get("pools", []))

    def timed(path, body):
        wait_until(lambda: ready(2), timeout=60, step=0.02)
        time.sleep(bp.IDLE)
        t0 = time.time()
        st, r = call("POST", path, body)
        secs = time.time() - t0
        if st != 200 or r.get("status") != "ok" or r.get("stdout") != "42\n":
            raise RuntimeError("%s: %s %s" % (path, st, str(r)[:400]))
        return secs * 1000

    try:
        if not wait_until(lambda: ready(3), timeout=120, step=0.1):
            raise RuntimeError("the python pool did not fill:\n" + d.read_log()[-2000:])
        times = {}
        times["/v1 stateless"] = [timed("/v1/executions", {"language": "python", "code": CODE})
                                  for _ in range(args.n)]
        st, s = call("POST", "/v1/sessions", {"language": "python"})
        if st != 201:
            raise RuntimeError("POST /v1/sessions: %s %s" % (st, s))
        path = "/v1/sessions/%s/executions" % s["id"]
        timed(path, {"code": CODE})  # the session's first call, not timed (as the SDK's warm-up)
        times["/v1 session"] = [timed(path, {"code": CODE}) for _ in range(args.n)]
        call("DELETE", "/v1/sessions/" + s["id"])
        sdk_note, sdk_failed = None, False
        if node_client_ready("@e2b/code-interpreter"):
            env = dict(os.environ, E2B_API_URL=url, E2B_SANDBOX_URL=url, E2B_API_KEY=token)
            p = subprocess.run(["node", os.path.join(NODE_DIR, "e2b_client.mjs"), url, token, "--bench", str(args.n)],
                               capture_output=True, text=True, timeout=600 + 60 * args.n, env=env)
            res = {}
            for line in p.stdout.splitlines():
                try:
                    o = json.loads(line)
                    if o.get("name") == "bench":
                        res = o["value"]
                except (ValueError, AttributeError):
                    pass
            if res.get("times_ms") and len(res["times_ms"]) == args.n:
                times["E2B runCode"] = res["times_ms"]
            else:
                sdk_failed = True
                sdk_note = "E2B runCode: failed (%s)" % json.dumps({k: res.get(k) for k in ("thrown", "errors")}
                                                                   if res else p.stderr[-600:])[:800]
        else:
            sdk_note = "E2B runCode: skipped, @e2b/code-interpreter is not installed in tests/node (scripts/setup.sh)"
    finally:
        d.stop()
        os.unlink(cfg)

    base = statistics.median(times["/v1 stateless"])
    out = {"n": args.n, "p50_ms": {k: statistics.median(v) for k, v in times.items()},
           "p90_ms": {k: bp.pct(v, 90) for k, v in times.items()}}
    out["ratio_p50_vs_v1"] = {k: v / base for k, v in out["p50_ms"].items()}
    print("E2B SDK runCode through warmbox against /v1, %d sequential calls each, print(6*7), pool hits (ms):"
          % args.n)
    print()
    print("| path | p50 ms | p90 ms | p50 / `/v1` stateless |")
    print("|---|---:|---:|---:|")
    for k in times:
        print("| %s | %.1f | %.1f | %.2fx |" % (k, out["p50_ms"][k], out["p90_ms"][k], out["ratio_p50_vs_v1"][k]))
    if sdk_note:
        print()
        print(sdk_note)
        out["note"] = sdk_note
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    sys.exit(1 if sdk_failed else 0)


if __name__ == "__main__":
    main()
