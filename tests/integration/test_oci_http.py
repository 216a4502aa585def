#!/usr/bin/env python3
"""warmbox-oci's engine API under hostile input: a helper of the test's own
(its own root and socket) gets malformed request heads, oversized heads and
bodies, chunked bodies, bad lengths, unknown routes and ids, bad filters,
create bodies that would weaken a sandbox, a half-sent head and a client
that leaves mid-request; each gets a clear 4xx (or the connection closed),
and the helper keeps serving (a ping after each).  Pipelined requests are
answered in order."""
import atexit
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
from wbtest import BIN, Tap, oci_state, wait_until  # noqa: E402

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


def _stop_helper():
    # A test that dies half-way must not leave its helper serving: by pid.
    if helper.poll() is None:
        helper.send_signal(signal.SIGTERM)
        try:
            helper.wait(timeout=60)
        except subprocess.TimeoutExpired:
            helper.kill()


atexit.register(_stop_helper)
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
    # Not half-closed: a client that closes its side while its request
    # runs has left (as for Go's server), and hears nothing.
    return raw(b"%s %s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nConnection: close\r\n%s\r\n%s"
               % (method, path, len(body), extra, body), read_timeout=30, shut=False)


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
    ("a create name with a space", b"POST /containers/create?name=a%20b HTTP/1.1\r\nContent-Length: 2\r\n"
     b"Connection: close\r\n\r\n{}", 400),
    ("a create name that is empty", b"POST /containers/create?name= HTTP/1.1\r\nContent-Length: 2\r\n"
     b"Connection: close\r\n\r\n{}", 400),
    ("an image name with ..", b"GET /images/../../etc/passwd/json HTTP/1.1\r\nConnection: close\r\n\r\n", 404),
    ("filters that are not JSON", b"GET /containers/json?all=1&filters=%7Bx HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    ("a label filter that is not a list", b"GET /containers/json?filters=%7B%22label%22%3A%22a%22%7D HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    ("an export, which this engine does not do", b"GET /images/x/get HTTP/1.1\r\nConnection: close\r\n\r\n", 501),
    ("events filters that are not JSON", b"GET /events?filters=%7Bx HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    ("an events filter it does not take", b"GET /events?filters=%7B%22until%22%3A%5B%5D%7D HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    ("an events since that is not a time", b"GET /events?since=10m HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    ("an events until that is not a time", b"GET /events?until=-1 HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    # warmboxd's own run (docs/architecture.md, "The helper's run").
    ("a run of an unknown container", b"POST /warmbox/v1/containers/" + b"ab" * 32 + b"/run HTTP/1.1\r\n"
     b"Content-Length: 0\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\nframe bytes", 404),
    ("a run asked with GET", b"GET /warmbox/v1/containers/zz/run HTTP/1.1\r\nConnection: close\r\n\r\n", 405),
    ("a run with a path of two segments", b"POST /warmbox/v1/containers/a/b/run HTTP/1.1\r\n"
     b"Content-Length: 0\r\n\r\n", 404),
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

# Image archives (docker save's layout), crafted: a layer with a set-uid
# file and a device node is taken without them; a layer whose SHA-256 is
# not its diff_id, and an archive with a link member, are refused.
import hashlib  # noqa: E402
import io  # noqa: E402
import tarfile  # noqa: E402


def tar_bytes(members):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for info, data in members:
            tf.addfile(info, io.BytesIO(data) if data is not None else None)
    return buf.getvalue()


def member(name, data=b"", mode=0o644, kind=tarfile.REGTYPE, **kw):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = mode
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    for k, v in kw.items():
        setattr(info, k, v)
    return info, data if kind == tarfile.REGTYPE else None


def archive(layer, diff_id=None, extra=()):
    diff = diff_id or "sha256:" + hashlib.sha256(layer).hexdigest()
    config = json.dumps({"architecture": "amd64", "os": "linux", "config": {},
                         "rootfs": {"type": "layers", "diff_ids": [diff]}}).encode()
    cid = hashlib.sha256(config).hexdigest()
    manifest = json.dumps([{"Config": cid + ".json", "RepoTags": ["warmbox-test/crafted:latest"],
                            "Layers": ["l1/layer.tar"]}]).encode()
    return cid, tar_bytes([member(cid + ".json", config), member("l1/", kind=tarfile.DIRTYPE, mode=0o755),
                           member("l1/layer.tar", layer), member("manifest.json", manifest)] + list(extra))


layer = tar_bytes([member("usr/", kind=tarfile.DIRTYPE, mode=0o755), member("usr/bin/", kind=tarfile.DIRTYPE, mode=0o755),
                   member("usr/bin/su", b"#!/bin/true\n", mode=0o4755),
                   member("kmem", kind=tarfile.CHRTYPE, mode=0o666, devmajor=1, devminor=2)])
cid, good = archive(layer)
got = request(b"POST", b"/images/load?quiet=1", good)
images = os.path.join(work, "images")
rootfs = os.path.join(images, cid, "rootfs")
t.ok(status_of(got) == 200 and b"error" not in got and os.path.isdir(rootfs), "a crafted archive loads", got[:300])
su = os.path.join(rootfs, "usr", "bin", "su")
t.ok(os.path.exists(su) and not os.stat(su).st_mode & 0o6000 and not os.path.lexists(os.path.join(rootfs, "kmem")),
     "its set-uid file is kept without the bit, its device node is not kept")
t.ok(all(os.path.isdir(os.path.join(rootfs, m)) for m in ("proc", "dev", "sys", "tmp", "sbin"))
     and os.path.isfile(os.path.join(rootfs, "sbin", "docker-init")),
     "the mount points the spec uses are made at load (a create writes nothing into the shared root)")
t.is_eq(oct(os.stat(images).st_mode & 0o777), "0o711", "the image store: root's, others may only pass through")
got = raw(b"GET /images/warmbox-test/crafted:latest/json HTTP/1.1\r\nConnection: close\r\n\r\n")
t.ok(status_of(got) == 200 and cid.encode() in got, "its tag names it", got[:300])
# A root whose sbin is a link to a host path: nothing made through it.
outside = os.path.join(work, "outside")
os.mkdir(outside)
cid4, linked_sbin = archive(tar_bytes([member("sbin", kind=tarfile.SYMTYPE, linkname=outside),
                                       member("hello", b"linked sbin\n")]))
got = request(b"POST", b"/images/load?quiet=1", linked_sbin)
t.ok(status_of(got) == 200 and b"error" not in got and os.listdir(outside) == []
     and os.path.islink(os.path.join(images, cid4, "rootfs", "sbin")),
     "a root whose sbin links out of it: loaded, and nothing is made through the link", (got[:300], os.listdir(outside)))
cid2, bad = archive(layer, diff_id="sha256:" + "0" * 64)
got = request(b"POST", b"/images/load?quiet=1", bad)
t.ok(status_of(got) == 200 and b"error" in got and not os.path.exists(os.path.join(images, cid2)),
     "a layer whose SHA-256 is not its diff_id: refused, nothing stored", got[:300])
other = tar_bytes([member("hello", b"another image\n")])
cid3, linked = archive(other, extra=[member("evil", kind=tarfile.SYMTYPE, linkname="/etc/passwd")])
got = request(b"POST", b"/images/load?quiet=1", linked)
t.ok(status_of(got) == 200 and b"error" in got and not os.path.exists(os.path.join(images, cid3)),
     "an archive with a link member: refused, nothing stored", got[:300])
t.ok(alive(), "the helper still answers")

# An events stream whose until= has passed: what is kept, then its end
# (the last chunk), and the connection serves the next request.
got = raw(b"GET /events?since=0&until=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /_ping HTTP/1.1\r\nConnection: close\r\n\r\n")
t.ok(status_of(got) == 200 and b"Transfer-Encoding: chunked" in got and b"\r\n0\r\n\r\nHTTP/1.1 200" in got
     and got.endswith(b"OK"), "events until a past time: the stream ends, and the next request is answered", got[:400])
# One until= a second ahead ends by itself; a client that never reads a
# stream holds nothing of the helper's loop.
got = raw(b"GET /events?until=%d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % (int(time.time()) + 2),
          read_timeout=10, shut=False)
t.ok(status_of(got) == 200 and got.endswith(b"0\r\n\r\n"),
     "events until a time ahead: the stream ends at it", got[:300])
idle = socket.socket(socket.AF_UNIX)
idle.connect(sock)
idle.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
t.ok(alive(), "an events client that does not read: the helper still answers")
idle.close()

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
t.is_eq(oci_state(os.path.join(work, "root")), [], "no runtime state is left")
log.close()
shutil.rmtree(work, ignore_errors=True)
t.done()
