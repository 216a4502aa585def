#!/usr/bin/env python3
"""Sessions against the real daemon and engine (docs/api.md, "Sessions"):
a five-call Python session (a CSV sent as a file, transformed, a function
defined and used, a plot to PNG) where every call sees what the earlier
ones made and each ran in its own container, created once and started
once by the engine's own events; what is not carried (an unpicklable name
gives a warning naming it, and only that name is gone); isolation between
tokens; the state cap, the total cap's least-recently-used eviction, and
after kill -9 and a restart: session_expired, and a random marker put into
the session's variables and files found nowhere on the host's disk, in the
logs or the history."""
import base64
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import Daemon, EngineEvents, Tap, UnixHTTPConnection, rows, wait_until  # noqa: E402

t = Tap()
tokens = {name: os.urandom(16).hex() for name in ("alice", "bob")}
work = tempfile.mkdtemp(prefix="warmbox-sessions-")
cfg_path = os.path.join(work, "config.json")
with open(cfg_path, "w") as f:
    json.dump({"tokens": [{"name": n, "sha256": hashlib.sha256(v.encode()).hexdigest(), "rate": 1000,
                           "burst": 1000} for n, v in tokens.items()],
               "pools": {"default": {"min_ready": 0, "max_ready": 0},
                         "python": {"min_ready": 2, "max_ready": 4}}}, f)
t0 = time.time()
d = Daemon(extra_args=["--config", cfg_path], wait_ready=True)


def call(method, path, body=None, token="alice", daemon=None):
    c = UnixHTTPConnection((daemon or d).sock, timeout=120)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + tokens[token]
    c.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    r = c.getresponse()
    data = r.read()
    c.close()
    try:
        return r.status, json.loads(data)
    except ValueError:
        return r.status, {"_raw": data}


def run(sid, code, token="alice", daemon=None, **kw):
    body = {"code": code}
    body.update(kw)
    return call("POST", "/v1/sessions/%s/executions" % sid, body, token, daemon)


# ---- five calls, one session ------------------------------------------------

events = EngineEvents(since=int(t0) - 1, label="warmbox.instance=" + d.instance)
st, s = call("POST", "/v1/sessions", {"language": "python"})
t.ok(st == 201 and s.get("id", "").startswith("ses_") and s["calls"] == 0 and s["language"] == "python",
     "POST /v1/sessions: 201 with a session id", (st, s))
sid = s.get("id", "")
csv = "region,price,qty\nnorth,2.5,4\nsouth,1.0,10\nnorth,3.0,1\neast,4.0,2\n"
steps = [
    ("import pandas as pd\ndf = pd.read_csv('sales.csv')\nprint(len(df))",
     {"files": [{"name": "sales.csv", "content": csv}]}, "4\n"),
    ("df['total'] = df.price * df.qty\nby = df.groupby('region')['total'].sum()\nprint(by.to_dict())",
     {}, "{'east': 8.0, 'north': 13.0, 'south': 10.0}\n"),
    ("def top(n):\n    return by.sort_values(ascending=False).head(n).index.tolist()\nprint('defined')",
     {}, "defined\n"),
    ("print(top(2), len(df))", {}, "['north', 'south'] 4\n"),
    ("import matplotlib.pyplot as plt\nby.plot(kind='bar')\nplt.savefig('by_region.png')\n"
     "print(open('sales.csv').read().count(chr(10)), top(1))", {}, "5 ['north']\n"),
]
results = []
for i, (code, extra, want) in enumerate(steps):
    st, r = run(sid, code, **extra)
    results.append(r)
    t.ok(st == 200 and r.get("status") == "ok" and r.get("stdout") == want
         and r.get("session", {}).get("seq") == i + 1 and r["session"]["carried"],
         "call %d sees what the calls before it made: %r" % (i + 1, want.strip()), (st, r))
png = [f for f in results[-1].get("files", []) if f.get("name") == "by_region.png"]
t.ok(png and base64.b64decode(png[0].get("content", ""))[:8] == b"\x89PNG\r\n\x1a\n",
     "the plot comes back as a PNG file", results[-1].get("files"))
st, s = call("GET", "/v1/sessions/" + sid)
t.ok(st == 200 and s["calls"] == 5 and s["files"] == 2 and s["state_bytes"] > 0 and not s["running"],
     "GET: 5 calls, the CSV and the PNG held, a state", (st, s))

