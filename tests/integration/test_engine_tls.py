#!/usr/bin/env python3
"""The engine over TCP with TLS client certificates.

A TLS front (socat, demanding a client certificate signed by our test CA)
forwards 127.0.0.1:PORT to the local engine socket.  warmboxd talks to it as
it would to a remote dockerd with --tlsverify: requests through libcurl, the
hijacked attach through OpenSSL, stdin closed with close_notify.
"""
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
from wbtest import Daemon, Tap, docker_socket, make_test_certs, stream, wait_until  # noqa: E402

if not shutil.which("socat") or not shutil.which("openssl"):
    print("1..0 # SKIP socat or openssl is not installed")
    sys.exit(0)

t = Tap()
tmp = tempfile.mkdtemp(prefix="warmbox-tls-")


make_test_certs(tmp)

s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
p = lambda n: os.path.join(tmp, n)  # noqa: E731
front = subprocess.Popen(
    ["socat", "-t", "60",
     "OPENSSL-LISTEN:%d,bind=127.0.0.1,reuseaddr,fork,cert=%s,key=%s,cafile=%s,verify=1"
     % (port, p("server.pem"), p("server.key"), p("ca.pem")),
     "UNIX-CONNECT:" + docker_socket()],
    stdout=subprocess.DEVNULL, stderr=open(p("socat.log"), "wb"), start_new_session=True)


def port_open():
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


t.ok(wait_until(port_open, timeout=10), "the TLS front listens on 127.0.0.1:%d" % port)


def config(name, cert, key):
    path = p(name + ".json")
    with open(path, "w") as f:
        json.dump({"engine": {"endpoint": "tcp://localhost:%d" % port, "tls_ca": p("ca.pem"),
                              "tls_cert": p(cert), "tls_key": p(key)}}, f)
    return path


d = Daemon(extra_args=["--config", config("good", "client.pem", "client.key")])
st, r = d.run("python", "import sys\nd = sys.stdin.read()\nprint(d.upper())\nsys.stderr.write('e')",
              stdin="over tls")
t.is_eq((st, r.get("status"), r.get("stdout"), r.get("stderr")), (200, "ok", "OVER TLS\n", "e"),
        "python over a TLS engine: stdin reaches EOF, both streams come back")
st, r = d.run("javascript", "process.stdout.write(Buffer.from([0, 255, 1]))")
t.is_eq(stream(r, "stdout"), b"\x00\xff\x01", "javascript over TLS: binary output byte-exact")
st, r = d.run("python", "while True: pass", timeout_ms=1000)
t.is_eq(r.get("status"), "timeout", "a timeout over TLS kills the container")
st, r = d.run("python", "import sys\nwhile True: sys.stdout.write('x' * 65536)")
t.is_eq(r.get("status"), "output_limit", "the output limit over TLS")
t.is_eq(d.stop(), 0, "the TLS daemon exits 0")
t.ok(wait_until(lambda: d.our_containers() == [], timeout=20),
     "no labelled container left (pools drained too)", d.our_containers())

# A client certificate from a CA the engine does not trust: refused.
bad = Daemon(extra_args=["--config", config("bad", "stranger.pem", "stranger.key")], wait_ready=False)
st, body = bad.run("python", "print(1)")
t.ok(st in (502, 503) and "error" in body, "an untrusted client certificate: a 5xx JSON error", (st, body))
t.ok("tls" not in json.dumps(body).lower() and "/" not in body.get("error", {}).get("message", "/"),
     "the error body does not leak TLS details or paths", body)
t.is_eq(bad.stop(), 0, "that daemon exits 0 too")

os.killpg(front.pid, signal.SIGTERM)
front.wait(timeout=10)
shutil.rmtree(tmp, ignore_errors=True)
t.done()
