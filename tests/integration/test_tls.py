#!/usr/bin/env python3
"""HTTPS listeners: a test CA made here with openssl; curl and the CLI run
code over https://127.0.0.1 with a client certificate; a wrong CA, an
expired certificate, a missing one, TLS 1.1 and plain HTTP on the TLS port
each fail plainly and leave the daemon serving, and so do a few hundred
garbage first flights; slow-loris clients (headers trickled, a handshake
never finished) are cut off by the request read deadline; a client certificate's
common name stands for a token; SIGHUP reloads the certificate; a TLS
listener without any authentication on a non-loopback address is refused
at start."""
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import WARMBOX, WARMBOXD, Daemon, Tap, free_port, peer_closed, rows, wait_until  # noqa: E402

t = Tap()
D = tempfile.mkdtemp(prefix="warmbox-tls-")


def sh(*args, stdin=None):
    return subprocess.run(list(args), cwd=D, capture_output=True, input=stdin, check=True)


def path(name):
    return os.path.join(D, name)


def new_key_csr(name, cn):
    sh("openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
       "-keyout", name + ".key", "-out", name + ".csr", "-utf8", "-subj", "/CN=" + cn)


def sign(name, ca="ca", ext=None):
    args = ["openssl", "x509", "-req", "-in", name + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key",
            "-CAcreateserial", "-out", name + ".pem", "-days", "2"]
    if ext:
        with open(path(name + ".ext"), "w") as f:
            f.write(ext)
        args += ["-extfile", name + ".ext"]
    sh(*args)


for ca in ("ca", "other-ca"):
    sh("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
       "-keyout", ca + ".key", "-out", ca + ".pem", "-days", "2", "-subj", "/CN=warmbox test " + ca)
new_key_csr("server", "localhost")
sign("server", ext="subjectAltName=IP:127.0.0.1,DNS:localhost\n")
for who in ("alice", "bob"):
    new_key_csr(who, who)
    sign(who)
new_key_csr("long", "\u00e9" * 33)  # 66 bytes of UTF-8: no token name is that long
sign("long")
new_key_csr("stranger", "alice")
sign("stranger", ca="other-ca")
# An expired certificate: openssl ca takes explicit dates.
with open(path("ca.cnf"), "w") as f:
    f.write("[ca]\ndefault_ca = d\n[d]\ndir = .\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\n"
            "default_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n")
open(path("index.txt"), "w").close()
with open(path("serial"), "w") as f:
    f.write("1000\n")
new_key_csr("old", "alice")
sh("openssl", "ca", "-batch", "-config", "ca.cnf", "-keyfile", "ca.key", "-cert", "ca.pem", "-in", "old.csr",
   "-out", "old.pem", "-startdate", "20200101000000Z", "-enddate", "20200102000000Z", "-notext")


def config(extra=None):
    cfg = {"tls": {"cert": path("server.pem"), "key": path("server.key"), "client_ca": path("ca.pem")},
           "pools": {"python": {"min_ready": 1, "max_ready": 2}, "javascript": {"min_ready": 0, "max_ready": 0}}}
    cfg.update(extra or {})
    fd, name = tempfile.mkstemp(suffix=".json", dir=D)
    with os.fdopen(fd, "w") as f:
        json.dump(cfg, f)
    return name


PORT = free_port()
URL = "https://127.0.0.1:%d" % PORT
cfg_path = config({"request_read_timeout_ms": 2000})
d = Daemon(extra_args=["--config", cfg_path, "--listen", "https://127.0.0.1:%d" % PORT])
BODY = json.dumps({"language": "python", "code": "print(6*7)"})


