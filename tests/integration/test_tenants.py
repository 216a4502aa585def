#!/usr/bin/env python3
"""What one caller can do to the others, or a web page to the daemon
(docs/operators.md, "Tenants"), against a running warmboxd:

- browser origins: on the listener `make run` opens (127.0.0.1, no auth),
  the requests a web page can send -- a simple cross-site POST (text/plain,
  a foreign Origin) and DNS rebinding (a foreign Host) -- are refused with
  403/421/415 before anything runs (no history row, no container started),
  while the same request with what curl or an SDK sends runs; the names
  and origins an operator lists in http.hosts / http.origins are served.
- memory per slow reader: 200 clients that ask for a sandbox's 16 MiB
  file and never read raise the daemon's RSS by at most 64 MiB (each holds
  one 64 KiB slice), while another client is answered; past
  http.max_connections_per_address a new connection gets 503.
- credentials before the body: a request without a token that declares a
  40 MiB body is answered 401 from its head alone; 50 of them sending
  their bodies at once (to /v1/executions, to GET /healthz, which reads
  none, and to E2B's /files without a live sandbox's token) raise the
  daemon's RSS by at most 16 MiB, while a client with a token is
  answered; a client sending heads without reading its answers is not
  read past a few; an unreadable head's 413 reaches a client still
  sending.
- limits for every caller: the anonymous TCP caller, with callers.tcp's
  rate, burst and max_concurrent, gets 429 (Retry-After) past them, while
  the Unix socket's caller, another owner, is still served.
- sessions of one owner cannot evict another's: with a 1 MiB total,
  alice's third 350 kB session ends her own least recently used one (and
  a state past her quota is refused, kept as it was); bob's stays.
- operator routes for operators: /v1/pools, /v1/engines and /metrics
  answer 403 to a tenant's token and to the anonymous TCP caller, 200 to
  an operator's token and to the Unix socket's anonymous caller.
- a host uid is never shared by two live sandboxes: four daemons at once
  (Docker; OCI with a user namespace, twice; OCI without) run sandboxes
  that each report their host uid (its uid through /proc/self/uid_map):
  all different; and while a fork bomb in one holds its 64 processes, a
  sandbox of another daemon still forks.
- nothing recoverable on disk: the history holds no plain hash of a
  known stdin (SHA-256, SHA-1, MD5, hex or raw), nor one keyed with
  anything the file itself holds; its rows are keyed with the key file
  beside it (0600), by which `warmbox history --sha256` still finds them;
  warmboxd and warmbox-oci started with
  `ulimit -c unlimited` show a core-size limit of 0 and are not dumpable;
  /proc/interrupts and /sys/devices/virtual/powercap are masked in the
  sandbox (Docker's list) on both engines.

Each refusal is first shown to matter: the same request without the one
offending header runs code."""
import concurrent.futures as cf
import hashlib
import http.client
import json
import os
import resource
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wbtest  # noqa: E402
from wbtest import Daemon, EngineEvents, Tap, UnixHTTPConnection, rows, wait_until  # noqa: E402

t = Tap()
# Every file of this test in a folder of its own.
PRIVATE = tempfile.mkdtemp(prefix="warmbox-tenants-")
cfg_path = os.path.join(PRIVATE, "warmbox-tenants-%d.json" % os.getpid())
with open(cfg_path, "w") as f:
    json.dump({"http": {"hosts": ["warmbox.test"], "origins": ["http://console.test:3000"]}}, f)
d = Daemon(extra_args=["--config", cfg_path], tcp=True)
os.unlink(cfg_path)
events = EngineEvents(sock=d.engine_sock, label="warmbox.instance=" + d.instance)


def tcp_full(method, path, body=b"", headers=None):
    """One request over TCP with exactly these headers (Host included when
    given: http.client then sends no Host of its own): status, parsed
    body, headers (lower-case names)."""
    c = http.client.HTTPConnection("127.0.0.1", d.port, timeout=120)
    try:
        c.request(method, path, body=body if method not in ("GET", "OPTIONS") else None,
                  headers=headers or {})
        r = c.getresponse()
        raw = r.read()
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = {"_raw": raw}
        return r.status, parsed, {k.lower(): v for k, v in r.getheaders()}
    finally:
        c.close()


def tcp(method, path, body=b"", headers=None):
    return tcp_full(method, path, body, headers)[:2]


def history_count():
    return rows(d.db, "SELECT count(*) FROM executions")[0][0]


def started():
    return sum(1 for e in events.events if e[0] == "start")


code = json.dumps({"language": "python", "code": "print(6*7)"}).encode()
json_ct = {"Content-Type": "application/json"}

# ---- 1. browser origins -------------------------------------------------
st, b = tcp("POST", "/v1/executions", code, json_ct)
t.ok(st == 200 and b.get("stdout") == "42\n", "curl's request runs on the loopback listener", (st, b))
before_rows, before_starts = history_count(), started()

