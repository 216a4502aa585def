#!/usr/bin/env python3
"""API tokens against the real daemon: 401 without a valid token, the
probes open, per-token rate and concurrency limits (429 with Retry-After),
the token's name in the history, a TCP listener allowed with tokens, and
the CLI with WARMBOX_TOKEN."""
import concurrent.futures as cf
import hashlib
import http.client
import json
import os
import socket
import sqlite3
import subprocess
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import WARMBOX, Daemon, Tap, UnixHTTPConnection, wait_until  # noqa: E402

t = Tap()
tokens = {name: os.urandom(16).hex() for name in ("alice", "carol")}
cfg = {"tokens": [
    {"name": "alice", "sha256": hashlib.sha256(tokens["alice"].encode()).hexdigest(), "rate": 0.2, "burst": 2},
    {"name": "carol", "sha256": hashlib.sha256(tokens["carol"].encode()).hexdigest(), "rate": 100,
     "burst": 100, "max_concurrent": 1}]}
s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
path = os.path.join("/tmp", "warmbox-auth-%d.json" % os.getpid())
with open(path, "w") as f:
    json.dump(cfg, f)
d = Daemon(extra_args=["--config", path, "--listen", "127.0.0.1:%d" % port], wait_ready=False)


def call(method, url, body=None, token=None, conn=None):
    c = conn or UnixHTTPConnection(d.sock)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    c.request(method, url, body=json.dumps(body) if body is not None else None, headers=headers)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, dict(r.getheaders()), json.loads(data) if data else None


st, h, b = call("POST", "/v1/executions", {"language": "python", "code": "print(1)"})
t.ok(st == 401 and b["error"]["code"] == "unauthorized" and "Bearer" in h.get("WWW-Authenticate", ""),
     "no token: 401 with WWW-Authenticate", (st, h, b))
st, h, b = call("POST", "/v1/executions", {"language": "python", "code": "print(1)"}, token="nope")
t.is_eq(st, 401, "a wrong token: 401")
t.is_eq(call("GET", "/healthz")[0], 200, "/healthz needs no token")
t.is_eq(call("GET", "/v1/languages")[0], 401, "/v1/languages needs one")
t.ok(wait_until(lambda: call("GET", "/v1/languages", token=tokens["alice"])[2]["languages"][0]["ready"], timeout=30),
     "with a token it answers")

st1 = call("POST", "/v1/executions", {"language": "python", "code": "print('a1')"}, token=tokens["alice"])
st2 = call("POST", "/v1/executions", {"language": "python", "code": "print('a2')"}, token=tokens["alice"])
st3, h3, b3 = call("POST", "/v1/executions", {"language": "python", "code": "print('a3')"}, token=tokens["alice"])
t.ok(st1[0] == 200 and st2[0] == 200, "alice's burst of 2 runs")
t.ok(st3 == 429 and b3["error"]["code"] == "rate_limited" and int(h3.get("Retry-After", "0")) >= 1,
     "the third gets 429 with Retry-After (%s s)" % h3.get("Retry-After"), (st3, h3, b3))

with cf.ThreadPoolExecutor(2) as ex:
    long_run = ex.submit(call, "POST", "/v1/executions",
                         {"language": "python", "code": "import time\ntime.sleep(3)"}, tokens["carol"])
    # Her first is in flight once its container runs: wait for that.
    wait_until(lambda: len(d.our_running()) == 1, timeout=60, step=0.05)
    st, h, b = call("POST", "/v1/executions", {"language": "python", "code": "print(2)"}, token=tokens["carol"])
    t.ok(st == 429 and "running" in b["error"]["message"], "carol's second concurrent execution: 429", (st, b))
    t.is_eq(long_run.result()[0], 200, "her first one finishes")
st, h, b = call("POST", "/v1/executions", {"language": "python", "code": "print(3)"}, token=tokens["carol"])
t.is_eq(st, 200, "once it finished she may run again")

c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
st, h, b = call("POST", "/v1/executions", {"language": "javascript", "code": "console.log(4)"},
                token=tokens["carol"], conn=c)
t.ok(st == 200 and b["stdout"] == "4\n", "the TCP listener runs with tokens, no --insecure-no-auth needed")

env = dict(os.environ, WARMBOX_URL="unix:" + d.sock, WARMBOX_TOKEN=tokens["carol"])
p = subprocess.run([WARMBOX, "run", "python", "-c", "print(5)"], capture_output=True, env=env, timeout=60)
t.is_eq((p.returncode, p.stdout), (0, b"5\n"), "warmbox run sends WARMBOX_TOKEN")
env["WARMBOX_TOKEN"] = "wrong"
p = subprocess.run([WARMBOX, "run", "python", "-c", "print(5)"], capture_output=True, env=env, timeout=60)
t.ok(p.returncode == 125 and b"HTTP 401" in p.stderr, "a wrong WARMBOX_TOKEN is explained", p.stderr)

# SIGHUP reloads the tokens: alice is dropped, dave added, carol kept.
tokens["dave"] = os.urandom(16).hex()
cfg["tokens"] = [cfg["tokens"][1], {"name": "dave", "sha256": hashlib.sha256(tokens["dave"].encode()).hexdigest(),
                                    "rate": 100, "burst": 100}]
with open(path, "w") as f:
    json.dump(cfg, f)
d.proc.send_signal(signal.SIGHUP)
t.ok(wait_until(lambda: call("GET", "/v1/languages", token=tokens["dave"])[0] == 200, timeout=20),
     "after SIGHUP a new token is accepted")
t.is_eq(call("GET", "/v1/languages", token=tokens["alice"])[0], 401, "a dropped token is refused")
st, h, b = call("POST", "/v1/executions", {"language": "python", "code": "print(6)"}, token=tokens["carol"])
t.ok(st == 200 and b["stdout"] == "6\n", "a kept token still runs", (st, b))
st, h, b = call("POST", "/v1/executions", {"language": "python", "code": "print(7)"}, token=tokens["dave"])
t.ok(st == 200 and b["stdout"] == "7\n", "the new token runs", (st, b))
with open(path, "w") as f:
    json.dump({}, f)
d.proc.send_signal(signal.SIGHUP)
t.ok(wait_until(lambda: "authentication can't be turned off" in d.read_log(), timeout=20),
     "a reload without tokens is refused (auth can't be switched off by SIGHUP)")
t.is_eq(call("GET", "/v1/languages")[0], 401, "... and requests still need a token")
t.is_eq(call("GET", "/v1/languages", token=tokens["dave"])[0], 200, "... the running tokens stay")
os.unlink(path)

t.is_eq(d.stop(), 0, "exits 0")
db = sqlite3.connect(d.db)
clients = dict(db.execute("SELECT client, count(*) FROM executions GROUP BY client").fetchall())
db.close()
t.ok(clients.get("alice") == 2 and clients.get("carol", 0) >= 3, "the history names each execution's token", clients)
log = d.read_log()
t.ok(all(tok not in log for tok in tokens.values()), "no token appears in the log")
t.done()