ids = [r.get("id") for r in results]
wait_until(lambda: len(rows(d.db, "SELECT 1 FROM executions WHERE session_id = ? AND status = 'ok'", sid)) == 5,
           timeout=20)
got = rows(d.db, "SELECT session_seq, container_id FROM executions WHERE session_id = ? ORDER BY session_seq", sid)
t.ok([g[0] for g in got] == [1, 2, 3, 4, 5] and len({g[1] for g in got}) == 5 and all(g[1] for g in got),
     "the history: 5 rows with the session's id and seq 1-5, 5 different containers", got)
containers = [g[1] for g in got]
wait_until(lambda: all("destroy" in events.actions(c) for c in containers), timeout=30)
lives = {c[:12]: events.actions(c) for c in containers}
t.ok(all(a.count("create") == 1 and a.count("start") == 1 for a in lives.values()),
     "the engine's events: each of the 5 containers created once and started once", lives)
t.ok(sum(a.count("create") for a in lives.values()) == 5 and sum(a.count("start") for a in lives.values()) == 5,
     "5 creates and 5 starts in all")

# ---- what is not carried ---------------------------------------------------------

st, r = run(sid, "import threading\nlk = threading.Lock()\nkeep = 7\nprint('set')")
warn = " ".join(r.get("warnings", []))
t.ok(st == 200 and r.get("stdout") == "set\n" and "lk" in warn and "keep" not in warn,
     "an unpicklable name gives a warning naming it (and only it)", r.get("warnings"))
st, r = run(sid, "print(keep, top(1))\nprint(lk)")
t.ok(st == 200 and r.get("stdout") == "7 ['north']\n" and "NameError" in r.get("stderr", "")
     and "'lk'" in r.get("stderr", ""), "the next call: NameError for that name only", r)

# ---- another token ---------------------------------------------------------------

unknown = "ses_" + "0" * 56
st_u, b_u = call("GET", "/v1/sessions/" + unknown, token="bob")
st, b = call("GET", "/v1/sessions/" + sid, token="bob")
t.ok(st == 404 and b == b_u, "another token's GET: 404, word for word as an id that never was", (st, b, b_u))
st, b = call("GET", "/v1/sessions", token="bob")
t.ok(st == 200 and b.get("sessions") == [], "its list does not show it", b)
st, b = run(sid, "print(keep)", token="bob")
t.ok(st == 404 and b == b_u, "it cannot run code in it", (st, b))
st, b = call("DELETE", "/v1/sessions/" + sid, token="bob")
t.ok(st == 404 and b == b_u, "nor delete it", (st, b))
st, b = call("GET", "/v1/sessions")
t.ok(st == 200 and [x["id"] for x in b.get("sessions", [])] == [sid], "the owner's list shows it", b)
st, r = run(sid, "print(keep)")
t.ok(st == 200 and r.get("stdout") == "7\n", "and it still works for its owner", r)

# ---- bad input -----------------------------------------------------------------------

st, b = call("POST", "/v1/sessions", {"language": "cobol"})
t.is_eq((st, b.get("error", {}).get("code")), (404, "not_found"), "an unknown language: 404")
st, b = call("POST", "/v1/sessions", {"language": "python", "ttl": 5})
t.is_eq(st, 400, "an unknown field: 400")
st, b = run(sid, "print(1)", language="javascript")
t.ok(st == 400 and "python" in b.get("error", {}).get("message", ""), "another language in a call: 400", b)
st, b = run(sid, "print(1)", files=[{"name": ".warmbox-session", "content": "x"}])
t.ok(st == 400 and ".warmbox-" in b.get("error", {}).get("message", ""), "a file named .warmbox-*: 400", b)
st, b = call("POST", "/v1/sessions/%s/executions" % sid, None)
t.is_eq(st, 400, "an empty body: 400")

# ---- delete ----------------------------------------------------------------------------

st, b = call("DELETE", "/v1/sessions/" + sid)
t.is_eq(st, 200, "DELETE by its owner")
st, b = call("GET", "/v1/sessions/" + sid)
t.ok(st == 410 and b.get("error", {}).get("code") == "session_expired" and "deleted" in b["error"]["message"],
     "then GET: 410 session_expired, it was deleted", b)
st, b = run(sid, "print(1)")
t.is_eq((st, b.get("error", {}).get("code")), (410, "session_expired"), "and a call: 410")
events.stop()
d.stop()

# ---- caps, eviction, a restart ------------------------------------------------------------