def curl(*args, body=BODY, url=None):
    url = url or URL + "/v1/executions"
    p = subprocess.run(["curl", "-sS", "--max-time", "60", "-H", "Content-Type: application/json"] + list(args)
                       + ["-d", body, url],
                       cwd=D, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def serving():
    st, r = d.run("python", "print('still')")
    return st == 200 and r.get("stdout") == "still\n"


ALICE = ["--cacert", "ca.pem", "--cert", "alice.pem", "--key", "alice.key"]
rc, out, err = curl(*ALICE)
t.ok(rc == 0 and json.loads(out or "{}").get("stdout") == "42\n", "curl over HTTPS with a client certificate runs code",
     (rc, out, err))
p = subprocess.run([WARMBOX, "--url", URL, "--cacert", path("ca.pem"), "--cert", path("alice.pem"), "--key",
                    path("alice.key"), "run", "python", "-c", "print('cli')"], capture_output=True, timeout=120)
t.ok(p.returncode == 0 and p.stdout == b"cli\n", "the CLI over HTTPS (--cacert, --cert, --key)", p.stderr)
env = dict(os.environ, WARMBOX_URL=URL, WARMBOX_CACERT=path("ca.pem"), WARMBOX_CERT=path("alice.pem"),
           WARMBOX_KEY=path("alice.key"))
p = subprocess.run([WARMBOX, "languages"], capture_output=True, timeout=60, env=env)
t.ok(p.returncode == 0 and b"python" in p.stdout, "and from the environment (WARMBOX_CACERT, _CERT, _KEY)", p.stderr)
t.ok(wait_until(lambda: rows(d.db, "SELECT count(*) FROM executions WHERE client = 'alice'")[0][0] >= 2,
                timeout=10), "the certificate's common name is the history's client")

for what, args, want in (
        ("the daemon's certificate checked against another CA", ["--cacert", "other-ca.pem", "--cert", "alice.pem",
                                                                  "--key", "alice.key"], "certificate"),
        # The server's alert may reach curl as such, or as the connection it
        # closed under curl's request.
        ("no client certificate", ["--cacert", "ca.pem"], ("certificate required", "broken pipe",
                                                            "connection reset")),
        ("a client certificate from another CA", ["--cacert", "ca.pem", "--cert", "stranger.pem", "--key",
                                                  "stranger.key"], "unknown ca"),
        ("an expired client certificate", ["--cacert", "ca.pem", "--cert", "old.pem", "--key", "old.key"],
         "expired"),
        ("TLS 1.1", ALICE + ["--tls-max", "1.1"], "protocol version")):
    rc, out, err = curl(*args)
    wants = want if isinstance(want, tuple) else (want,)
    t.ok(rc != 0 and any(w in err.lower() for w in wants), "%s: refused (%s)" % (what, err.strip().splitlines()[0][:120]),
         (rc, out, err))
    t.ok(serving(), "%s: the daemon still serves" % what)
rc, out, err = curl("--cacert", "ca.pem", "--cert", "long.pem", "--key", "long.key", "-w", "%{http_code}")
t.ok(rc == 0 and out.endswith("401"), "a certificate whose common name is too long for a name: 401, never cut short",
     (rc, out, err))


def resumed():
    """Two connections, the second resuming the first's session."""
    ctx = ssl.create_default_context(cafile=path("ca.pem"))
    ctx.load_cert_chain(path("alice.pem"), path("alice.key"))
    ctx.maximum_version = ssl.TLSVersion.TLSv1_2  # a session at once, no ticket wait
    with socket.create_connection(("127.0.0.1", PORT), timeout=10) as raw:
        with ctx.wrap_socket(raw, server_hostname="127.0.0.1") as s1:
            s1.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
            s1.recv(4096)
            session = s1.session
    with socket.create_connection(("127.0.0.1", PORT), timeout=10) as raw:
        with ctx.wrap_socket(raw, server_hostname="127.0.0.1", session=session) as s2:
            s2.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
            return s2.session_reused and b"200" in s2.recv(4096)


try:
    t.ok(resumed(), "a TLS session resumes with client certificates verified")
except (OSError, ssl.SSLError) as e:
    t.ok(False, "a TLS session resumes with client certificates verified", e)
rc, out, err = curl("-w", "\n%{http_code}", url="http://127.0.0.1:%d/v1/executions" % PORT)
t.ok(rc == 0 and out.endswith("\n400") and "this port speaks HTTPS: use https://" in out,
     "plain HTTP to the TLS port: a plain 400 that says to use https://", (rc, out, err))
t.ok(serving(), "plain HTTP: the daemon still serves")


def first_flights(n, seed=7):
    """Garbage where a ClientHello should be: random bytes, TLS record
    headers with random or lying lengths, truncated real-looking hellos,
    HTTP-looking starts; and connections that say nothing."""
    import random
    rnd = random.Random(seed)
    out = [b"\x16\x03\x01\x00\x05hello", b"", b"\x16", b"\x16\x03\x01\xff\xff", b"CONNECT x:443 HTTP/1.1\r\n\r\n",
           b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", b"\x80\x2e\x01\x00\x02" + bytes(44)]
    while len(out) < n:
        kind = rnd.randrange(4)
        if kind == 0:
            out.append(rnd.randbytes(rnd.randrange(1, 2000)))
        elif kind == 1:  # a handshake record whose length lies
            body = rnd.randbytes(rnd.randrange(0, 600))
            out.append(bytes([0x16, 3, rnd.randrange(5), rnd.randrange(256), rnd.randrange(256)]) + body)
        elif kind == 2:  # a ClientHello header with a random body
            body = bytes([1]) + rnd.randbytes(3) + bytes([3, 3]) + rnd.randbytes(rnd.randrange(0, 300))
            out.append(bytes([0x16, 3, 1]) + len(body).to_bytes(2, "big") + body)
        else:
            out.append(rnd.choice([b"GET ", b"POST", b"\x15\x03\x03\x00\x02\x02\x28", b"\x17\x03\x03"])
                       + rnd.randbytes(rnd.randrange(0, 100)))
    return out


for junk in first_flights(300):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=10)
    try:
        # The daemon may drop the connection as soon as the bytes arrive.
        s.sendall(junk)
        s.shutdown(socket.SHUT_WR)
        s.recv(100)
    except OSError:
        pass
    s.close()
t.ok(serving(), "300 garbage first flights (random, lying record lengths, cut hellos): the daemon still serves")
t.ok(d.proc.poll() is None and "ERROR" not in d.read_log().upper().replace("ERROR_", ""),
     "and logged no error", d.read_log()[-800:])


def cut_after(sock, trickle, limit=40.0):
    """Send trickle one byte every 0.25 s until the daemon closes the
    connection; seconds until it did, or None if it never did."""
    t0 = time.time()
    sock.settimeout(0.25)
    i = 0
    while time.time() - t0 < limit:
        try:
            if i < len(trickle):
                sock.send(trickle[i:i + 1])
                i += 1
            if sock.recv(100) == b"":
                return time.time() - t0
        except socket.timeout:
            continue
        except (OSError, ssl.SSLError):
            return time.time() - t0
    return None


HEAD = b"POST /v1/executions HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 400
ctx = ssl.create_default_context(cafile=path("ca.pem"))
ctx.load_cert_chain(path("alice.pem"), path("alice.key"))
loris = [ctx.wrap_socket(socket.create_connection(("127.0.0.1", PORT), timeout=10), server_hostname="127.0.0.1")
         for _ in range(3)]
silent = [socket.create_connection(("127.0.0.1", PORT), timeout=10) for _ in range(3)]
t.ok(serving(), "while slow-loris connections are open, the daemon serves")
# Each connection's deadline is 2 s (request_read_timeout_ms); the trickle
# alone would last 110 s and keep any idle timeout from firing.
cut = [cut_after(s, HEAD) for s in loris]
t.ok(all(c is not None for c in cut), "headers trickled over TLS: cut off by the read deadline (after %s s)"
     % [round(c, 1) if c else c for c in cut])
cut = [cut_after(s, b"") for s in silent]
t.ok(all(c is not None for c in cut), "a TLS handshake never begun: cut off too (after %s s)"
     % [round(c, 1) if c else c for c in cut])
for s in loris + silent:
    s.close()
t.ok(serving(), "and the daemon still serves")


def keepalive_session(cut):
    """One TLS connection: a request, idle, then another; and on a fresh one,
    an execution of 3 s (longer than the 2 s deadline) answered whole.
    cut: idle until the daemon closes the connection (30 s at most);
    else 3 s idle, past the 2 s deadline."""
    import http.client
    ctx = ssl.create_default_context(cafile=path("ca.pem"))
    ctx.load_cert_chain(path("alice.pem"), path("alice.key"))
    c = http.client.HTTPSConnection("127.0.0.1", PORT, context=ctx, timeout=30)
    c.request("GET", "/healthz")
    first = c.getresponse().read()
    closed = None
    if cut:
        closed = wait_until(lambda: peer_closed(c.sock), timeout=30, step=0.1)
    else:
        time.sleep(3)  # idle past the old deadline, on purpose
    try:
        c.request("GET", "/healthz")
        second = c.getresponse().read()
    except (OSError, http.client.HTTPException):
        second = None
    c.close()
    c = http.client.HTTPSConnection("127.0.0.1", PORT, context=ctx, timeout=30)
    c.request("POST", "/v1/executions", json.dumps({"language": "python", "code": "import time; time.sleep(3); print('slow')"}),
              {"Content-Type": "application/json"})
    slow = json.loads(c.getresponse().read()).get("stdout")
    c.close()
    return first, second, slow, closed


first, second, slow, closed = keepalive_session(cut=True)
t.ok(b"ok" in first and closed and second is None, "a kept-alive connection idle past the deadline is closed",
     (first, closed, second))
t.ok(slow == "slow\n", "an execution longer than the deadline is not cut: its request is being handled", slow)
# SIGHUP applies a new deadline (operators.md): 60 s, and the same idle
# kept-alive connection now survives its 3 s.
with open(cfg_path) as f:
    reloaded = json.load(f)
reloaded["request_read_timeout_ms"] = 60000
with open(cfg_path, "w") as f:
    json.dump(reloaded, f)
n_reloads = d.read_log().count("reloaded:")
d.proc.send_signal(signal.SIGHUP)
wait_until(lambda: d.read_log().count("reloaded:") > n_reloads, timeout=10)
first, second, _, _ = keepalive_session(cut=False)
t.ok(b"ok" in first and second is not None and b"ok" in second,
     "SIGHUP applies request_read_timeout_ms: at 60 s the idle connection is kept", (first, second))

# SIGHUP: a new certificate for new connections.
def served_serial():
    ctx = ssl.create_default_context(cafile=path("ca.pem"))
    ctx.load_cert_chain(path("alice.pem"), path("alice.key"))
    with socket.create_connection(("127.0.0.1", PORT), timeout=10) as raw:
        with ctx.wrap_socket(raw, server_hostname="127.0.0.1") as s:
            return s.getpeercert()["serialNumber"]


before = served_serial()
sign("server", ext="subjectAltName=IP:127.0.0.1,DNS:localhost\n")
d.proc.send_signal(signal.SIGHUP)
t.ok(wait_until(lambda: served_serial() != before, timeout=10), "SIGHUP: new connections get the new certificate")
rc, out, err = curl(*ALICE)
t.ok(rc == 0 and json.loads(out or "{}").get("stdout") == "42\n", "and run code", (rc, out, err))
with open(path("server.key"), "w") as f:
    f.write("not a key\n")
d.proc.send_signal(signal.SIGHUP)
t.ok(wait_until(lambda: "reload refused" in d.read_log(), timeout=10) and served_serial() != before,
     "a key that does not load: the reload is refused, the running certificate stays")
t.is_eq(d.stop(), 0, "the daemon exits 0")
new_key_csr("server", "localhost")
sign("server", ext="subjectAltName=IP:127.0.0.1,DNS:localhost\n")

# A client certificate's common name stands for a token of that name.
PORT = free_port()
URL = "https://127.0.0.1:%d" % PORT
cfg_path = config({"tokens": [{"name": "alice", "sha256": "00" * 32, "rate": 100, "burst": 100,
                               "max_concurrent": 4}]})
d = Daemon(extra_args=["--config", cfg_path, "--listen", "https://127.0.0.1:%d" % PORT])
rc, out, err = curl(*ALICE)
t.ok(rc == 0 and json.loads(out or "{}").get("stdout") == "42\n", "tokens configured: alice's certificate is "
     "token alice", (rc, out, err))
rc, out, err = curl("--cacert", "ca.pem", "--cert", "bob.pem", "--key", "bob.key", "-w", "%{http_code}")
t.ok(rc == 0 and out.endswith("401"), "bob's certificate names no token: 401", (rc, out, err))
t.is_eq(d.stop(), 0, "the daemon exits 0")

# Refused at start: a TLS listener nobody has to authenticate to, off loopback.
cfg_path = config({"tls": {"cert": path("server.pem"), "key": path("server.key")}})
p = subprocess.run([WARMBOXD, "--config", cfg_path, "--listen", "https://0.0.0.0:%d" % free_port(),
                    "--store-path", path("h2.db")], capture_output=True, timeout=60)
t.ok(p.returncode != 0 and b"needs API tokens or client certificates" in p.stderr,
     "an https listener without tokens or client certificates is refused at start", p.stderr[-300:])
cfg_path = config({"tls": {"cert": path("server.pem")}})
p = subprocess.run([WARMBOXD, "--config", cfg_path, "--listen", "https://127.0.0.1:%d" % free_port(),
                    "--store-path", path("h4.db")], capture_output=True, timeout=60)
t.ok(p.returncode != 0 and b"tls" in p.stderr, "an https listener without a key: a clear error at start",
     p.stderr[-300:])
t.done()
