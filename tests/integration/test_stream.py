#!/usr/bin/env python3
"""Streamed output (Accept: application/x-ndjson, docs/api.md): a program
that prints, sleeps 2 s and prints again has its first chunk at the client
before the sleep ends; chunks are byte-exact (binary as base64) and add up
to the result's stdout; a session's call streams too; 200 MB written to a
reader taking 10 KB/s keeps warmboxd's RSS bounded (figure printed), the
output cap applies and the run ends output_limit; a client gone mid-stream
stops its container."""
import base64
import json
import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import Daemon, Tap, UnixHTTPConnection, wait_until  # noqa: E402

t = Tap()
d = Daemon(wait_ready=True)


def stream(path, body):
    """POST with Accept: application/x-ndjson: [(seconds since sent, line)], status, content type."""
    c = UnixHTTPConnection(d.sock, timeout=120)
    t0 = time.time()
    c.request("POST", path, body=json.dumps(body),
              headers={"Content-Type": "application/json", "Accept": "application/x-ndjson"})
    r = c.getresponse()
    lines = []
    while True:
        raw = r.readline()
        if not raw:
            break
        lines.append((time.time() - t0, json.loads(raw)))
    c.close()
    return r.status, r.getheader("Content-Type"), lines


def joined(lines, name):
    out = b""
    for _, ln in lines:
        if ln.get("type") == name:
            out += base64.b64decode(ln["data"]) if ln["encoding"] == "base64" else ln["data"].encode()
    return out


st, ctype, lines = stream("/v1/executions", {
    "language": "python", "code": "import time\nprint('first', flush=True)\ntime.sleep(2)\nprint('second')"})
last = lines[-1] if lines else (None, {})
t.ok(st == 200 and ctype == "application/x-ndjson" and last[1].get("type") == "result",
     "an NDJSON stream ends with the result's line", lines[-3:])
t.ok([ln for _, ln in lines][:2] == [{"type": "stdout", "data": "first\n", "encoding": "utf-8"},
                                     {"type": "stdout", "data": "second\n", "encoding": "utf-8"}],
     "each write is its own chunk, in order", lines)
t.diag("time to first byte: %.3f s, the result at %.3f s" % (lines[0][0] if lines else -1, last[0] or -1))
t.ok(joined(lines, "stdout") == b"first\nsecond\n" and last[1]["result"]["stdout"] == "first\nsecond\n",
     "the chunks add up to the result's stdout")

# The first chunk reaches the client while the program still runs (it
# sleeps until its deadline): read it, see the container running, leave.
c = UnixHTTPConnection(d.sock, timeout=120)
c.request("POST", "/v1/executions", body=json.dumps({"language": "python", "timeout_ms": 60000,
          "code": "import time\nprint('early', flush=True)\ntime.sleep(60)"}),
          headers={"Content-Type": "application/json", "Accept": "application/x-ndjson"})
r = c.getresponse()
first_line = json.loads(r.readline() or b"{}")
running = d.our_running()
c.close()
t.ok(first_line.get("data") == "early\n" and running,
     "the first chunk arrived while the program was still running (before its sleep ended)",
     (first_line, running))
wait_until(lambda: not d.our_running(), timeout=15)

code = ("import sys, os\nfor i in range(50):\n    sys.stdout.buffer.write(bytes(range(256)))\n    sys.stdout.flush()\n"
        "sys.stderr.write('caf\\u00e9 ' * 100)")
st, ctype, lines = stream("/v1/executions", {"language": "python", "code": code})
res = lines[-1][1].get("result", {})
t.ok(joined(lines, "stdout") == bytes(range(256)) * 50 and base64.b64decode(res.get("stdout", "")) == bytes(range(256)) * 50
     and any(ln.get("encoding") == "base64" for _, ln in lines),
     "binary stdout is byte-exact through base64 chunks", [ln for _, ln in lines][:3])
t.ok(joined(lines, "stderr") == ("caf\u00e9 " * 100).encode(), "stderr too, never the init's report")

