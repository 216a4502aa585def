#!/usr/bin/env python3
"""The E2B-compatible API end to end (issue 24; the wire protocol is
../shared/reference/e2b-wire-protocol.md): the official E2B SDK from npm
(@e2b/code-interpreter 2.8.0 on e2b 2.51.0, pinned in tests/node) drives a
real warmboxd over TCP, pointed at it by E2B_API_URL = E2B_SANDBOX_URL =
the daemon's address and E2B_API_KEY = a warmbox token
(tests/node/e2b_client.mjs).  A sandbox is a session: state carried
between runCode calls, stdout streamed, errors, files, commands, charts,
setTimeout / connect / kill; each call in a container of its own, created
once and started once by the engine's own events; a second key sees none
of the first one's sandbox.  Then, by hand over HTTP, the hostile inputs
(malformed JSON, unsupported fields, unknown ids, path traversal, broken
Connect envelopes, an oversized upload, unsupported routes): each a clear
error, and the daemon serves on."""
import base64
import hashlib
import http.client
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import quote

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import NODE_DIR, Daemon, EngineEvents, Tap, free_port, node_client_ready, rows, wait_until  # noqa: E402

t = Tap()
tokens = {name: os.urandom(16).hex() for name in ("alice", "bob")}
work = tempfile.mkdtemp(prefix="warmbox-e2b-")
cfg_path = os.path.join(work, "config.json")
with open(cfg_path, "w") as f:
    json.dump({"tokens": [{"name": n, "sha256": hashlib.sha256(v.encode()).hexdigest(), "rate": 1000,
                           "burst": 1000} for n, v in tokens.items()],
               "pools": {"default": {"min_ready": 0, "max_ready": 0},
                         "python": {"min_ready": 2, "max_ready": 4}}}, f)
PORT = free_port()
URL = "http://127.0.0.1:%d" % PORT
t0 = time.time()
d = Daemon(extra_args=["--config", cfg_path, "--listen", "127.0.0.1:%d" % PORT], wait_ready=False)

ENVD, JUPYTER = "49983", "49999"


def request(method, path, body=b"", headers=None, chunked=False, timeout=60):
    """One HTTP/1.1 request on a connection of its own to the TCP listener:
    (status or None, {header: value} lower-cased, body bytes).  The body is
    sent by a thread while the answer is read, so a server that answers
    early (413) and stops reading is seen answering, not as a broken
    pipe; an error or a hang gives status None and the reason as body."""
    if isinstance(body, str):
        body = body.encode()
    s = socket.create_connection(("127.0.0.1", PORT), timeout=timeout)
    head = "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n" % (method, path, PORT)
    for k, v in (headers or {}).items():
        head += "%s: %s\r\n" % (k, v)
    if chunked:
        head += "Transfer-Encoding: chunked\r\n"
    elif body or method in ("POST", "PUT"):
        head += "Content-Length: %d\r\n" % len(body)
    head += "\r\n"

    def send():
        try:
            s.sendall(head.encode())
            for i in range(0, len(body), 65536):
                piece = body[i:i + 65536]
                s.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            if chunked:
                s.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server stopped reading: its answer says why

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    try:
        resp = http.client.HTTPResponse(s, method=method)
        resp.begin()
        data = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
    except (OSError, http.client.HTTPException) as e:
        return None, {}, ("no answer: %r" % e).encode()
    finally:
        sender.join(timeout=5)
        s.close()


def as_json(data):
    try:
        return json.loads(data)
    except (ValueError, TypeError):
        return None


def api(method, path, body=None, key="alice", raw=None, **kw):
    """A control-plane (REST) call as the SDK makes it, with X-API-Key."""
    headers = {"Content-Type": "application/json"}
    if key:
        headers["X-API-Key"] = tokens.get(key, key)
    data = raw if raw is not None else (json.dumps(body) if body is not None else b"")
    st, h, b = request(method, path, data, headers, **kw)
    return st, h, b


def sandbox_headers(sid, token, port=ENVD, **extra):
    h = {"E2b-Sandbox-Id": sid, "E2b-Sandbox-Port": port}
    if token is not None:
        h["X-Access-Token"] = token
    h.update(extra)
    return h


