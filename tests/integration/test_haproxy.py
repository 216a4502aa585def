#!/usr/bin/env python3
"""Two warmboxd behind HAProxy (dist/haproxy.cfg, Debian's haproxy), on one
engine, all on loopback:

  1. a load of 300 executions at concurrency 8 through HAProxy while both
     daemons are restarted in turn (SIGTERM, start again, then the other):
     no request fails;
  2. another load while one daemon is killed with SIGKILL: only requests
     that were in flight on it fail, each with a clear error long before
     any timeout, and the rest are served;

and throughout: every execution's code is unique, and no code shows up in
the histories more than once (nothing ran twice); at the end no container
of any of the daemons is left.  HAProxy and the daemons are ours: started
here, stopped by pid.
"""
import hashlib
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
import urllib.error
import urllib.request
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wbtest  # noqa: E402

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
N_LOAD = 300
CONCURRENCY = 8
DRAIN_DELAY_MS = int(os.environ.get("WB_TEST_DRAIN_DELAY_MS", "3000"))


class Fleet:
    """HAProxy from dist/haproxy.cfg with our ports, and its two daemons."""

    def __init__(self, tap):
        self.tap = tap
        self.dir = tempfile.mkdtemp(prefix="warmbox-haproxy-")
        self.front = wbtest.free_port()
        self.api = {"a": wbtest.free_port(), "b": wbtest.free_port()}
        self.agent = {"a": wbtest.free_port(), "b": wbtest.free_port()}
        self.daemons = {}
        self.incarnations = []  # every Daemon started, for histories and labels
        with open(os.path.join(wbtest.ROOT, "dist", "haproxy.cfg")) as f:
            cfg = f.read()
        cfg = cfg.replace("bind 127.0.0.1:8080", "bind 127.0.0.1:%d" % self.front)
        for name, port, agent in (("a", 8081, 8091), ("b", 8082, 8092)):
            cfg = cfg.replace("127.0.0.1:%d check agent-port %d" % (port, agent),
                              "127.0.0.1:%d check agent-port %d" % (self.api[name], self.agent[name]))
        self.stats = os.path.join(self.dir, "haproxy.sock")
        cfg = cfg.replace("global\n", "global\n    stats socket %s mode 600 level admin\n" % self.stats, 1)
        self.cfg = os.path.join(self.dir, "haproxy.cfg")
        with open(self.cfg, "w") as f:
            f.write(cfg)
        self.ha_log = open(os.path.join(self.dir, "haproxy.log"), "wb")
        self.haproxy = subprocess.Popen([HAPROXY, "-db", "-f", self.cfg], stdout=self.ha_log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        import atexit
        atexit.register(self.stop_haproxy)

    def start(self, name):
        cfg = os.path.join(self.dir, "warmboxd-%s.json" % name)
        with open(cfg, "w") as f:
            json.dump({"agent_listen": "127.0.0.1:%d" % self.agent[name],
                       "drain_delay_ms": DRAIN_DELAY_MS, "sessions": {"node": name},
                       "pools": {"default": {"min_ready": 0, "max_ready": 0},
                                 "python": {"min_ready": 2, "max_ready": 6}}}, f)
        # A daemon started again keeps its history file (and so its key for
        # session ids), as a service does.
        before = self.daemons.get(name)
        d = wbtest.Daemon(extra_args=["--config", cfg, "--listen", "127.0.0.1:%d" % self.api[name],
                                      "--insecure-no-auth"] + (["--store-path", before.db] if before else []))
        if before:
            d.db = before.db
        self.daemons[name] = d
        self.incarnations.append(d)
        return d

    def server_states(self):
        """{server: (status, weight, last check)} from HAProxy's stats socket."""
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(5)
        try:
            s.connect(self.stats)
            s.sendall(b"show stat\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except OSError:
            return {}
        finally:
            s.close()
        lines = data.decode().splitlines()
        if not lines or not lines[0].startswith("# "):
            return {}
        head = lines[0][2:].split(",")
        out = {}
        for line in lines[1:]:
            row = dict(zip(head, line.split(",")))
            if row.get("pxname") == "warmboxd" and row.get("svname", "").startswith("warmbox-"):
                out[row["svname"][len("warmbox-"):]] = (row.get("status"), row.get("weight"),
                                                        row.get("check_status"))
        return out

    def wait_up(self, names, timeout=60):
        """Until HAProxy has each server UP after a passed check: before its
        first check HAProxy shows a server UP (2.6 has no init-state)."""
        return wbtest.wait_until(
            lambda: all((self.server_states().get(n) or ("", "", ""))[0::2] == ("UP", "L7OK") for n in names),
            timeout)

    def stop_haproxy(self):
        if self.haproxy.poll() is None:
            self.haproxy.terminate()
            try:
                self.haproxy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.haproxy.kill()
                self.haproxy.wait()


def http(port, method, path, body=None, timeout=200):
    """One request through HAProxy: (HTTP status, parsed body)."""
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), method=method,
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")
    except (OSError, urllib.error.URLError, ValueError) as e:
        return None, repr(e)


SENT = []  # every code sent, to find its rows in each history (keyed there)


def execute(port, code, timeout=200):
    """POST one execution through HAProxy: (HTTP status, body, seconds)."""
    SENT.append(code)
    body = json.dumps({"language": "python", "code": code}).encode()
    req = urllib.request.Request("http://127.0.0.1:%d/v1/executions" % port, data=body,
                                 headers={"Content-Type": "application/json"})
    t0 = time.time()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read(), time.time() - t0
    except urllib.error.HTTPError as e:
        return e.code, e.read(), time.time() - t0
    except (OSError, urllib.error.URLError) as e:
        return None, repr(e).encode(), time.time() - t0


class Load:
    """N executions at concurrency C, each with its own marker."""

    def __init__(self, port, n, c):
        self.port = port
        self.results = []  # (marker, status, body, started, ended)
        self.lock = threading.Lock()
        self.todo = list(range(n))
        self.threads = [threading.Thread(target=self.worker, daemon=True) for _ in range(c)]

    def worker(self):
        while True:
            with self.lock:
                if not self.todo:
                    return
                self.todo.pop()
            marker = uuid.uuid4().hex
            started = time.time()
            st, body, _ = execute(self.port, "print(%r)" % marker)
            with self.lock:
                self.results.append((marker, st, body, started, time.time()))

    def start(self):
        for t in self.threads:
            t.start()
        return self

    def done(self):
        with self.lock:
            return len(self.results)

    def join(self, timeout=600):
        end = time.time() + timeout
        for t in self.threads:
            t.join(max(0.1, end - time.time()))
        return not any(t.is_alive() for t in self.threads)


def served(result):
    marker, st, body = result[0], result[1], result[2]
    if st != 200:
        return False
    try:
        r = json.loads(body)
    except ValueError:
        return False
    return r.get("status") == "ok" and r.get("stdout") == marker + "\n"


def main():
    tap = wbtest.Tap()
    if not os.path.exists(HAPROXY):
        print("1..0 # SKIP no haproxy (scripts/setup.sh installs it)")
        return 0
    rc = subprocess.run([HAPROXY, "-c", "-f", os.path.join(wbtest.ROOT, "dist", "haproxy.cfg")],
                        capture_output=True, text=True)
    tap.ok(rc.returncode == 0, "dist/haproxy.cfg is valid for this haproxy", rc.stderr[-500:])
    fleet = Fleet(tap)
    fleet.start("a")
    fleet.start("b")
    if not tap.ok(fleet.wait_up(["a", "b"]), "HAProxy sees both daemons up (/readyz, agent)",
                  str(fleet.server_states())):
        return tap.done()

    # The agent's answer, as HAProxy reads it.
    s = socket.create_connection(("127.0.0.1", fleet.agent["a"]), timeout=5)
    line = s.recv(100).decode()
    s.close()
    tap.ok(re.fullmatch(r"up ready \d{1,3}%\n", line) is not None, "the agent answers 'up ready N%'",
           repr(line))
    weights = fleet.server_states()
    tap.ok(all(w[1] not in ("", "0") for w in weights.values()), "HAProxy took the agents' weights",
           str(weights))

    # ---- 0. sessions reach the daemon that holds them ----------------
    sessions = []
    for i in range(6):
        st, b = http(fleet.front, "POST", "/v1/sessions", {"language": "python"})
        sessions.append(b.get("id", "") if st == 201 else "")
    nodes = sorted({sid[4:6] for sid in sessions})
    tap.ok(all(sessions) and nodes == ["a.", "b."],
           "6 sessions made through HAProxy, on both daemons (ids name their node)", sessions)
    bad = []
    for step in range(3):
        for i, sid in enumerate(sessions):
            # Each call's code is its own (no code may run twice, below).
            code = ("n = %d" % i if step == 0 else "n += 100\nprint(n)") + "  # %d-%d" % (i, step)
            st, b = http(fleet.front, "POST", "/v1/sessions/%s/executions" % sid, {"code": code})
            want = "" if step == 0 else "%d\n" % (i + 100 * step)
            if st != 200 or b.get("stdout") != want:
                bad.append((sid[:8], step, st, b))
    tap.ok(not bad, "each session's 3 calls through HAProxy reached its daemon and saw its state", bad[:3])
    held_by_a = [sid for sid in sessions if sid.startswith("ses_a.")]

    # ---- 1. rolling restart under load --------------------------------
    load = Load(fleet.front, N_LOAD, CONCURRENCY).start()
    wbtest.wait_until(lambda: load.done() >= 30, timeout=120)
    restarted = []
    for name in ("a", "b"):
        old = fleet.daemons[name]
        old.proc.send_signal(signal.SIGTERM)
        # The agent says drain while the daemon still takes work: asked once
        # the daemon has logged the signal (within drain_delay_ms it still
        # takes executions).
        wbtest.wait_until(lambda: re.search(r"signal 15\b", old.read_log()), timeout=30, step=0.05)
        try:
            s = socket.create_connection(("127.0.0.1", fleet.agent[name]), timeout=5)
            drained = s.recv(100).decode()
            s.close()
        except OSError as e:
            drained = repr(e)
        tap.ok(drained == "drain\n", "after SIGTERM daemon %s's agent says drain" % name, repr(drained))
        try:
            code = old.proc.wait(timeout=180)
        except subprocess.TimeoutExpired:
            code = None
        old.log.close()
        tap.ok(code == 0, "daemon %s drained and exited 0" % name, old.read_log()[-1500:])
        fleet.start(name)
        up = fleet.wait_up([name])
        tap.ok(up, "daemon %s is back and HAProxy sees it up" % name, str(fleet.server_states()))
        restarted.append(load.done())
    finished = load.join()
    tap.ok(finished, "the load finished")
    ok_count = sum(1 for r in load.results if served(r))
    tap.is_eq(len(load.results), N_LOAD, "%d executions answered" % N_LOAD)
    bad = [(r[1], r[2][:200]) for r in load.results if not served(r)]
    tap.is_eq(ok_count, N_LOAD, "a rolling restart fails no request")
    if bad:
        tap.diag("failed: %s" % bad[:5])
    tap.ok(restarted and restarted[-1] < N_LOAD,
           "both restarts happened while the load ran (%s of %d done after each)" % (restarted, N_LOAD))

    # Sessions live in their daemon's memory: after its restart, 410.
    st, b = http(fleet.front, "POST", "/v1/sessions/%s/executions" % held_by_a[0], {"code": "print(n)"})
    tap.ok(st == 410 and b["error"]["code"] == "session_expired" and "restarted" in b["error"]["message"],
           "after the restarts a session answers 410 session_expired (the daemon restarted)", (st, b))

    # ---- 2. kill -9 under load ----------------------------------------
    load = Load(fleet.front, N_LOAD, CONCURRENCY).start()
    wbtest.wait_until(lambda: load.done() >= 30, timeout=120)
    victim = fleet.daemons["a"]
    killed_at = time.time()
    victim.proc.kill()
    victim.proc.wait()
    # From here the daemon is gone and its sockets closed: a connection to it
    # is refused, which HAProxy retries elsewhere.  A request a worker thread
    # began between killed_at and here (this thread can wait for the GIL
    # after taking the time) may have reached it while it was alive.
    dead_at = time.time()
    victim.log.close()
    finished = load.join()
    tap.ok(finished, "the second load finished")
    failed = [r for r in load.results if not served(r)]
    for r in failed:
        tap.diag("failed: began %+.3f s from the kill, ended %+.3f s: %s %r"
                 % (r[3] - killed_at, r[4] - killed_at, r[1], r[2][:160]))
    tap.ok(0 < len(load.results) - len(failed), "the other daemon served the rest (%d of %d)"
           % (len(load.results) - len(failed), len(load.results)))
    tap.ok(len(failed) <= CONCURRENCY,
           "only requests in flight at the kill failed (%d, at most %d)" % (len(failed), CONCURRENCY),
           str([(r[1], r[2][:120]) for r in failed][:8]))
    tap.ok(all(r[3] <= dead_at for r in failed),
           "every failed request had started before the killed daemon was gone (%.3f s after the kill)"
           % (dead_at - killed_at))
    tap.ok(all(r[1] in (502, 503) for r in failed),
           "each failure is a clear HTTP error from HAProxy (502/503)", str([r[1] for r in failed]))
    # Well before HAProxy's 150 s server timeout: the dead daemon's sockets
    # are reset by the kernel at once.
    tap.ok(all(r[4] - killed_at < 30 for r in failed), "and arrives promptly, not at a timeout",
           str([round(r[4] - killed_at, 1) for r in failed]))

    # The killed daemon's containers: its next start-up reaps them.
    dead = victim.instance
    fleet.start("a")
    tap.ok(wbtest.wait_until(lambda: not wbtest.containers_with_label("warmbox.instance=" + dead), timeout=90),
           "the killed daemon's containers are reaped when it starts again")

    # ---- nothing ran twice, nothing left ------------------------------
    # Each history keys its hashes under its own key: a code's rows are
    # counted in each with that history's keying of its SHA-256.
    seen = {}
    for db in sorted({d.db for d in fleet.incarnations}):
        kh = wbtest.history_keyer(db)
        held = {}
        for (h,) in wbtest.rows(db, "SELECT code_hmac FROM executions"):
            held[h] = held.get(h, 0) + 1
        for code in set(SENT):
            sha = hashlib.sha256(code.encode()).hexdigest()
            seen[sha] = seen.get(sha, 0) + held.get(kh(sha), 0)
    twice = [s for s, n in seen.items() if n > 1]
    tap.ok(not twice and sum(seen.values()) > 0,
           "no code ran twice (%d codes sent, %d rows found for them across %d histories)"
           % (len(seen), sum(seen.values()), len({d.db for d in fleet.incarnations})),
           str(twice[:3]))
    for name in ("a", "b"):
        tap.is_eq(fleet.daemons[name].stop(), 0, "daemon %s stops cleanly" % name)
    fleet.stop_haproxy()
    left = sum(len(wbtest.containers_with_label("warmbox.instance=" + d.instance)) for d in fleet.incarnations)
    tap.is_eq(left, 0, "no container of any daemon is left")
    return tap.done()


if __name__ == "__main__":
    sys.exit(main())