attacks = [
    ("a simple cross-site POST (text/plain, Origin http://evil.example)",
     {"Content-Type": "text/plain", "Origin": "http://evil.example"}, 403, "forbidden"),
    ("the same with a JSON type but a foreign Origin",
     {"Content-Type": "application/json", "Origin": "http://evil.example"}, 403, "forbidden"),
    ("Origin: null (a sandboxed frame)", {"Content-Type": "application/json", "Origin": "null"},
     403, "forbidden"),
    ("DNS rebinding (Host: evil.example)", {"Content-Type": "application/json", "Host": "evil.example"},
     421, "misdirected_request"),
    ("DNS rebinding with the port (Host: evil.example:%d)" % d.port,
     {"Content-Type": "application/json", "Host": "evil.example:%d" % d.port}, 421, "misdirected_request"),
    ("a form's body type without Origin", {"Content-Type": "application/x-www-form-urlencoded"}, 415,
     "unsupported_media_type"),
    ("text/plain without Origin", {"Content-Type": "text/plain"}, 415, "unsupported_media_type"),
    ("a body without any Content-Type", {}, 415, "unsupported_media_type"),
    ("no Origin but Sec-Fetch-Site: cross-site (a browser that leaves Origin off a form's POST)",
     {"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403, "forbidden"),
]
for name, headers, want, want_code in attacks:
    st, b = tcp("POST", "/v1/executions", code, headers)
    t.ok(st == want and b.get("error", {}).get("code") == want_code and b["error"].get("message"),
         "%s: %d %s" % (name, want, want_code), (st, b))
st, b = tcp("GET", "/v2/sandboxes", headers={"Host": "evil.example"})
t.ok(st == 421, "a rebinding page cannot list the E2B sandboxes (and their tokens): 421", (st, b))
st, b = tcp("GET", "/v1/sessions", headers={"Origin": "http://evil.example"})
t.ok(st == 403, "nor read the sessions with a foreign Origin: 403", (st, b))
piston = json.dumps({"language": "python", "version": "*", "files": [{"content": "print(1)"}]}).encode()
st, b = tcp("POST", "/api/v2/execute", piston, {"Content-Type": "application/x-www-form-urlencoded"})
t.ok(st == 415 and "message" in b, "Piston's route: a form's type gets 415 in Piston's shape", (st, b))
st, b = tcp("POST", "/api/v2/execute", piston, {"Content-Type": "text/plain;charset=UTF-8",
                                                  "Origin": "http://evil.example"})
t.ok(st == 403 and "message" in b,
     "Piston's route reads text/plain (piston-client sends it), so a page's Origin is what it refuses: 403",
     (st, b))
st, b = tcp("POST", "/execute", b'{"code":"1"}', {"Content-Type": "text/plain", "E2b-Sandbox-Id": "x"})
t.ok(st == 415 and b.get("code") == 415, "E2B's /execute: 415 in E2B's shape", (st, b))

# Nothing of the refused ones ran: no history row, no container started.
st, b = tcp("POST", "/v1/executions", code, {"Content-Type": "application/json; charset=utf-8",
                                                 "Host": "localhost:%d" % d.port})
t.ok(st == 200 and b.get("stdout") == "42\n", "Host: localhost and a charset parameter: served", (st, b))
t.ok(history_count() == before_rows + 1,
     "the refused requests left no history row (only the one served since did)",
     (history_count(), before_rows))
t.ok(wait_until(lambda: started() >= before_starts + 1, timeout=30) and started() == before_starts + 1,
     "and started no container (one start since: the one served)", (started(), before_starts))

# What the operator lists is served.
st, b = tcp("POST", "/v1/executions", code, {"Content-Type": "application/json", "Host": "warmbox.test:8080"})
t.ok(st == 200, "a name in http.hosts is served", (st, b))
st, b = tcp("POST", "/v1/executions", code, {"Content-Type": "application/json",
                                                 "Origin": "http://console.test:3000"})
t.ok(st == 200, "an origin in http.origins is served", (st, b))
# A listed origin's page may read its answers (CORS), no other's.
st, b, h = tcp_full("OPTIONS", "/v1/executions", headers={
    "Origin": "http://console.test:3000", "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "content-type, authorization"})
t.ok(st == 204 and h.get("access-control-allow-origin") == "http://console.test:3000"
     and "POST" in h.get("access-control-allow-methods", "")
     and "Content-Type" in h.get("access-control-allow-headers", ""),
     "a listed origin's preflight: 204 with what it may send", (st, h))
st, b, h = tcp_full("OPTIONS", "/v1/executions", headers={
    "Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
t.ok(st == 403 and "access-control-allow-origin" not in h, "a foreign origin's preflight: 403, no CORS header",
     (st, h))
st, b, h = tcp_full("POST", "/v1/executions", code, {"Content-Type": "application/json",
                                                        "Origin": "http://console.test:3000"})
t.ok(st == 200 and b.get("stdout") == "42\n" and h.get("access-control-allow-origin") == "http://console.test:3000",
     "its POST runs and says the page may read it", (st, h))
st, b, h = tcp_full("OPTIONS", "/v1/executions")
t.is_eq(st, 404, "OPTIONS that is no preflight: 404")

# Callers without credentials: the Unix socket's and the loopback port's
# are different owners (a local user on the port is not the socket's owner).
st, ses = d.request("POST", "/v1/sessions", {"language": "python"})
t.is_eq(st, 201, "a session made on the Unix socket")
st, b = tcp("GET", "/v1/sessions")
t.ok(st == 200 and all(x["id"] != ses["id"] for x in b.get("sessions", [])),
     "the TCP caller does not see it in its list", (st, b))
for method, path in (("GET", "/v1/sessions/" + ses["id"]), ("DELETE", "/v1/sessions/" + ses["id"])):
    st, b = tcp(method, path)
    t.ok(st in (404, 410), "nor %s it (%d)" % (method, st), (st, b))
st, b = tcp("POST", "/v1/sessions/%s/executions" % ses["id"], json.dumps({"code": "print(1)"}).encode(), json_ct)
t.ok(st in (404, 410), "nor run code in it (%d)" % st, (st, b))
st, b = d.request("GET", "/v1/sessions/" + ses["id"])
t.is_eq(st, 200, "it is still the Unix socket caller's")

st, b = tcp("GET", "/healthz", headers={"Host": "evil.example"})
t.is_eq(st, 421, "even the probe answers only its own names")
# The Unix socket: no browser reaches it, any Host is served.
st, b = d.request("GET", "/v1/languages")
t.is_eq(st, 200, "the Unix socket serves (its Host is never checked)")

OPERATOR_ROUTES = ("/v1/pools", "/v1/engines", "/metrics")
for path in OPERATOR_ROUTES:
    st, b = tcp("GET", path)
    t.ok(st == 403 and b.get("error", {}).get("code") == "forbidden" and "docker" not in json.dumps(b)
         and "unix:" not in json.dumps(b),
         "%s for the anonymous TCP caller (a tenant by default): 403, nothing of the engines" % path, (st, b))
    st, b = d.request("GET", path)
    t.is_eq(st, 200, "%s for the Unix socket's anonymous caller (an operator by default): 200" % path)
d.stop()

# ---- 2. memory per slow reader ------------------------------------------------
import socket  # noqa: E402
import time  # noqa: E402
READERS = 200
cfg_path = os.path.join(PRIVATE, "warmbox-tenants-readers-%d.json" % os.getpid())
with open(cfg_path, "w") as f:
    json.dump({"http": {"max_connections_per_address": READERS + 5}}, f)
sd = Daemon(extra_args=["--config", cfg_path], tcp=True, wait_ready=True)
os.unlink(cfg_path)
d = sd
st, b = tcp("POST", "/v2/sandboxes", json.dumps({"templateID": "base", "timeout": 300}).encode(), json_ct)
sid, stoken = b.get("sandboxID", ""), b.get("envdAccessToken", "")
t.ok(st in (200, 201) and sid and stoken, "an E2B sandbox", (st, b))
big = os.urandom(16 * 1024 * 1024)
boundary = "----warmboxtenants"
upload = (("--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n"
           "Content-Type: application/octet-stream\r\n\r\n" % boundary).encode() + big
          + ("\r\n--%s--\r\n" % boundary).encode())
st, b = tcp("POST", "/files?path=big.bin", upload, {"Content-Type": "multipart/form-data; boundary=" + boundary,
                                                     "E2b-Sandbox-Id": sid, "X-Access-Token": stoken})
t.ok(st == 200, "a 16 MiB file in it", (st, b))
del upload


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        return int([line for line in f if line.startswith("VmRSS:")][0].split()[1])


# One reader first: the whole file arrives, byte for byte.
st, b, h = tcp_full("GET", "/files?path=big.bin", headers={"E2b-Sandbox-Id": sid, "X-Access-Token": stoken})
t.ok(st == 200 and b.get("_raw") == big and h.get("content-length") == str(len(big)),
     "a reader gets the 16 MiB whole (sent a slice at a time)", (st, h))
st, b, h = tcp_full("GET", "/files?path=big.bin", headers={"E2b-Sandbox-Id": sid, "X-Access-Token": stoken,
                                                          "Connection": "close"})
t.ok(st == 200 and b.get("_raw") == big, "and with Connection: close (the reply's end closes it)", (st, h))
for cut in range(3):
    # A reader that takes part of it and leaves.
    c = socket.create_connection(("127.0.0.1", sd.port))
    c.sendall(("GET /files?path=big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nE2b-Sandbox-Id: %s\r\n"
               "X-Access-Token: %s\r\n\r\n" % (sid, stoken)).encode())
    c.recv(100000)
    c.close()
st, b = tcp("GET", "/healthz")
t.ok(st == 200 and sd.proc.poll() is None, "readers that leave half-way leave the daemon serving", (st, b))
before = rss_kib(sd.proc.pid)
readers = []
request_bytes = ("GET /files?path=big.bin HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nE2b-Sandbox-Id: %s\r\n"
                 "X-Access-Token: %s\r\n\r\n" % (sd.port, sid, stoken)).encode()
for i in range(READERS):
    c = socket.socket()
    c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    c.connect(("127.0.0.1", sd.port))
    c.sendall(request_bytes)
    readers.append(c)


def waiting_bytes(c):
    """What the daemon sent c that c has not read (the kernel's count)."""
    import fcntl
    import struct
    import termios
    return struct.unpack("i", fcntl.ioctl(c.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0]


def answered_all():
    return all(waiting_bytes(c) > 0 for c in readers)


t.ok(wait_until(answered_all, timeout=120), "%d readers asked for it, and each has bytes waiting that it "
     "does not read" % READERS)
grown = (rss_kib(sd.proc.pid) - before) / 1024.0
t.diag("daemon RSS: +%.1f MiB with %d stalled readers of a 16 MiB file (%.1f KiB each)"
       % (grown, READERS, grown * 1024 / READERS))
t.ok(grown <= 64, "%d stalled readers of a 16 MiB file raise the daemon's RSS by %.1f MiB (at most 64)"
     % (READERS, grown))
t0 = time.time()
st, b = d.request("GET", "/v1/languages")
t.ok(st == 200, "meanwhile another client is answered (in %.0f ms)" % ((time.time() - t0) * 1000))
extra = []
for i in range(5):
    c = http.client.HTTPConnection("127.0.0.1", sd.port, timeout=60)
    c.request("GET", "/healthz")
    r = c.getresponse()
    r.read()
    extra.append((c, r.status))
t.ok(all(s_ == 200 for _, s_ in extra), "up to http.max_connections_per_address (%d) connections are served"
     % (READERS + 5))
st, b, h = tcp_full("GET", "/healthz")
t.ok(st == 503 and b.get("error", {}).get("code") == "busy" and h.get("connection") == "close",
     "one more from that address: 503 busy, closed", (st, b, h))
for c in readers:
    c.close()
for c, _ in extra:
    c.close()
# The closed readers' connections go; the address is served again.
t.ok(wait_until(lambda: tcp("GET", "/healthz")[0] == 200, timeout=30), "once they close, it is served again")
sd.stop()

# ---- 5. limits for every caller ---------------------------------------------
cfg_path = os.path.join(PRIVATE, "warmbox-tenants-limits-%d.json" % os.getpid())
with open(cfg_path, "w") as f:
    json.dump({"callers": {"tcp": {"rate": 0.05, "burst": 2, "max_concurrent": 1}}}, f)
ld = Daemon(extra_args=["--config", cfg_path], tcp=True)
os.unlink(cfg_path)
d = ld
slow = json.dumps({"language": "python", "code": "import time\ntime.sleep(3)\nprint('slow')"}).encode()
with cf.ThreadPoolExecutor(1) as ex:
    first = ex.submit(tcp, "POST", "/v1/executions", slow, json_ct)
    t.ok(wait_until(lambda: len(ld.our_running()) == 1, timeout=60), "the TCP caller's first execution runs")
    st, b, h = tcp_full("POST", "/v1/executions", code, json_ct)
    t.ok(st == 429 and b.get("error", {}).get("code") == "rate_limited" and "running" in b["error"]["message"]
         and int(h.get("retry-after", "0")) >= 1,
         "its second at once: 429, max_concurrent 1 (callers.tcp)", (st, b, h))
    st, b = ld.run("python", "print('unix')")
    t.ok(st == 200 and b.get("stdout") == "unix\n", "meanwhile the Unix socket's caller is served", (st, b))
    st, b = first.result()
    t.ok(st == 200 and b.get("stdout") == "slow\n", "the first one ends as it should", (st, b))
st, b = tcp("POST", "/v1/executions", code, json_ct)
t.ok(st == 200, "the burst of 2 holds one more (the refusal above took none from it)", (st, b))
st, b, h = tcp_full("POST", "/v1/executions", code, json_ct)
t.ok(st == 429 and "rate" in b.get("error", {}).get("message", "") and int(h.get("retry-after", "0")) >= 1,
     "the next is refused by the rate (0.05/s), Retry-After %s s" % h.get("retry-after"), (st, b, h))
ld.stop()

# ---- 6. operator routes: roles of tokens --------------------------------
keys = {"alice": os.urandom(16).hex(), "ops": os.urandom(16).hex()}
cfg_path = os.path.join(PRIVATE, "warmbox-tenants-roles-%d.json" % os.getpid())
with open(cfg_path, "w") as f:
    json.dump({"tokens": [
        {"name": "alice", "sha256": hashlib.sha256(keys["alice"].encode()).hexdigest()},
        {"name": "ops", "sha256": hashlib.sha256(keys["ops"].encode()).hexdigest(), "role": "operator"}]}, f)
port = d.port
rd = Daemon(extra_args=["--config", cfg_path, "--listen", "127.0.0.1:%d" % port], wait_ready=False)
os.unlink(cfg_path)
rd.port = port
d = rd
for path in OPERATOR_ROUTES:
    st, b = tcp("GET", path, headers={"Authorization": "Bearer " + keys["alice"]})
    t.ok(st == 403 and b.get("error", {}).get("code") == "forbidden" and "unix:" not in json.dumps(b),
         "%s with a tenant's token: 403" % path, (st, b))
    st, b = tcp("GET", path, headers={"Authorization": "Bearer " + keys["ops"]})
    t.is_eq(st, 200, "%s with an operator's token: 200" % path)
st, b = tcp("GET", "/v1/languages", headers={"Authorization": "Bearer " + keys["alice"]})
t.is_eq(st, 200, "the tenant still reads /v1/languages")

# ---- 4. credentials before the body -----------------------------------------
# On the same daemon (tokens required): requests without one, each with a
# 40 MiB body, are answered from their heads; their bodies are dropped as
# they arrive, never buffered.
BODIES, BODY_MIB = 50, 40


def head_of(method, path, ctype, more=""):
    return ("%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: %s\r\n%sContent-Length: %d\r\n\r\n"
            % (method, path, port, ctype, more, BODY_MIB << 20)).encode()


unauth_head = head_of("POST", "/v1/executions", "application/json")
# The routes open to route(): a probe (reads no body), and E2B's sandbox
# plane (its access token names no live sandbox).
open_heads = [(head_of("GET", "/healthz", "application/json"), b"HTTP/1.1 413"),
              (head_of("POST", "/files?path=x", "application/octet-stream",
                       "E2b-Sandbox-Id: nosuch\r\nX-Access-Token: nope\r\n"), b"HTTP/1.1 401")]
c = socket.create_connection(("127.0.0.1", port), timeout=60)
c.sendall(unauth_head)
first = c.recv(65536)
t.ok(first.startswith(b"HTTP/1.1 401 ") and b"unauthorized" in first,
     "a 40 MiB body declared without a token: 401 from its head, before a byte of the body is sent", first[:200])
c.close()


def usual_ms(n=5):
    """The median time of n GET /v1/languages with a token, in ms."""
    times = []
    for _ in range(n):
        t0 = time.time()
        st_, _b = tcp("GET", "/v1/languages", headers={"Authorization": "Bearer " + keys["alice"]})
        times.append(((time.time() - t0) * 1000, st_))
    return sorted(times)[n // 2]


baseline_ms, _ = usual_ms()
piece = b"{" * (1 << 20)


def send_unauthenticated(i):
    head = unauth_head if i % 5 else open_heads[(i // 5) % 2][0]
    s = socket.create_connection(("127.0.0.1", port), timeout=300)
    try:
        s.sendall(head)
        for _ in range(BODY_MIB):
            s.sendall(piece)
        s.shutdown(socket.SHUT_WR)
        got = b""
        while True:
            more = s.recv(65536)
            if not more:
                break
            got += more
        want = b"HTTP/1.1 401" if i % 5 else open_heads[(i // 5) % 2][1]
        return got.startswith(want), got.split(b"\r\n", 1)[0]
    finally:
        s.close()


def read_mib(pid):
    """What the daemon has read so far (its rchar), in MiB."""
    with open("/proc/%d/io" % pid) as f:
        return int([line for line in f if line.startswith("rchar:")][0].split()[1]) / 1048576.0


before, read_before = rss_kib(rd.proc.pid), read_mib(rd.proc.pid)
peak = before
with cf.ThreadPoolExecutor(BODIES) as ex:
    sent = [ex.submit(send_unauthenticated, i) for i in range(BODIES)]
    during = None
    while not all(f.done() for f in sent):
        peak = max(peak, rss_kib(rd.proc.pid))
        # The GET once a fifth of the bodies has arrived (and is being dropped).
        if during is None and read_mib(rd.proc.pid) - read_before >= BODIES * BODY_MIB / 5:
            during = usual_ms(3)
        time.sleep(0.02)  # the sampling's pace, not a wait for a state
    statuses = [f.result() for f in sent]
if during is None:
    during = (float("nan"), 0)
peak = max(peak, rss_kib(rd.proc.pid))
grown = (peak - before) / 1024.0
t.diag("daemon RSS: +%.1f MiB at most while %d clients sent %d MiB bodies without a token "
       "(a GET meanwhile: %.0f ms, %.0f ms before)" % (grown, BODIES, BODY_MIB, during[0], baseline_ms))
t.ok(all(good for good, _ in statuses),
     "all %d answered from their heads (POST /v1/executions 401; GET /healthz, which reads no body, "
     "413; POST /files without a live sandbox's token 401), each connection read to its end" % BODIES,
     set(line for _, line in statuses))
t.ok(grown <= 16, "%d unauthenticated %d MiB bodies raise the daemon's RSS by %.1f MiB (at most 16)"
     % (BODIES, BODY_MIB, grown))
t.ok(during[1] == 200, "meanwhile a client with a token is answered (%.0f ms; %.0f ms before)"
     % (during[0], baseline_ms))

# Heads sent one after another without reading the answers: the daemon
# reads the next head only once evhttp took the last, so it stops reading
# the socket, rather than buffering what the client sends.
flood_head = ("GET /v1/languages HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Pad: %s\r\n\r\n"
              % (port, "p" * 4000)).encode() * 256
before = rss_kib(rd.proc.pid)
c = socket.socket()
c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
c.connect(("127.0.0.1", port))
c.settimeout(3)
sent = 0
try:
    while sent < (256 << 20):
        c.sendall(flood_head)
        sent += len(flood_head)
except socket.timeout:
    pass
grown = (rss_kib(rd.proc.pid) - before) / 1024.0
t.ok(sent < (256 << 20) and grown <= 16,
     "a client sending 4 KiB heads without reading its answers: the daemon stopped reading after "
     "%.1f MiB of them, its RSS +%.1f MiB (at most 16)" % (sent / 1048576.0, grown))
c.close()

# A head the daemon will not read (over 64 KiB), its client still sending:
# answered 413, and the answer is read before the connection closes (a
# close with unread bytes would reset it first).
read_413 = 0
for i in range(20):
    c = socket.create_connection(("127.0.0.1", port), timeout=30)
    try:
        c.sendall(b"POST /v1/executions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (70 << 10))
        c.sendall(b"a" * (64 << 10))
        read_413 += c.recv(4096).startswith(b"HTTP/1.1 413")
    except OSError:
        pass
    c.close()
t.is_eq(read_413, 20, "20 clients still sending after a head over 64 KiB: each reads its 413")
rd.stop()

# ---- 3. sessions of one owner cannot evict another's ------------------------
keys = {"alice": os.urandom(16).hex(), "bob": os.urandom(16).hex()}
cfg_path = os.path.join(PRIVATE, "warmbox-tenants-quota-%d.json" % os.getpid())
with open(cfg_path, "w") as f:
    json.dump({"tokens": [{"name": n, "sha256": hashlib.sha256(k.encode()).hexdigest(), "rate": 100, "burst": 100}
                          for n, k in keys.items()],
               "sessions": {"max_bytes": 1048576, "owner_max_bytes": 1048576, "state_max_bytes": 1048576}}, f)
qd = Daemon(extra_args=["--config", cfg_path], wait_ready=True)
os.unlink(cfg_path)


def as_(who, method, path, body=None):
    c = UnixHTTPConnection(qd.sock, timeout=120)
    try:
        c.request(method, path, body=json.dumps(body) if body is not None else None,
                  headers={"Content-Type": "application/json", "Authorization": "Bearer " + keys[who]})
        r = c.getresponse()
        raw = r.read()
        return r.status, json.loads(raw) if raw else {}
    finally:
        c.close()


def session_of(who):
    st, b = as_(who, "POST", "/v1/sessions", {"language": "python"})
    return b.get("id")


def hold(who, sid, n):
    return as_(who, "POST", "/v1/sessions/%s/executions" % sid,
               {"code": "import os\nblob = os.urandom(%d)\nprint(len(blob))" % n})


bob_s = session_of("bob")
st, r = hold("bob", bob_s, 350000)
t.ok(st == 200 and r.get("session", {}).get("carried"), "bob's session holds 350 kB", r)
alice_s = []
for i in range(3):
    alice_s.append(session_of("alice"))
    st, r = hold("alice", alice_s[-1], 350000)
    t.ok(st == 200 and r.get("session", {}).get("carried"), "alice's session %d holds 350 kB" % i, r)
st, b = as_("bob", "GET", "/v1/sessions/" + bob_s)
t.ok(st == 200, "past the 1 MiB total, bob's session is still there (alice cannot evict bob)", (st, b))
st, b = as_("alice", "GET", "/v1/sessions/" + alice_s[0])
t.ok(st == 410 and "evicted" in b.get("error", {}).get("message", ""),
     "alice's own least recently used session went instead", (st, b))
st, r = hold("alice", alice_s[2], 700000)
t.ok(st == 200 and r.get("session", {}).get("error") in ("session_memory_full", "session_quota")
     and not r["session"]["carried"],
     "a state the total could hold only with bob's: refused (%s), her session kept as it was"
     % r.get("session", {}).get("error"), r)
st, b = as_("bob", "POST", "/v1/sessions/%s/executions" % bob_s, {"code": "print(len(blob))"})
t.ok(st == 200 and b.get("stdout") == "350000\n", "bob's state is whole", (st, b))
qd.stop()

# ---- 7. a host uid is never shared by two live sandboxes --------------------
HOST_UID = r"""
import os, time
u = os.getuid()
host = None
for line in open('/proc/self/uid_map'):
    inside, outside, count = map(int, line.split())
    if inside <= u < inside + count:
        host = outside + (u - inside)
print(host, flush=True)
time.sleep(3)
"""
uid_work = tempfile.mkdtemp(prefix="warmbox-tenants-uids-")
small_pools = {"default": {"min_ready": 0, "max_ready": 0}, "python": {"min_ready": 1, "max_ready": 4}}
fleet = {}
for name, entry in (("docker", None),
                    ("oci-userns-1", {"userns": True}),
                    ("oci-userns-2", {"userns": True}),
                    ("oci-plain", {"userns": False})):
    # The four share a lease folder of this test's own (as daemons of a
    # host share /run/warmbox/uids).
    cfg = {"pools": small_pools, "uid_lease_dir": os.path.join(uid_work, "uids")}
    if entry is not None:
        entry = dict(entry, name="oci", kind="oci", root=os.path.join(uid_work, name))
        cfg["engines"] = [entry]
    path = os.path.join(uid_work, name + ".json")
    with open(path, "w") as f:
        json.dump(cfg, f)
    fleet[name] = Daemon(extra_args=["--config", path],
                         engine="unix:///var/run/docker.sock" if entry is None else "", wait_ready=True)
with cf.ThreadPoolExecutor(12) as ex:
    futures = [(name, ex.submit(dd.run, "python", HOST_UID)) for name, dd in fleet.items() for _ in range(3)]
    got = [(name, f.result()) for name, f in futures]
uids = [(name, r.get("stdout", "").strip()) for name, (st, r) in got]
ok_runs = all(st == 200 and r.get("status") == "ok" for _, (st, r) in got)
values = [u for _, u in uids]
t.ok(ok_runs and len(values) == 12 and len(set(values)) == 12 and "None" not in values,
     "12 sandboxes of 4 daemons (Docker, OCI with a user namespace twice, OCI without), live at "
     "once: 12 different host uids", uids)
by_kind = {name: sorted(int(u) for n, u in uids if n == name and u.isdigit()) for name in fleet}
t.ok(all(u >= 1000000 for u in by_kind["oci-userns-1"] + by_kind["oci-userns-2"])
     and all(u < 1000000 for u in by_kind["docker"] + by_kind["oci-plain"]),
     "user namespaces map into their own host range, and still never share a uid", by_kind)

BOMB = r"""
import os, time
n = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
        n += 1
except OSError as e:
    print('full', n, flush=True)
time.sleep(60)
"""
FORKS = r"""
import os
kids = []
for i in range(20):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    kids.append(pid)
for k in kids:
    os.waitpid(k, 0)
print('forked', len(kids))
"""
bc = UnixHTTPConnection(fleet["docker"].sock, timeout=120)
bc.request("POST", "/v1/executions", body=json.dumps({"language": "python", "code": BOMB, "timeout_ms": 60000}),
           headers={"Content-Type": "application/json", "Accept": "application/x-ndjson"})
br = bc.getresponse()
first = json.loads(br.readline() or b"{}")
t.ok(first.get("type") == "stdout" and first.get("data", "").startswith("full"),
     "a fork bomb in the Docker daemon's sandbox filled its limit (%s)" % first.get("data", "").strip(), first)
for name in ("oci-plain", "docker"):
    st, r = fleet[name].run("python", FORKS)
    t.ok(st == 200 and r.get("stdout") == "forked 20\n",
         "meanwhile a sandbox of %s still forks 20 children" % ("another daemon" if name != "docker"
                                                                 else "the same daemon"), (st, r))
bc.close()  # the bomb's client leaves: its container is stopped
for dd in fleet.values():
    dd.stop()
shutil.rmtree(uid_work, ignore_errors=True)

# ---- 8. nothing recoverable on disk: keyed hashes ---------------------------
import hmac  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
from wbtest import WARMBOX  # noqa: E402
hd = Daemon()
secret = "hunter2"
st, r = hd.run("python", "import sys; print(len(sys.stdin.read()))", stdin=secret)
t.ok(st == 200 and r.get("stdout") == "7\n", "a call with a short secret on stdin", (st, r))
hd.stop()
blob = b""
for p in (hd.db, hd.db + "-wal"):
    if os.path.exists(p):
        with open(p, "rb") as f:
            blob += f.read()
candidates = {}
for name, fn in (("sha256", hashlib.sha256), ("sha1", hashlib.sha1), ("md5", hashlib.md5)):
    for what, data in (("stdin", secret), ("code", "import sys; print(len(sys.stdin.read()))")):
        d_ = fn(data.encode())
        candidates["%s of the %s (hex)" % (name, what)] = d_.hexdigest().encode()
        candidates["%s of the %s (raw)" % (name, what)] = d_.digest()
# Keys the history file itself holds (its secrets table): no hash keyed
# with them either.
c = sqlite3.connect("file:%s?mode=ro" % hd.db, uri=True)
file_keys = [bytes(v) for (v,) in c.execute("SELECT value FROM secrets")]
c.close()
for i, k in enumerate(file_keys):
    for what, data in (("stdin", secret),):
        plain = hashlib.sha256(data.encode()).hexdigest()
        candidates["HMAC of the %s under the file's secret %d" % (what, i)] = \
            hmac.new(k, plain.encode(), hashlib.sha256).hexdigest().encode()
        candidates["HMAC of the raw %s under the file's secret %d" % (what, i)] = \
            hmac.new(k, data.encode(), hashlib.sha256).hexdigest().encode()
found = [n for n, v in candidates.items() if v in blob]
t.ok(not found and len(candidates) >= 12,
     "the history file holds none of %d hashes computable from a known stdin or code and the "
     "file alone" % len(candidates), found)
keyed = wbtest.history_keyer(hd.db)(hashlib.sha256(secret.encode()).hexdigest()).encode()
t.ok(keyed in blob, "it holds the stdin's hash keyed under the key file beside it")
mode = os.stat(hd.db + ".key").st_mode & 0o777
t.is_eq(mode, 0o600, "the key file is the daemon's alone (0600)")
p = subprocess.run([WARMBOX, "history", "--db", hd.db, "--sha256", hashlib.sha256(secret.encode()).hexdigest(),
                    "--json"], capture_output=True, timeout=30)
got = json.loads(p.stdout or b"[]")
t.ok(p.returncode == 0 and len(got) == 1 and got[0]["id"] == r["id"],
     "warmbox history --sha256 of the stdin finds its row with the key", p.stderr)

# ---- 8. nothing recoverable on disk: no core files, masked paths ----------
def core_limit(pid):
    """The soft and hard core-size limits of a process, as /proc shows them."""
    with open("/proc/%d/limits" % pid) as f:
        return [line.split()[4:6] for line in f if line.startswith("Max core file size")][0]


resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
PROBE = r"""
import os
out = {}
for p in ('/proc/interrupts', '/sys/devices/virtual/powercap', '/proc/kcore'):
    try:
        if os.path.isdir(p):
            out[p] = 'listed %d' % len(os.listdir(p))
        else:
            out[p] = 'read %d' % len(open(p, 'rb').read(4096))
    except OSError as e:
        out[p] = 'refused'
print(sorted(out.items()))
"""
work = tempfile.mkdtemp(prefix="warmbox-tenants-oci-")
for kind, engine in (("Docker", "unix:///var/run/docker.sock"), ("OCI", "oci:" + os.path.join(work, "root"))):
    dd = Daemon(engine=engine, wait_ready=True)
    core = core_limit(dd.proc.pid)
    t.ok(core == ["0", "0"], "%s engine: warmboxd started with ulimit -c unlimited has a core limit of 0 (soft, hard)"
         % kind, core)
    if kind == "OCI":
        helper = dd.helper_pid()
        server = dd.oci_server_pid()
        got = [core_limit(p) for p in (helper, server) if p]
        t.ok(len(got) == 2 and all(c == ["0", "0"] for c in got),
             "warmbox-oci (its keeper and its server) too", got)
    st, b = dd.run("python", PROBE)
    out = b.get("stdout", "")
    t.ok(st == 200 and ("'/proc/interrupts', 'read 0'" in out or "'/proc/interrupts', 'refused'" in out),
         "%s engine: /proc/interrupts is masked in the sandbox (reads empty)" % kind, (st, out))
    t.ok("powercap', 'listed" not in out or "powercap', 'listed 0'" in out,
         "%s engine: /sys/devices/virtual/powercap shows nothing" % kind, out)
    dd.stop()
shutil.rmtree(PRIVATE, ignore_errors=True)
t.done()