def rest_error(st, b, want):
    """A REST / envd-REST error: that status, a JSON body {"code": status, ...}."""
    j = as_json(b)
    return st == want and isinstance(j, dict) and j.get("code") == want


def v1(method, path, body=None):
    """warmbox's own /v1 over the TCP listener, as alice (Bearer)."""
    st, h, b = request(method, path, json.dumps(body) if body is not None else b"",
                       {"Content-Type": "application/json", "Authorization": "Bearer " + tokens["alice"]})
    return st, as_json(b)


def languages_ready():
    st, b = v1("GET", "/v1/languages")
    return st == 200 and all(x.get("ready") for x in (b or {}).get("languages", [])
                             if x.get("language") in ("python", "bash"))


t.ok(wait_until(languages_ready, timeout=60), "the daemon is up on TCP, with tokens, and its images ready")


def run_node(*args, timeout=900):
    """tests/node/e2b_client.mjs: (exit status, {step: value}, stderr); a run
    that outlives timeout keeps the steps it printed."""
    argv = ["node", os.path.join(NODE_DIR, "e2b_client.mjs")] + list(args)
    env = dict(os.environ, E2B_API_URL=URL, E2B_SANDBOX_URL=URL, E2B_API_KEY=tokens["alice"])
    env.pop("E2B_DEBUG", None)
    env.pop("E2B_DOMAIN", None)
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        dec = lambda x: x.decode("utf-8", "replace") if isinstance(x, bytes) else (x or "")  # noqa: E731
        rc, out, err = None, dec(e.stdout), dec(e.stderr) + "\n(timed out after %d s)" % timeout
    steps = {}
    for line in out.splitlines():
        try:
            o = json.loads(line)
            steps[o["name"]] = o["value"]
        except (ValueError, KeyError, TypeError):
            pass
    return rc, steps, err


def thrown(v):
    return v.get("thrown") if isinstance(v, dict) else None


def ok_value(v):
    """A step that did not throw."""
    return v is not None and not thrown(v)


def stdout_of(ex):
    return "".join((ex or {}).get("stdout") or []) if isinstance(ex, dict) else ""


def png_results(ex):
    return [r for r in (ex or {}).get("results") or [] if r.get("png")]


def good_png(r):
    p = r.get("png") or {}
    return p.get("magic") is True and p.get("head", "").startswith("iVBORw0KGgo") and p.get("bytes", 0) > 100


# ---- the SDK --------------------------------------------------------------------

if not node_client_ready("@e2b/code-interpreter"):
    t.ok(True, "# SKIP the E2B SDK steps: @e2b/code-interpreter is not installed in tests/node "
         "(scripts/setup.sh runs npm ci)")