st, b = d.request("POST", "/v1/sessions", {"language": "python"})
sid = b["id"]
d.request("POST", "/v1/sessions/%s/executions" % sid, {"code": "n = 7"})
st, ctype, lines = stream("/v1/sessions/%s/executions" % sid, {"code": "print(n * 6)"})
res = lines[-1][1].get("result", {}) if lines else {}
t.ok(st == 200 and joined(lines, "stdout") == b"42\n" and res.get("session", {}).get("seq") == 2,
     "a session's call streams, and its result line carries the session", lines)

st, ctype, lines = stream("/v1/executions", {"language": "cobol", "code": "x"})
t.ok(st == 404 and lines and lines[0][1].get("error", {}).get("code") == "not_found",
     "a request refused before it ran: its own status and error body, no stream", (st, lines))
st, ctype, lines = stream("/v1/executions", {"language": "python", "code": "import sys; sys.exit(4)"})
t.ok(st == 200 and ctype == "application/x-ndjson" and len(lines) == 1
     and lines[0][1].get("result", {}).get("exit_code") == 4,
     "a program without output: a stream of just its result line", lines)

# ---- a slow reader ------------------------------------------------------------


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


base = rss_kib(d.proc.pid)
peak = [base]
stop = threading.Event()


def sample():
    while not stop.is_set():
        peak[0] = max(peak[0], rss_kib(d.proc.pid))
        time.sleep(0.05)


sampler = threading.Thread(target=sample, daemon=True)
sampler.start()
s = socket.socket(socket.AF_UNIX)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(d.sock)
body = json.dumps({"language": "python", "code": "import sys\nb = b'x' * 65536\nfor i in range(3200):\n"
                   "    sys.stdout.buffer.write(b)\n", "timeout_ms": 60000}).encode()
s.sendall(b"POST /v1/executions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          b"Accept: application/x-ndjson\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
got = b""
t0 = time.time()
while time.time() - t0 < 8:  # 10 KB/s for 8 s
    got += s.recv(1024)
    time.sleep(0.1)
s.settimeout(60)
while True:
    chunk = s.recv(1 << 20)
    if not chunk:
        break
    got += chunk
    if got.endswith(b"0\r\n\r\n"):
        break
s.close()
stop.set()
sampler.join()
text = got.split(b"\r\n\r\n", 1)[1]
# Undo the chunked encoding.
payload, rest = b"", text
while rest:
    size, _, rest = rest.partition(b"\r\n")
    n = int(size, 16)
    if n == 0:
        break
    payload, rest = payload + rest[:n], rest[n + 2:]
lines = [json.loads(ln) for ln in payload.splitlines() if ln.strip()]
res = lines[-1].get("result", {}) if lines else {}
streamed = sum(len(ln["data"]) for ln in lines if ln.get("type") == "stdout")
skipped = sum(ln.get("stdout_bytes", 0) for ln in lines if ln.get("type") == "skipped")
growth_mb = (peak[0] - base) / 1024
t.diag("200 MB to a reader at 10 KB/s: warmboxd RSS %.1f MB before, %.1f MB at its peak (+%.1f MB); "
       "%d bytes streamed, %d skipped" % (base / 1024, peak[0] / 1024, growth_mb, streamed, skipped))
t.ok(res.get("status") == "output_limit" and res.get("stdout_truncated") is True,
     "the output cap applies: output_limit", {k: res.get(k) for k in ("status", "stdout_truncated")})
t.ok(growth_mb < 64, "warmboxd's RSS stayed bounded (+%.1f MB for 200 MB written)" % growth_mb)
t.ok(streamed + skipped <= 1048576 and streamed > 0, "what was streamed and skipped is within the 1 MiB cap",
     (streamed, skipped))

# ---- a client gone mid-stream ---------------------------------------------------
s = socket.socket(socket.AF_UNIX)
s.connect(d.sock)
body = json.dumps({"language": "python", "code": "import time\nwhile True:\n    print('tick', flush=True)\n"
                   "    time.sleep(0.1)", "timeout_ms": 60000}).encode()
s.sendall(b"POST /v1/executions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          b"Accept: application/x-ndjson\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
first = s.recv(4096)
s.close()
t.ok(b"tick" in first and wait_until(lambda: not d.our_running(), timeout=15),
     "a client gone mid-stream: its container is stopped", first[:200])
t.is_eq(d.stop(), 0, "the daemon stops")
t.done()
