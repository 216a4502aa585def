"""Helpers for warmbox's integration tests (Python standard library only).

Each test program starts its own warmboxd on a private Unix socket, talks to
it over HTTP, asks the Docker engine about containers by warmbox label only,
prints TAP, and stops the daemon it started, by pid.
"""
import atexit
import base64
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import quote

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# make test SANITIZE=... points WARMBOX_BIN at the sanitizer build.
BIN = os.environ.get("WARMBOX_BIN") or os.path.join(ROOT, "bin")
WARMBOXD = os.path.join(BIN, "warmboxd")
WARMBOX = os.path.join(BIN, "warmbox")


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path, timeout=120):
        super().__init__("localhost", timeout=timeout)
        self.unix_path = path

    def connect(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(self.timeout)
        s.connect(self.unix_path)
        self.sock = s


# WARMBOX_ENGINE=oci: every Daemon of these tests (unless a test names its
# own engine) runs its executions on the OCI engine, a warmbox-oci helper
# of its own with its own root, instead of the local Docker engine.
ENGINE_KIND = os.environ.get("WARMBOX_ENGINE", "docker")
# The helpers' roots: one per live Daemon, reused by the next Daemon of
# this test once that one is gone (a daemon restarted after kill -9 finds
# what its predecessor's helper left, as on a host).  The engine socket of
# the newest live Daemon is where docker_api goes by default.
_OCI_ROOTS = {}
_ENGINE_SOCK = [None]


def _oci_root(daemon):
    for i in range(16):
        root = os.path.join(tempfile.gettempdir(), "warmbox-oci-%d-%d" % (os.getpid(), i))
        owner = _OCI_ROOTS.get(root)
        if owner is None or owner.proc.poll() is not None:
            _OCI_ROOTS[root] = daemon
            return root
    raise RuntimeError("16 daemons at once")


def oci_load_image(image, store="/var/lib/warmbox/oci-images"):
    """Put a Docker image of a test's own into the OCI engine's image store
    (as make images does for the shipped ones)."""
    fd, tmp = tempfile.mkstemp(prefix="warmbox-image-", dir="/var/tmp")
    os.close(fd)
    try:
        subprocess.run(["docker", "save", image, "-o", tmp], check=True, capture_output=True)
        subprocess.run([os.path.join(BIN, "warmbox-oci"), "load", "--images", store, tmp], check=True,
                       capture_output=True)
    finally:
        os.unlink(tmp)


def docker_socket():
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    if not host.startswith("unix://"):
        raise SystemExit("Bail out! these tests need DOCKER_HOST to be a unix socket")
    return host[len("unix://"):]


def docker_api(method, path, body=None, sock=None):
    conn = UnixHTTPConnection(sock or _ENGINE_SOCK[0] or docker_socket(), timeout=60)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        raw = resp.read()
        return resp.status, (json.loads(raw) if raw else None)
    finally:
        conn.close()


def oci_state(root):
    """The containers an OCI engine's root still holds in its native
    runtime's state root (each a folder: runc's state/, crun's
    state-crun/)."""
    return sorted(n for sub in ("state", "state-crun") if os.path.isdir(os.path.join(root, sub))
                  for n in os.listdir(os.path.join(root, sub)))


def containers_with_label(label, status=None, sock=None):
    """Ids of containers carrying label (key or key=value), in any state or
    in the given one ("created" = a pool's never-started ones, "running"),
    on the engine at sock (default: the local Docker engine)."""
    sock = sock or _ENGINE_SOCK[0]
    if sock and not os.path.exists(sock):
        # An OCI helper that has stopped: what it left is in the runtime's
        # state root, which is this test's own.
        return oci_state(os.path.dirname(sock))
    f = {"label": [label]}
    if status:
        f["status"] = [status]
    filters = json.dumps(f)
    status, body = docker_api("GET", "/containers/json?all=1&filters=" + quote(filters), sock=sock)
    if status != 200:
        raise RuntimeError("docker list: %s %s" % (status, body))
    return [c["Id"] for c in body]


class EngineEvents(threading.Thread):
    """The engine's container events (GET /events: Docker's, Podman's,
    warmbox-oci's) for containers carrying label, read in the background:
    (action, container id, the warmbox.instance label) in the order the
    engine wrote them.  since (seconds) replays what the engine still
    holds from then: a stream opened after a daemon started misses none of
    its containers' events."""

    def __init__(self, sock=None, since=None, label="warmbox.instance"):
        super().__init__(daemon=True)
        self.events = []
        self.sock = sock or _ENGINE_SOCK[0] or docker_socket()
        self.filters = quote(json.dumps({"type": ["container"], "label": [label]}))
        # Where a catch-up at stop() starts when the stream brought nothing.
        self.last_nano = int(since * 1e9) if since else time.time_ns()
        self.seen = set()
        self.conn = UnixHTTPConnection(self.sock, timeout=3600)
        self.conn.request("GET", "/events?filters=" + self.filters + ("&since=%d" % since if since else ""))
        self.resp = self.conn.getresponse()
        if self.resp.status != 200:
            raise RuntimeError("events: %s %s" % (self.resp.status, self.resp.read()[:300]))
        self.start()

    def _add(self, line):
        e = json.loads(line)
        actor = e.get("Actor") or {}
        cid = e.get("id") or actor.get("ID")
        nano = int(e.get("timeNano") or (e.get("time") or 0) * 1000000000)
        if (nano, e.get("Action"), cid) in self.seen:
            return
        self.seen.add((nano, e.get("Action"), cid))
        self.last_nano = max(self.last_nano, nano)
        self.events.append((e.get("Action"), cid, (actor.get("Attributes") or {}).get("warmbox.instance")))

    def run(self):
        try:
            while True:
                line = self.resp.readline()
                if not line:
                    break
                if line.strip():
                    self._add(line)
        except (OSError, ValueError, http.client.HTTPException):
            pass

    def stop(self):
        """Stop reading; then ask the engine once more for what it wrote
        from the last event the stream brought up to now (since= .. until=
        now, a replay that ends): an event on its way is not lost."""
        until = time.time_ns()
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.join(timeout=10)
        if self.is_alive():
            return
        try:
            conn = UnixHTTPConnection(self.sock, timeout=60)
            conn.request("GET", "/events?filters=%s&since=%d.%09d&until=%d.%09d"
                         % ((self.filters,) + divmod(self.last_nano, 1000000000) + divmod(until, 1000000000)))
            resp = conn.getresponse()
            if resp.status == 200:
                for line in resp.read().splitlines():
                    if line.strip():
                        self._add(line)
            conn.close()
        except (OSError, ValueError, http.client.HTTPException):
            pass  # the engine is gone (an OCI helper stops with its daemon): its stream ended whole

    def actions(self, cid):
        """What happened to one container, in order."""
        return [a for a, c, _ in self.events if c == cid]

    def starts(self, instances):
        """{container id: times started} for containers of these instances."""
        out = {}
        for action, cid, inst in self.events:
            if action == "start" and inst in instances:
                out[cid] = out.get(cid, 0) + 1
        return out


def free_port():
    """A TCP port on 127.0.0.1 nobody listens on now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, name, diag=None):
        self.n += 1
        print("%sok %d - %s" % ("" if cond else "not ", self.n, name), flush=True)
        if not cond:
            self.failed += 1
            if diag is not None:
                for line in str(diag).splitlines()[:20]:
                    print("#   " + line, flush=True)
                    # prove shows stderr, not TAP comments: CI's log says why.
                    print("#   " + line, file=sys.stderr, flush=True)
        return cond

    def todo(self, name, reason, diag=None):
        """A known failure: reported, not counted (TAP "not ok ... # TODO")."""
        self.n += 1
        print("not ok %d - %s # TODO %s" % (self.n, name, reason), flush=True)
        if diag is not None:
            for line in str(diag).splitlines()[:5]:
                print("#   " + line, flush=True)

    def is_eq(self, got, want, name):
        return self.ok(got == want, name, "got %r\nwant %r" % (got, want))

    def diag(self, msg):
        for line in str(msg).splitlines():
            print("# " + line, flush=True)

    def done(self):
        print("1..%d" % self.n, flush=True)
        sys.exit(1 if self.failed else 0)


class Daemon:
    """A warmboxd of our own: started here, stopped here, by pid."""

    def __init__(self, extra_args=(), tcp=False, engine=None, wait_ready=None):
        self.dir = tempfile.mkdtemp(prefix="warmbox-test-")
        self.sock = os.path.join(self.dir, "wb.sock")
        self.log_path = os.path.join(self.dir, "warmboxd.log")
        self.db = os.path.join(self.dir, "history.db")
        args = [WARMBOXD, "--listen", "unix:" + self.sock, "--store-path", self.db]
        self.port = None
        if tcp:
            self.port = free_port()
            args += ["--listen", "127.0.0.1:%d" % self.port, "--insecure-no-auth"]
        self.engine_sock = self.oci_root = None
        if engine is None and ENGINE_KIND == "oci":
            root = self.oci_root = _oci_root(self)
            engine = "oci:" + root
            self.engine_sock = os.path.join(root, "engine.sock")
            userns = os.environ.get("WARMBOX_OCI_USERNS")
            runtime = os.environ.get("WARMBOX_OCI_RUNTIME")
            if userns in ("0", "1") or runtime:
                # The same engine with "userns" said (1: true, 0: false;
                # the default is a user namespace where the host allows
                # one, docs/operators.md), or another runtime than runc
                # (WARMBOX_OCI_RUNTIME=/usr/bin/crun).
                entry = {"name": "oci", "kind": "oci", "root": root}
                if userns in ("0", "1"):
                    entry["userns"] = userns == "1"
                if runtime:
                    entry["runtime"] = runtime
                cfg = os.path.join(self.dir, "engine.json")
                with open(cfg, "w") as f:
                    json.dump({"engines": [entry]}, f)
                args += ["--config", cfg]
                engine = ""
            _ENGINE_SOCK[0] = self.engine_sock
            wait_ready = True if wait_ready is None else wait_ready
        if engine:
            args += ["--engine", engine]
        args += list(extra_args)
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        # A test that dies half-way must not leave its daemon (and its
        # pools) running: stop it, by pid, when the interpreter exits.
        atexit.register(self._stop_if_running)
        self.instance = None
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("warmboxd exited early:\n" + self.read_log())
            m = re.search(r"instance ([0-9a-f]{32})", self.read_log())
            if m and os.path.exists(self.sock):
                self.instance = m.group(1)
                break
            time.sleep(0.05)
        if self.instance is None:
            self.stop()
            raise RuntimeError("warmboxd did not come up:\n" + self.read_log())
        # Wait until the images are resolved, so the first test is not the
        # one that pays for it.
        deadline = time.time() + 30
        if wait_ready is None:
            wait_ready = engine is None
        while time.time() < deadline and wait_ready:
            st, body = self.request("GET", "/v1/languages")
            if st == 200 and all(l["ready"] for l in body["languages"]):
                break
            time.sleep(0.1)

    def helper_pid(self):
        """The pid of this daemon's warmbox-oci, from its log (None: none)."""
        m = re.search(r"warmbox-oci \(pid (\d+)\)", self.read_log())
        return int(m.group(1)) if m else None

    def oci_server_pid(self):
        """The pid of the server the helper (its keeper) runs now (None:
        none): the keeper's one child."""
        keeper = self.helper_pid()
        try:
            with open("/proc/%d/task/%d/children" % (keeper, keeper)) as f:
                kids = [int(x) for x in f.read().split()]
            exe = os.readlink("/proc/%d/exe" % keeper)
        except (TypeError, OSError):
            return None
        # (Besides the server, the inits a dead server left, for a moment.)
        servers = []
        for k in kids:
            try:
                if os.readlink("/proc/%d/exe" % k) == exe:
                    servers.append(k)
            except OSError:
                pass
        return servers[0] if len(servers) == 1 else None

    def read_log(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def request(self, method, path, body=None, raw=None, timeout=120):
        conn = UnixHTTPConnection(self.sock, timeout=timeout)
        try:
            data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
            conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            text = resp.read()
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = {"_raw": text}
            return resp.status, parsed
        finally:
            conn.close()

    def run(self, language, code, **kw):
        body = {"language": language, "code": code}
        body.update(kw)
        return self.request("POST", "/v1/executions", body)

    def our_containers(self, status=None):
        return containers_with_label("warmbox.instance=" + self.instance, status, sock=self.engine_sock)

    def our_running(self):
        """Containers that are running or stopped: everything but the
        pools' never-started ones."""
        return [c for c in self.our_containers() if c not in self.our_containers("created")]

    def _stop_if_running(self):
        if self.proc.poll() is None:
            self.stop()

    def stop(self, sig=signal.SIGTERM, timeout=60):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return self.proc.returncode


def engine_runtimes():
    """Runtimes the engine has registered (e.g. ["runc", "runsc"])."""
    if ENGINE_KIND == "oci":
        return ["runc"] + (["runsc"] if shutil.which("runsc") else [])
    status, body = docker_api("GET", "/info")
    return sorted((body or {}).get("Runtimes", {}).keys()) if status == 200 else []


def profiles_for_runtime(runtime):
    """A copy of the shipped profiles that run under runtime; None for the
    shipped ones (runc)."""
    if not runtime or runtime == "runc":
        return None
    import shutil
    out = tempfile.mkdtemp(prefix="warmbox-profiles-%s-" % runtime)
    src = os.path.join(ROOT, "profiles")
    for lang in sorted(os.listdir(src)):
        if os.path.exists(os.path.join(src, lang, "profile.json")):
            shutil.copytree(os.path.join(src, lang), os.path.join(out, lang))
            path = os.path.join(out, lang, "profile.json")
            with open(path) as f:
                prof = json.load(f)
            prof["runtime"] = runtime
            with open(path, "w") as f:
                json.dump(prof, f)
    return out


# Every language's source file extension (the corpora are named by it).
LANGUAGE_EXT = {"python": ".py", "javascript": ".js", "typescript": ".ts", "bash": ".sh", "ruby": ".rb",
                "c": ".c", "cpp": ".cpp", "go": ".go", "rust": ".rs", "java": ".java"}


def corpus_daemon():
    """For the corpora: the runtime from WARMBOX_RUNTIME (default runc), a
    Tap, and a daemon whose profiles use that runtime.  Prints a TAP skip
    and exits when the engine has no such runtime.  The engine is the OCI
    engine (crun where the host lets it, else runc: make run's default)
    where this runs as root with warmbox-oci built, unless WARMBOX_ENGINE
    says which."""
    global ENGINE_KIND
    if "WARMBOX_ENGINE" not in os.environ and os.getuid() == 0 \
            and os.access(os.path.join(BIN, "warmbox-oci"), os.X_OK) \
            and any(os.access(p, os.X_OK) for p in ("/usr/bin/crun", "/usr/sbin/runc", "/usr/bin/runc")):
        ENGINE_KIND = "oci"
    runtime = os.environ.get("WARMBOX_RUNTIME", "runc")
    if runtime not in engine_runtimes():
        print("1..0 # SKIP the engine has no %s runtime" % runtime)
        sys.exit(0)
    profiles = profiles_for_runtime(runtime)
    return runtime, Tap(), Daemon(extra_args=["--profiles", profiles] if profiles else [])


NODE_DIR = os.path.join(ROOT, "tests", "node")


def node_client_ready(package):
    """True when node and the npm package (installed in tests/node by
    scripts/setup.sh) are there."""
    import shutil
    return bool(shutil.which("node")) and os.path.isdir(os.path.join(NODE_DIR, "node_modules", package))


def node_steps(script, *args, timeout=180):
    """Run tests/node/SCRIPT, which prints one {"name", "value"} JSON line per
    step: (exit status, {name: value}, its stderr)."""
    p = subprocess.run(["node", os.path.join(NODE_DIR, script)] + list(args), capture_output=True, text=True,
                       timeout=timeout)
    steps = {}
    for line in p.stdout.splitlines():
        try:
            o = json.loads(line)
            steps[o["name"]] = o["value"]
        except (ValueError, KeyError, TypeError):
            pass
    return p.returncode, steps, p.stderr


def stream(result, name):
    """The bytes of result[name], decoded per result[name + '_encoding']."""
    data = result.get(name, "")
    if result.get(name + "_encoding") == "base64":
        return base64.b64decode(data)
    return data.encode("utf-8")


def rows(db, sql, *args):
    """Rows of a query on a history file, read-only (the daemon may be
    writing it)."""
    import sqlite3
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=10)
    try:
        return c.execute(sql, args).fetchall()
    finally:
        c.close()


def history_keyer(db):
    """How the history at db keys a plain SHA-256 (hex) into what its
    *_hmac columns hold: HMAC-SHA-256 under the key file beside it."""
    import hmac
    import hashlib
    with open(db + ".key") as f:
        key = bytes.fromhex(f.read().strip())
    return lambda sha: hmac.new(key, sha.encode(), hashlib.sha256).hexdigest()


def wait_until(pred, timeout=20, step=0.2):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if pred():
            return True
        time.sleep(step)
    return pred()


def metric(d, name, **labels):
    """The value of a sample of d's /metrics: the first one named name whose
    labels include those given (engine="tls2"); None when there is none."""
    raw = d.request("GET", "/metrics")[1].get("_raw", b"").decode()
    for line in raw.splitlines():
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$", line)
        if m and m.group(1) == name:
            have = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
            if all(have.get(k) == v for k, v in labels.items()):
                return float(m.group(3))
    return None


def pools(d):
    """d's pools (GET /v1/pools)."""
    st, body = d.request("GET", "/v1/pools")
    return body.get("pools", []) if st == 200 else []


def live_pool(d, lang):
    """The pool of lang that is not draining (None: none)."""
    for p in pools(d):
        if p["language"] == lang and not p["draining"]:
            return p
    return None


def pool_full(d, lang, n):
    """lang's pool holds n ready containers and creates none."""
    p = live_pool(d, lang)
    return p is not None and p["ready"] >= n and p["creating"] == 0


def read_lines(pipe, n, timeout=60):
    """What a child's output pipe says until it has said n lines, it ends,
    or timeout seconds pass (bytes, read past the buffer: nothing is left
    in pipe's own)."""
    import select
    got = b""
    deadline = time.time() + timeout
    while got.count(b"\n") < n:
        left = deadline - time.time()
        if left <= 0 or not select.select([pipe.fileno()], [], [], left)[0]:
            break
        chunk = os.read(pipe.fileno(), 65536)
        if not chunk:
            break
        got += chunk
    return got


def peer_closed(sock):
    """True once the other end of sock (plain or TLS) has closed it; reads
    nothing else (it is meant for a connection that waits idle)."""
    import select
    import ssl
    if not select.select([sock], [], [], 0)[0]:
        return False
    was = sock.gettimeout()
    sock.settimeout(0)
    try:
        return sock.recv(1) == b""
    except (ssl.SSLWantReadError, BlockingIOError):
        return False
    except OSError:
        return True
    finally:
        sock.settimeout(was)


class PodmanService:
    """A Podman Docker-compatible service of our own (`podman system
    service`), started here and stopped here by pid, with its own storage,
    run root, socket and containers.conf: runc (its default, crun, fails on
    this host's hybrid cgroups), cgroupfs, events to a file, catatonit as
    init.  As root, or (user=NAME) rootless as that user."""

    CONF = ('[engine]\nruntime = "runc"\nevents_logger = "file"\ncgroup_manager = "cgroupfs"\n'
            '[containers]\ninit_path = "/usr/bin/catatonit"\n')

    def __init__(self, user=None):
        import pwd
        self.user = user
        tag = "%s-%d" % (user or "root", os.getpid())
        if user:
            pw = pwd.getpwnam(user)
            self.uid, self.gid, self.home = pw.pw_uid, pw.pw_gid, pw.pw_dir
            self.runtime_dir = "/run/user/%d" % self.uid
            os.makedirs(self.runtime_dir, exist_ok=True)
            os.chown(self.runtime_dir, self.uid, self.gid)
            os.chmod(self.runtime_dir, 0o700)
            self.base = os.path.join(self.home, "wbpod-" + tag)
            self.runroot = os.path.join(self.runtime_dir, "wbpod-" + tag)
        else:
            self.base = "/var/lib/warmbox-test-podman-" + tag
            self.runroot = "/run/wbpod-" + tag
        self.sock = os.path.join(self.runroot, "podman.sock")
        self.conf = os.path.join(self.base, "containers.conf")
        for d in (self.base, self.runroot):
            os.makedirs(d, exist_ok=True)
            if user:
                os.chown(d, self.uid, self.gid)
        with open(self.conf, "w") as f:
            f.write(self.CONF)
        self.log = open(os.path.join(self.base, "service.log"), "ab")
        self.proc = None

    def _argv(self, *args):
        argv = ["podman", "--root", os.path.join(self.base, "storage"), "--runroot",
                os.path.join(self.runroot, "run")] + list(args)
        if self.user:
            return ["runuser", "-u", self.user, "--", "env", "XDG_RUNTIME_DIR=" + self.runtime_dir,
                    "HOME=" + self.home, "CONTAINERS_CONF=" + self.conf] + argv
        return ["env", "CONTAINERS_CONF=" + self.conf] + argv

    def start(self):
        self.proc = subprocess.Popen(self._argv("system", "service", "--time=0", "unix://" + self.sock),
                                     stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True, cwd="/")
        atexit.register(self.stop)
        return wait_until(lambda: self.request("/_ping")[0] == 200, timeout=30)

    def request(self, path):
        try:
            conn = UnixHTTPConnection(self.sock, timeout=10)
            conn.request("GET", path)
            r = conn.getresponse()
            return r.status, r.read()
        except OSError:
            return 0, b""

    def podman(self, *args):
        return subprocess.run(self._argv(*args), capture_output=True, text=True, cwd="/")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def cleanup(self):
        """Stop, remove every container and image of its storage, and its
        folders."""
        self.stop()
        self.podman("rm", "-af")
        self.podman("system", "reset", "-f")
        subprocess.run(["umount", "-R", os.path.join(self.base, "storage")], capture_output=True)
        shutil.rmtree(self.base, ignore_errors=True)
        shutil.rmtree(self.runroot, ignore_errors=True)


def trusted_dir(tag):
    """A folder only root can change, as warmboxd wants a Podman engine's
    seccomp_dir (not under /tmp: anyone may create names there): under
    /var/lib, 0755, removed at exit."""
    path = "/var/lib/warmbox-test-%s-%d" % (tag, os.getpid())
    os.makedirs(path, exist_ok=True)
    os.chmod(path, 0o755)
    atexit.register(shutil.rmtree, path, True)
    return path


def make_test_certs(folder):
    """A CA, a server certificate for localhost and 127.0.0.1, a client certificate, and
    a stranger's (client certificate of another CA), made with openssl in
    folder: ca.pem, server.pem/.key, client.pem/.key, stranger.pem/.key."""
    def openssl(*args):
        subprocess.run(["openssl"] + list(args), cwd=folder, check=True, capture_output=True)

    def make_ca(name):
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=" + name,
                "-keyout", name + ".key", "-out", name + ".pem")

    def make_cert(name, ca, ext):
        with open(os.path.join(folder, name + ".ext"), "w") as f:
            f.write(ext)
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=" + name, "-keyout", name + ".key",
                "-out", name + ".csr")
        openssl("x509", "-req", "-in", name + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key",
                "-CAcreateserial", "-days", "2", "-extfile", name + ".ext", "-out", name + ".pem")

    make_ca("ca")
    make_ca("otherca")
    make_cert("server", "ca", "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
    make_cert("client", "ca", "extendedKeyUsage=clientAuth\n")
    make_cert("stranger", "otherca", "extendedKeyUsage=clientAuth\n")


class SecondDockerd:
    """A dockerd of our own beside the machine's, started and stopped here
    by pid: its own data root (on the disk: overlay2 needs a real file
    system), exec root, pidfile and Unix socket, and TCP on 127.0.0.1 with
    --tlsverify against certs (a folder make_test_certs filled)."""

    def __init__(self, certs, tag="engine2"):
        self.certs = certs
        self.root = "/var/lib/warmbox-test-%s-%d" % (tag, os.getpid())
        self.exec_root = "/run/wb%s-%d" % (tag[-2:], os.getpid())  # socket paths stay short
        self.sock = os.path.join(self.exec_root, "docker.sock")
        self.pidfile = os.path.join(self.exec_root, "docker.pid")
        self.port = free_port()
        os.makedirs(self.root, exist_ok=True)
        os.makedirs(self.exec_root, exist_ok=True)
        self.config = os.path.join(self.root, "daemon.json")
        with open(self.config, "w") as f:
            f.write("{}")
        self.log_path = os.path.join(self.root, "dockerd.log")
        self.proc = None

    def endpoint(self):
        return "tcp://127.0.0.1:%d" % self.port

    def engine(self, name, cert="client"):
        """Its entry in warmboxd's engines list, with this client cert."""
        c = lambda n: os.path.join(self.certs, n)  # noqa: E731
        return {"name": name, "endpoint": self.endpoint(), "tls_ca": c("ca.pem"),
                "tls_cert": c(cert + ".pem"), "tls_key": c(cert + ".key")}

    def start(self):
        c = lambda n: os.path.join(self.certs, n)  # noqa: E731
        self.proc = subprocess.Popen(
            ["dockerd", "--data-root", self.root + "/data", "--exec-root", self.exec_root + "/exec",
             "--pidfile", self.pidfile, "-H", "unix://" + self.sock, "-H", self.endpoint(),
             "--tlsverify", "--tlscacert", c("ca.pem"), "--tlscert", c("server.pem"),
             "--tlskey", c("server.key"), "--config-file", self.config,
             "--bridge=none", "--iptables=false", "--ip-masq=false"],
            stdout=open(self.log_path, "ab"), stderr=subprocess.STDOUT, start_new_session=True)
        atexit.register(self.stop)
        return wait_until(lambda: self.docker("info", "--format", "{{.ID}}").returncode == 0, timeout=60)

    def pid(self):
        with open(self.pidfile) as f:
            return int(f.read())

    def docker(self, *args):
        return subprocess.run(["docker", "-H", "unix://" + self.sock] + list(args), capture_output=True,
                              text=True)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def cleanup(self):
        self.stop()
        subprocess.run(["umount", "-R", self.root + "/data"], capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)
        shutil.rmtree(self.exec_root, ignore_errors=True)


def interleaving(output, stdout, stderr):
    """How output (both streams as they came) relates to stdout and stderr,
    for programs writing unique lines: (each stream's lines, in its own
    order and each once, make up output; the number of places output goes
    from one stream to the other).  Docker copies the two pipes apart, so
    a rare pair can come swapped on a loaded machine: the tests ask for a
    merge and nearly every switch, not an exact sequence."""
    out_lines, err_lines = stdout.splitlines(), stderr.splitlines()
    kinds = {l: "o" for l in out_lines}
    kinds.update({l: "e" for l in err_lines})
    lines = output.splitlines()
    merged = (len(lines) == len(out_lines) + len(err_lines)
              and [l for l in lines if kinds.get(l) == "o"] == out_lines
              and [l for l in lines if kinds.get(l) == "e"] == err_lines)
    switches = sum(1 for a, b in zip(lines, lines[1:]) if kinds.get(a) != kinds.get(b))
    return merged, switches