else:
    events = EngineEvents(since=int(t0) - 1, label="warmbox.instance=" + d.instance)
    rc, res, stderr = run_node(URL, tokens["alice"], tokens["bob"])
    summary = res.get("summary") or {}
    t.ok(rc == 0 and "summary" in res, "the SDK script ran every step", (rc, stderr[-2000:]))
    failed = {k: thrown(v) for k, v in res.items() if thrown(v)}
    if failed:
        t.diag("steps that threw: " + json.dumps(failed)[:3000])

    # 1. create
    created = res.get("create") or {}
    sid = created.get("sandboxId") or ""
    t.ok(isinstance(sid, str) and sid != "", "Sandbox.create(): a sandbox with an id", created)
    t.ok(created.get("hasAccessToken") is True, "the create answer carries an envd access token", created)

    # 2. state
    t.ok(isinstance(res.get("state_set"), dict) and ok_value(res["state_set"]) and not res["state_set"].get("error")
         and "results" in res["state_set"], "runCode('x = 21')",
         res.get("state_set"))
    r = res.get("state_use") or {}
    t.ok(r.get("text") == "42" and not r.get("error")
         and any(x.get("isMainResult") is True and x.get("text") == "42" for x in r.get("results") or []),
         "runCode('x * 2'): execution.text is '42', the main result", r)

    # 3. streaming, proved by the order of events (no durations)
    r = res.get("stream") or {}
    evs = r.get("events") or []
    kinds = [(e.get("ev"), e.get("line", "")) for e in evs]

    def index(pred):
        return next((i for i, e in enumerate(evs) if pred(e)), None)

    i1 = index(lambda e: e.get("ev") == "stdout" and "tick 1" in e.get("line", ""))
    ip = index(lambda e: e.get("ev") == "probe")
    i2 = index(lambda e: e.get("ev") == "stdout" and "tick 2" in e.get("line", ""))
    iend = index(lambda e: e.get("ev") == "settled")
    t.ok(i1 is not None and evs[i1].get("settled") is False and "tick 2" not in evs[i1].get("line", ""),
         "onStdout gets 'tick 1' on its own while runCode is still unsettled", kinds)
    t.ok(None not in (i1, ip, i2, iend) and i1 < ip < i2 < iend and evs[ip].get("status") == 200
         and evs[ip].get("settled") is False,
         "a round trip to the daemon started at 'tick 1' completes before 'tick 2' arrives, and before the run "
         "settles: stdout streamed, not held to the end", kinds)
    t.ok(stdout_of(r.get("execution")) == "tick 1\ntick 2\n", "and the execution's logs hold both lines",
         r.get("execution"))

    # 4. an exception
    r = res.get("error") or {}
    err = r.get("error") or {}
    t.ok(err.get("name") == "ZeroDivisionError" and err.get("value") == "division by zero"
         and "ZeroDivisionError" in (err.get("traceback") or ""),
         "runCode('1/0'): execution.error with name, value and a traceback (runCode does not throw)", r)

    # 5. files.write, then code reads it
    r = res.get("write") or {}
    t.ok(ok_value(res.get("write")) and r.get("path") == "/home/user/data.txt" and r.get("name") == "data.txt",
         "files.write('/home/user/data.txt'): its WriteInfo", res.get("write"))
    t.is_eq(stdout_of(res.get("read_abs")), "hello e2b\n", "runCode reads it at /home/user/data.txt")
    t.is_eq(stdout_of(res.get("read_rel")), "hello e2b\n", "and as data.txt (the working directory is /home/user)")

    # 6, 7. commands
    r = res.get("ls") or {}
    t.ok(r.get("exitCode") == 0 and "data.txt" in (r.get("stdout") or "").split(),
         "commands.run('ls'): exit 0, data.txt listed", r)
    e = thrown(res.get("exit3")) or {}
    t.ok(e.get("commandExitError") is True and e.get("exitCode") == 3 and e.get("stderr") == "oops\n",
         "commands.run('echo oops >&2; exit 3') throws CommandExitError, exitCode 3, stderr 'oops\\n'",
         res.get("exit3"))

    # 8. matplotlib
    r = res.get("chart_show") or {}
    pngs = png_results(r)
    t.ok(len(r.get("results") or []) == 1 and len(pngs) == 1 and good_png(pngs[0]) and not r.get("error"),
         "plt.show(): one result, a PNG (base64, 'iVBORw0KGgo...')", r)
    r = res.get("chart_open") or {}
    pngs = png_results(r)
    t.ok(len(pngs) == 1 and good_png(pngs[0]) and stdout_of(r) == "drawn\n" and not r.get("error"),
         "a figure left open at the cell's end: a PNG result too", r)
    r = res.get("dataframe") or {}
    main = [x for x in r.get("results") or [] if x.get("isMainResult")]
    t.ok(main and "html" in (main[0].get("formats") or []) and "a" in (main[0].get("text") or ""),
         "a DataFrame as the last expression: the main result has text and html", r)
    r = res.get("unicode") or {}
    err = r.get("error") or {}
    t.ok(err.get("name") == "ValueError" and err.get("value") == "na\u00efve caf\u00e9"
         and "".join(r.get("stdout") or []) == "h\u00e9llo \u2603\n",
         "non-ASCII text: stdout and the error's value arrive whole (ASCII-escaped on the wire)", r)
    t.ok(res.get("main_py") == 'print("mine")',
         "a file named main.py outlives a runCode and a command (the program's own file steps aside)",
         res.get("main_py"))
    r = res.get("quoted") or {}
    t.ok(r.get("text") == "hi", "runCode(\"'hi'\"): text 'hi' (the outer quotes stripped, as E2B's server does)", r)

    # 9. files.list, read, exists, remove
    r = res.get("list")
    entries = r if isinstance(r, list) else []
    t.ok(any(x.get("name") == "data.txt" and x.get("type") == "file" and x.get("path") == "/home/user/data.txt"
             for x in entries), "files.list('/home/user') lists data.txt, type 'file'", r)
    t.is_eq(res.get("files_read"), "hello e2b", "files.read returns what was written")
    t.is_eq(res.get("exists"), True, "files.exists('/home/user/data.txt'): true")
    t.is_eq(res.get("exists_nope"), False, "files.exists('/home/user/nope'): false")
    t.ok(res.get("remove") is True and res.get("exists_after_remove") is False,
         "files.remove, then exists: false", (res.get("remove"), res.get("exists_after_remove")))
    t.is_eq(stdout_of(res.get("gone_code")), "False False\n", "runCode no longer sees it")
    r = res.get("gone_ls") or {}
    t.ok(r.get("exitCode") == 0 and "data.txt" not in (r.get("stdout") or ""), "nor commands.run('ls -a')", r)

    # 13. isolation between keys
    r = res.get("alice_list") or {}
    alice_lists = bool(sid) and sid in (r.get("ids") or [])
    t.ok(alice_lists, "Sandbox.list() as its owner lists the sandbox", r)
    e = thrown(res.get("bob_connect"))
    t.ok(bool(sid) and e is not None, "another key: Sandbox.connect(id) throws", res.get("bob_connect"))
    t.diag("bob's connect: %s" % json.dumps(e))
    r = res.get("bob_list") or {}
    t.ok(alice_lists and ok_value(res.get("bob_list")) and sid not in (r.get("ids") or []),
         "Sandbox.list() as another key does not list it", r)
    t.ok(bool(sid) and thrown(res.get("bob_get_info")) is not None, "Sandbox.getInfo(id) as another key throws",
         res.get("bob_get_info"))
    t.ok(bool(sid) and (thrown(res.get("bob_kill")) or (res.get("bob_kill") or {}).get("killed") is False)
         and res.get("alice_still_running") is True,
         "Sandbox.kill(id) as another key does not kill it (the owner's isRunning() is still true)",
         (res.get("bob_kill"), res.get("alice_still_running")))
    r = res.get("raw_read_right_token") or {}
    control = r.get("status") == 200 and r.get("body") == "hello e2b"
    t.ok(control, "control: GET /files with the sandbox headers and its access token reads the file", r)
    for name, what in (("bob_read_wrong_token", "a wrong access token"), ("bob_read_no_token", "no access token")):
        r = res.get(name) or {}
        t.ok(control and r.get("status") not in (None, 200) and "hello e2b" not in (r.get("body") or ""),
             "another key reading its file with %s: refused (%s)" % (what, r.get("status")), r)
    r = res.get("bob_execute_wrong_token") or {}
    t.ok(bool(sid) and r.get("status") not in (None, 200), "/execute with a wrong access token: refused (%s)"
         % r.get("status"), r)

    # 10. setTimeout, connect, getInfo
    t.is_eq(res.get("set_timeout"), True, "sandbox.setTimeout(60_000) resolves")
    r = res.get("connect") or {}
    t.ok(bool(sid) and r.get("sandboxId") == sid and (r.get("x") or {}).get("text") == "21",
         "Sandbox.connect(id): the same sandbox, runCode('x') still gives '21'", r)
    r = res.get("get_info") or {}
    t.ok(bool(sid) and r.get("sandboxId") == sid, "sandbox.getInfo(): its id", r)

    # 11. kill
    killed = (res.get("kill") or {}).get("killed") is True
    t.ok(bool(sid) and killed, "sandbox.kill() resolves true", res.get("kill"))
    e = thrown(res.get("connect_after_kill"))
    t.ok(killed and e is not None, "after kill: Sandbox.connect(id) throws (%s)" % (e or {}).get("name"),
         res.get("connect_after_kill"))
    t.ok(killed and res.get("running_after_kill") is False, "isRunning() is false",
         res.get("running_after_kill"))
    r = res.get("list_after_kill") or {}
    t.ok(killed and ok_value(res.get("list_after_kill")) and sid not in (r.get("ids") or []),
         "Sandbox.list() no longer lists it", r)

    # 12. each call in a fresh container, created once and started once:
    # Docker's own events (or the OCI engine's), as test_sessions does.
    calls = (summary.get("calls") or {}).get("completed", 0)

    def started():
        return events.starts({d.instance})

    wait_until(lambda: len(started()) >= calls and all("destroy" in events.actions(c) for c in started()),
               timeout=60)
    lives = {c[:12]: events.actions(c) for c in started()}
    t.diag("%d SDK calls ran (%s); %d containers started" % (calls, json.dumps(summary.get("calls")), len(lives)))
    t.ok(calls > 0 and all(a.count("create") == 1 and a.count("start") == 1 for a in lives.values()),
         "the engine's events: every container started was created once and started once", lives)
    t.ok(calls > 0 and len(lives) >= calls,
         "at least as many containers started as runCode + commands.run calls ran (%d >= %d)" % (len(lives), calls))
    t.ok(calls > 0 and all("destroy" in a for a in lives.values()), "and each was removed after its call", lives)
    # The history: the session's executions, each in a container of its own
    # (when it files them under the sandbox's id, as /v1 sessions are).
    got = []
    if sid:
        wait_until(lambda: len(rows(d.db, "SELECT 1 FROM executions WHERE session_id = ?", sid)) >= calls,
                   timeout=10)
        got = rows(d.db, "SELECT container_id FROM executions WHERE session_id = ?", sid)
    if got:
        cids = [g[0] for g in got]
        t.ok(len(set(cids)) == len(cids) and all(any(s.startswith(c) or c.startswith(s) for s in started())
                                                 for c in cids if c),
             "the history's rows for the sandbox: %d containers, all different, each among those started"
             % len(cids), cids)
    else:
        t.diag("the history has no rows under session id %r: checked by the engine's events alone" % sid)
    events.stop()