cfg2 = os.path.join(work, "config2.json")
with open(cfg2, "w") as f:
    json.dump({"tokens": [{"name": "alice", "sha256": hashlib.sha256(tokens["alice"].encode()).hexdigest(),
                           "rate": 1000, "burst": 1000}],
               "sessions": {"state_max_bytes": 400000, "max_bytes": 1048576},
               "pools": {"default": {"min_ready": 0, "max_ready": 0},
                         "python": {"min_ready": 2, "max_ready": 4}}}, f)
d2 = Daemon(extra_args=["--config", cfg2], wait_ready=True)
st, s = call("POST", "/v1/sessions", {"language": "python"}, daemon=d2)
cap = s.get("id", "")
st, r = run(cap, "x = 1\nprint(x)", daemon=d2)
st, r = run(cap, "big = bytes(500000)\nprint(len(big))", daemon=d2)
t.ok(st == 200 and r.get("stdout") == "500000\n" and r.get("session", {}).get("error") == "session_state_too_large"
     and any("past the session's cap" in w for w in r.get("warnings", [])),
     "a state over its cap: the call's result says session_state_too_large", r)
st, r = run(cap, "print(x, 'big' in dir())", daemon=d2)
t.ok(st == 200 and r.get("stdout") == "1 False\n", "and the session goes on with its last good state", r)

# Three sessions of 350 kB each: the third passes the total of 1 MiB and
# the least recently used goes.
lru = []
for i in range(3):
    st, s = call("POST", "/v1/sessions", {"language": "python"}, daemon=d2)
    lru.append(s["id"])
    st, r = run(s["id"], "import os\nblob = os.urandom(350000)\nn = %d\nprint(n)" % i, daemon=d2)
    t.ok(st == 200 and r.get("stdout") == "%d\n" % i and r["session"]["carried"], "session %d holds 350 kB" % i, r)
st, b = run(lru[0], "print(n)", daemon=d2)
t.ok(st == 410 and b.get("error", {}).get("code") == "session_expired" and "evicted" in b["error"]["message"],
     "past the total cap: the least recently used session was evicted (410 session_expired)", b)
for i in (1, 2):
    st, r = run(lru[i], "print(n, len(blob))", daemon=d2)
    t.ok(st == 200 and r.get("stdout") == "%d 350000\n" % i, "session %d is still there" % i, r)

marker = "wbmark" + os.urandom(12).hex()
st, s = call("POST", "/v1/sessions", {"language": "python"}, daemon=d2)
mid = s["id"]
st, r = run(mid, "secret = '%s'\nopen('m.txt', 'w').write(secret * 3)\nprint(len(secret))" % marker, daemon=d2,
            files=[{"name": "given.txt", "content": marker}])
t.ok(st == 200 and r["session"]["carried"] and r["session"]["files"] == 2, "the marker is in a variable and files",
     r)
os.kill(d2.proc.pid, signal.SIGKILL)
d2.proc.wait()
d3 = Daemon(extra_args=["--config", cfg2, "--store-path", d2.db], wait_ready=True)
st, b = call("GET", "/v1/sessions/" + mid, daemon=d3)
t.ok(st == 410 and b.get("error", {}).get("code") == "session_expired" and "restarted" in b["error"]["message"],
     "after kill -9 and a restart: 410 session_expired, the daemon restarted", b)
st, b = run(mid, "print(secret)", daemon=d3)
t.is_eq((st, b.get("error", {}).get("code")), (410, "session_expired"), "a call too: never a silent fresh start")
st, b = call("GET", "/v1/sessions/ses_" + "1" * 56, daemon=d3)
t.is_eq(st, 404, "an id never given out is still 404")
d3.stop()
places = [d.dir, d2.dir, d3.dir, work, "/var/log", "/var/lib/warmbox", "/var/lib/docker/containers", "/run",
          tempfile.gettempdir(), "/var/tmp"]
places = [p for p in places if os.path.isdir(p)]
p = subprocess.run(["grep", "-rlsaF", "--exclude-dir=proc", marker] + places, capture_output=True, text=True,
                   timeout=600)
t.ok(p.stdout.strip() == "", "the marker is nowhere on the host: the daemons' folders, history and logs, "
     "/var/log, /var/lib/docker/containers, /tmp, /var/tmp, /run", p.stdout[:2000])
got = rows(d2.db, "SELECT count(*) FROM executions WHERE session_id = ?", mid)
t.is_eq(got, [(1,)], "the history has the call's row (hashes only)")
t.done()
