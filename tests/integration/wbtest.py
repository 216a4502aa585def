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
import signal
import socket
import subprocess
import sys
import tempfile
import time

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


def docker_socket():
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    if not host.startswith("unix://"):
        raise SystemExit("Bail out! these tests need DOCKER_HOST to be a unix socket")
    return host[len("unix://"):]


def docker_api(method, path, body=None):
    conn = UnixHTTPConnection(docker_socket(), timeout=60)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        raw = resp.read()
        return resp.status, (json.loads(raw) if raw else None)
    finally:
        conn.close()


def containers_with_label(label, status=None):
    """Ids of containers carrying label (key or key=value), in any state or
    in the given one ("created" = a pool's never-started ones, "running")."""
    f = {"label": [label]}
    if status:
        f["status"] = [status]
    filters = json.dumps(f)
    from urllib.parse import quote
    status, body = docker_api("GET", "/containers/json?all=1&filters=" + quote(filters))
    if status != 200:
        raise RuntimeError("docker list: %s %s" % (status, body))
    return [c["Id"] for c in body]


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
        return containers_with_label("warmbox.instance=" + self.instance, status)

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
    and exits when the engine has no such runtime."""
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


def wait_until(pred, timeout=20, step=0.2):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if pred():
            return True
        time.sleep(step)
    return pred()