# ---- by hand: auth, then hostile inputs ----------------------------------------

st, h, b = api("POST", "/v2/sandboxes", {"templateID": "code-interpreter-v1", "timeout": 120}, key=None)
t.is_eq(st, 401, "POST /v2/sandboxes without X-API-Key: 401")
st, h, b = api("POST", "/v2/sandboxes", {"templateID": "code-interpreter-v1", "timeout": 120}, key="nope")
t.ok(st == 401 and isinstance(as_json(b), dict), "with a wrong key: 401, JSON", (st, b[:300]))

st, h, b = api("POST", "/v2/sandboxes", {"templateID": "code-interpreter-v1", "timeout": 120})
created = as_json(b) or {}
RID = created.get("sandboxID") or ""
TOKEN = created.get("envdAccessToken") or ""
ver = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)", str(created.get("envdVersion", "")))
t.ok(st in (200, 201) and RID and TOKEN and ver and tuple(map(int, ver.groups())) >= (0, 1, 0),
     "a raw POST /v2/sandboxes: 201, sandboxID, envdAccessToken, envdVersion semver >= 0.1.0", (st, b[:400]))
RID_Q = quote(RID or "none", safe="")
# The checks below send the right sandbox id and access token: a 401 there
# would be the sandbox plane not working, not an answer to the input.
live = bool(RID and TOKEN)
st, h, b = api("GET", "/sandboxes/" + RID_Q)
t.ok(st == 200 and (as_json(b) or {}).get("sandboxID") == RID, "GET /sandboxes/{id} as its owner", (st, b[:300]))
st, h, b = api("GET", "/sandboxes/" + RID_Q, key="bob")
t.ok(rest_error(st, b, 404), "as another key: 404 {\"code\":404} (as an id that never was)", (st, b[:300]))

