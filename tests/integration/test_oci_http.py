#!/usr/bin/env python3
"""warmbox-oci's engine API under hostile input: a helper of the test's own
(its own root and socket) gets malformed request heads, oversized heads and
bodies, chunked bodies, bad lengths, unknown routes and ids, bad filters,
create bodies that would weaken a sandbox, a half-sent head and a client
that leaves mid-request; each gets a clear 4xx (or the connection closed),
and the helper keeps serving (a ping after each).  Pipelined requests are
answered in order."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import BIN, Tap, wait_until  # noqa: E402

t = Tap()
if os.getuid() != 0 or not shutil.which("runc"):
    print("1..0 # SKIP the OCI helper needs root and runc")
    sys.exit(0)

work = tempfile.mkdtemp(prefix="warmbox-oci-http-")
sock = os.path.join(work, "root", "engine.sock")
log = open(os.path.join(work, "helper.log"), "wb")
helper = subprocess.Popen([os.path.join(BIN, "warmbox-oci"), "serve", "--socket", sock, "--root",
                           os.path.join(work, "root"), "--images", os.path.join(work, "images")],
                          stdout=log, stderr=subprocess.STDOUT)
t.ok(wait_until(lambda: os.path.exists(sock), timeout=20), "the helper listens")


def raw(data, read_timeout=5.0, shut=True):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(read_timeout)
    s.connect(sock)
    out = b""
    try:
        s.sendall(data)
        if shut:
            s.shutdown(socket.SHUT_WR)
        while True:
            x = s.recv(65536)
            if not x:
                break
            out += x
    except (socket.timeout, ConnectionResetError, BrokenPipeError):
        pass  # a connection the helper closed on us
    s.close()
    return out


def status_of(reply):
    try:
        return int(reply.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None


def alive():
    return status_of(raw(b"GET /_ping HTTP/1.1\r\nHost: x\r\n\r\n")) == 200


def request(method, path, body=b"", extra=b""):
    return raw(b"%s %s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nConnection: close\r\n%s\r\n%s"
               % (method, path, len(body), extra, body))


cases = [
    ("a head that is not HTTP", b"hello\r\n\r\n", 400),
    ("a request line without a version", b"GET /_ping\r\n\r\n", 400),
    ("a Content-Length that is not a number", b"POST /containers/create HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", 400),
    ("a chunked body", b"POST /containers/create HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 400),
    ("a body past 8 MiB", b"POST /containers/create HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", 413),
    ("an unknown route", b"GET /nope HTTP/1.1\r\nConnection: close\r\n\r\n", 404),
    ("an unknown container", b"GET /containers/" + b"ab" * 32 + b"/json HTTP/1.1\r\nConnection: close\r\n\r\n", 404),
    ("a start of an unknown container", b"POST /v1.41/containers/zz/start HTTP/1.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 404),
    ("an unknown image", b"GET /images/no%2Fsuch:tag/json HTTP/1.1\r\nConnection: close\r\n\r\n", 404),
    ("an image name with ..", b"GET /images/../../etc/passwd/json HTTP/1.1\r\nConnection: close\r\n\r\n", 404),
    ("filters that are not JSON", b"GET /containers/json?all=1&filters=%7Bx HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    ("a label filter that is not a list", b"GET /containers/json?filters=%7B%22label%22%3A%22a%22%7D HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    ("an export, which this engine does not do", b"GET /images/x/get HTTP/1.1\r\nConnection: close\r\n\r\n", 501),
]
for name, data, want in cases:
    got = raw(data)
    t.ok(status_of(got) == want and (want == 413 or b"message" in got or want in (404, 501)),
         "%s: %d" % (name, want), got[:300])
    t.ok(alive(), "  and the helper still answers")

big = b"GET /_ping HTTP/1.1\r\nX: " + b"a" * 40000 + b"\r\n\r\n"
got = raw(big)
t.ok(got == b"" or status_of(got) in (400, 431), "a head past 16 KiB: the connection is closed", got[:200])
t.ok(alive(), "  and the helper still answers")

bad_bodies = [
    ("not JSON", b"{"),
    ("privileged", json.dumps({"Image": "x", "User": "1000:1000", "Cmd": ["/bin/true"],
                               "HostConfig": {"Privileged": True}}).encode()),
]
for name, body in bad_bodies:
    got = request(b"POST", b"/containers/create", body)
    t.ok(status_of(got) in (400, 404) and b"message" in got, "a create body %s: refused with a message" % name,
         got[:300])
t.ok(alive(), "the helper still answers after refused creates")

# Pipelined: two pings in one write, two answers in order.
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
s.connect(sock)
s.sendall(b"GET /_ping HTTP/1.1\r\nHost: x\r\n\r\nGET /version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
out = b""
try:
    while True:
        x = s.recv(65536)
        if not x:
            break
        out += x
except socket.timeout:
    pass
s.close()
t.ok(out.count(b"HTTP/1.1 200") == 2 and out.index(b"OK") < out.index(b"ApiVersion"),
     "two pipelined requests: both answered, in order", out[:400])

# A client that sends half a head and leaves, and one that stays silent.
half = socket.socket(socket.AF_UNIX)
half.connect(sock)
half.sendall(b"POST /containers/create HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"Ima")
half.close()
silent = socket.socket(socket.AF_UNIX)
silent.connect(sock)
t.ok(alive(), "a client gone mid-body, another silent: the helper still answers")
silent.close()

# Fifty connections at once, each a ping.
conns = []
for _ in range(50):
    c = socket.socket(socket.AF_UNIX)
    c.connect(sock)
    c.sendall(b"GET /_ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    conns.append(c)
answers = 0
for c in conns:
    c.settimeout(5)
    try:
        answers += c.recv(4096).startswith(b"HTTP/1.1 200")
    except socket.timeout:
        pass
    c.close()
t.is_eq(answers, 50, "fifty connections at once: fifty answers")

helper.send_signal(signal.SIGTERM)
try:
    rc = helper.wait(timeout=60)
except subprocess.TimeoutExpired:
    helper.kill()
    rc = helper.wait()
t.is_eq(rc, 0, "the helper stops on SIGTERM, exit 0")
t.ok(not os.path.exists(sock), "its socket is gone")
t.is_eq(os.listdir(os.path.join(work, "root", "state")), [], "no runtime state is left")
log.close()
shutil.rmtree(work, ignore_errors=True)
t.done()