st, h, b = api("POST", "/v2/sandboxes", raw="{not json")
t.ok(rest_error(st, b, 400), "POST /v2/sandboxes with '{not json': 400 JSON", (st, b[:300]))
st, h, b = api("POST", "/v2/sandboxes", {"templateID": "base", "autoPause": True})
t.ok(rest_error(st, b, 400), "autoPause (not supported): 400 JSON", (st, b[:300]))
st, h, b = api("POST", "/v2/sandboxes", {"templateID": "base", "allow_internet_access": True})
t.ok(rest_error(st, b, 400) and "network" in as_json(b).get("message", ""),
     "allow_internet_access: true: 400 JSON saying sandboxes have no network", (st, b[:300]))
st, h, b = api("POST", "/v2/sandboxes", {"templateID": "my-own-template"})
t.ok(rest_error(st, b, 400), "an unknown template: 400 JSON", (st, b[:300]))
st, h, b = api("POST", "/sandboxes/UNKNOWN/timeout", {"timeout": 5})
t.ok(rest_error(st, b, 404), "POST /sandboxes/UNKNOWN/timeout: 404 {\"code\":404}", (st, b[:300]))
st, h, b = api("DELETE", "/sandboxes/ses_unknown")
t.ok(rest_error(st, b, 404), "DELETE /sandboxes/ses_unknown: 404 {\"code\":404}", (st, b[:300]))
st, h, b = api("POST", "/v2/sandboxes/ses_unknown/connect", {})
t.ok(rest_error(st, b, 404), "POST /v2/sandboxes/ses_unknown/connect: 404 {\"code\":404}", (st, b[:300]))


def connect_unary(method, msg, sid=None, token=None):
    return request("POST", "/filesystem.Filesystem/" + method, json.dumps(msg),
                   sandbox_headers(sid or RID, TOKEN if token is None else token, **{
                       "Content-Type": "application/json", "Connect-Protocol-Version": "1"}))


def connect_error(st, h, b, codes):
    j = as_json(b)
    return (live and st not in (None, 200, 401) and "application/json" in h.get("content-type", "")
            and isinstance(j, dict) and j.get("code") in codes)


st, h, b = connect_unary("Stat", {"path": "/home/user/../../etc/passwd"})
t.ok(connect_error(st, h, b, ("invalid_argument", "not_found")) and not (as_json(b) or {}).get("entry")
     and b"root:" not in b,
     "Stat /home/user/../../etc/passwd: a Connect error (invalid_argument / not_found), not the host's file",
     (st, h.get("content-type"), b[:300]))
st, h, b = connect_unary("ListDir", {"path": "/etc", "depth": 1})
t.ok(connect_error(st, h, b, ("invalid_argument", "not_found", "unimplemented", "permission_denied"))
     and not (as_json(b) or {}).get("entries") and b"passwd" not in b, "ListDir /etc: a Connect error, no host "
     "listing", (st, b[:300]))
st, h, b = connect_unary("Stat", {"path": "/home/user/x"}, token="wrong")
t.ok(live and st not in (None, 200), "Stat with a wrong access token: refused (%s)" % st, (st, b[:300]))

for path in ("/etc/passwd", "/home/user/../../etc/passwd", "/home/user/%2e%2e/%2e%2e/etc/passwd"):
    q = path if "%" in path else quote(path, safe="/")
    st, h, b = request("GET", "/files?path=" + q, headers=sandbox_headers(RID, TOKEN))
    t.ok(live and st is not None and 400 <= st < 500 and st != 401 and b"root:" not in b,
         "GET /files?path=%s: 4xx (%s), not the host's file" % (path, st), (st, b[:300]))

# A write that climbs out of /home/user must not land on the host.
evil = "warmbox-e2b-evil-%s" % os.urandom(6).hex()
boundary = "----warmboxtest%s" % os.urandom(4).hex()


def multipart(filename, content):
    return (("--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\n"
             "Content-Type: application/octet-stream\r\n\r\n" % (boundary, filename)).encode()
            + content + ("\r\n--%s--\r\n" % boundary).encode())


upload_headers = sandbox_headers(RID, TOKEN, **{"Content-Type": "multipart/form-data; boundary=" + boundary})
target = "/home/user/../../tmp/" + evil
st, h, b = request("POST", "/files?path=" + quote(target, safe="/"), multipart(target, b"evil"), upload_headers)
t.ok(live and st is not None and 400 <= st < 500 and st != 401 and not os.path.exists("/tmp/" + evil),
     "POST /files?path=/home/user/../../tmp/...: 4xx (%s), nothing written on the host" % st, (st, b[:300]))


def envelope(flags, payload):
    return bytes([flags]) + struct.pack(">I", len(payload)) + payload


def envelopes(data):
    """[(flags, parsed JSON or raw)] of a Connect streaming body."""
    out, i = [], 0
    while i + 5 <= len(data):
        n = struct.unpack(">I", data[i + 1:i + 5])[0]
        chunk = data[i + 5:i + 5 + n]
        out.append((data[i], as_json(chunk) if as_json(chunk) is not None else chunk))
        i += 5 + n
    return out


def start(body):
    return request("POST", "/process.Process/Start", body, sandbox_headers(RID, TOKEN, **{
        "Content-Type": "application/connect+json", "Connect-Protocol-Version": "1", "Connect-Timeout-Ms": "30000"}),
        timeout=60)


def stream_error(st, b):
    """A streaming RPC refused: HTTP 4xx, or 200 ending with an end-stream
    envelope (flags 0x02) whose JSON has "error", and no process started."""
    if not live or st == 401:
        return False
    if st is not None and 400 <= st < 500:
        return True
    envs = envelopes(b) if st == 200 else []
    return (bool(envs) and envs[-1][0] == 0x02 and isinstance(envs[-1][1], dict) and "error" in envs[-1][1]
            and not any(isinstance(m, dict) and "start" in (m.get("event") or {}) for _, m in envs))


cmd = json.dumps({"process": {"cmd": "/bin/bash", "args": ["-l", "-c", "echo pwned"]}, "stdin": False}).encode()
ok_cmd = json.dumps({"process": {"cmd": "/bin/bash", "args": ["-l", "-c", "echo fine"]}, "stdin": False}).encode()
st, h, b = start(envelope(0, ok_cmd))
envs = envelopes(b)


def stdout_bytes(envs):
    out = b""
    for _, m in envs:
        data = (m.get("event") or {}).get("data") if isinstance(m, dict) else None
        if isinstance(data, dict) and data.get("stdout"):
            try:
                out += base64.b64decode(data["stdout"])
            except ValueError:
                out += b"<not base64>"
    return out


out = stdout_bytes(envs)
t.ok(st == 200 and envs and envs[-1][0] == 0x02 and out == b"fine\n",
     "control: a well-formed Start envelope runs (start, data 'fine', end, end-stream)", (st, envs[:6]))
st, h, b = start(b"\x00" + struct.pack(">I", 1000) + cmd[:20])
t.ok(stream_error(st, b), "Start with an envelope longer than its body: an error (%s), no process" % st,
     (st, envelopes(b)[:4] if st == 200 else b[:300]))
st, h, b = start(envelope(0x01, cmd))
t.ok(stream_error(st, b), "Start with the compressed flag (0x01): an error (%s), no process" % st,
     (st, envelopes(b)[:4] if st == 200 else b[:300]))
st, h, b = start(b"\x00\x00")
t.ok(stream_error(st, b), "Start with a 2-byte body: an error (%s)" % st, (st, b[:300]))
st, h, b = start(envelope(0, b"{not json"))
t.ok(stream_error(st, b), "Start with a payload that is not JSON: an error (%s)" % st, (st, b[:300]))

big = multipart("/home/user/big.bin", b"\0" * (20 << 20))
for chunked in (False, True):
    st, h, b = request("POST", "/files?path=" + quote("/home/user/big.bin", safe="/"), big, upload_headers,
                       chunked=chunked, timeout=120)
    # 507: envd's "not enough space" (the SDK's NotEnoughSpaceError): past the
    # session's file budget, which is its disk.
    t.ok(live and st == 507 and isinstance(as_json(b), dict) and "16777216" in as_json(b).get("message", ""),
         "POST /files of 20 MiB (%s): 507 JSON naming the cap (%s)" % ("chunked" if chunked else "Content-Length", st),
         (st, h.get("content-type"), b[:300]))
st, h, b = request("GET", "/files?path=" + quote("/home/user/big.bin", safe="/"), headers=sandbox_headers(RID, TOKEN))
t.ok(live and rest_error(st, b, 404), "and nothing of it was kept: GET it is 404 {\"code\":404}", (st, b[:200]))

st, h, b = request("POST", "/execute", json.dumps({"code": "print(1)"}),
                   sandbox_headers("ses_" + "0" * 56, TOKEN, port=JUPYTER, **{"Content-Type": "application/json"}))
t.is_eq(st, 502, "/execute for an unknown sandbox id: 502 (the SDK's 'sandbox is gone')")
st, h, b = request("GET", "/health", headers=sandbox_headers("ses_unknown", TOKEN))
t.ok(st == 502 and rest_error(st, b, 502), "GET /health for an unknown sandbox id: 502 {\"code\":502} (isRunning() false)",
     (st, b[:200]))
st, h, b = request("POST", "/filesystem.Filesystem/Stat", json.dumps({"path": "a"}),
                   sandbox_headers("ses_unknown", TOKEN, **{"Content-Type": "application/json"}))
t.ok(st == 502 and (as_json(b) or {}).get("code") == "unavailable",
     "a Connect call for an unknown sandbox: 502 with a Connect error body", (st, b[:200]))
st, h, b = request("GET", "/health")
t.ok(st == 400 and rest_error(st, b, 400), "a sandbox-plane request without E2b-Sandbox-Id: 400 JSON", (st, b[:200]))
st, h, b = request("GET", "/health", headers=sandbox_headers(RID, TOKEN))
t.is_eq(st, 204, "GET /health for a live one: 204")

st, h, b = api("POST", "/sandboxes/%s/pause" % RID_Q, {})
t.ok(rest_error(st, b, 501), "POST /sandboxes/{id}/pause: 501 JSON (not supported, never 404)", (st, b[:300]))
st, h, b = api("GET", "/sandboxes/%s/metrics" % RID_Q)
t.ok(rest_error(st, b, 501), "GET /sandboxes/{id}/metrics: 501 JSON", (st, b[:300]))

# ---- and it still serves -----------------------------------------------------------

st, h, b = request("GET", "/healthz")
t.ok(st == 200 and d.proc.poll() is None, "after all that the daemon runs and /healthz answers", (st, b[:200]))
st, h, b = request("POST", "/execute", json.dumps({"code": "print(6*7)"}),
                   sandbox_headers(RID, TOKEN, port=JUPYTER, **{"Content-Type": "application/json"}), timeout=120)
lines = [as_json(x) for x in b.split(b"\n") if x.strip()]
t.ok(st == 200 and lines and None not in lines
     and "".join(m.get("text", "") for m in lines if isinstance(m, dict) and m.get("type") == "stdout") == "42\n",
     "and runs code: /execute print(6*7) streams stdout '42' (NDJSON)", (st, b[:400]))
st, h, b = api("DELETE", "/sandboxes/" + RID_Q)
t.ok(st in (200, 204) and (st == 204 or h.get("content-length") == "0" or not b),
     "DELETE /sandboxes/{id}: 204 (or an empty 200)", (st, h, b[:200]))
st, h, b = api("DELETE", "/sandboxes/" + RID_Q)
t.ok(rest_error(st, b, 404), "again: 404 {\"code\":404} (kill() then returns false)", (st, b[:200]))

t.is_eq(d.stop(), 0, "daemon exits 0")
shutil.rmtree(work, ignore_errors=True)
log = d.read_log()
secrets = list(tokens.values()) + ([TOKEN] if TOKEN else []) + ["hello e2b"]
t.ok(not any(s in log for s in secrets), "no API key, access token or file content in the daemon's log")
t.done()
