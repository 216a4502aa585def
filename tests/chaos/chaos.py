#!/usr/bin/env python3
"""Chaos against a real engine: real faults under load, and a table of figures.

Each scenario starts its own warmboxd (its own temp dir and history file),
sends requests whose programs prove their answers (random products, a
reversed random stdin), injects one fault, and then counts:

  sent, answered 200, clear errors (4xx/5xx with a JSON error body), no
  answer where the fault explains it (kill -9 in flight, a client that
  left on purpose, a listener closed by SIGTERM), and the faults, which
  must all be 0: unclear failures (no answer or an error without a JSON
  body where nothing explains it), daemon crashes, wrong answers,
  acknowledged results without a row, rows missing for code that ran (the
  engine's own "start" events, per warmbox.instance label, against the
  rows' container ids), rows left "running" after restart/drain, and
  containers left (by the warmbox labels of the instances involved).

Scenarios: kill9 (warmboxd kill -9 and restart on the same history; on
OCI its helper killed with it), dockerd (our own second dockerd killed -9
and restarted), helper (on OCI: the engine's server killed -9, restarted
by its keeper), locked (history
held by BEGIN EXCLUSIVE), readonly (chattr +i on the WAL), diskfull (the
history on a small full tmpfs), disconnect (clients that leave in every
state), sigterm (SIGTERM with executions in flight, a burst of requests and
of /healthz probes across the signal: every connection the kernel accepted
must be answered, or else refused at connect).

    tests/chaos/chaos.py              every scenario (make chaos)
    tests/chaos/chaos.py --quick      kill9, helper (OCI), disconnect and sigterm, small loads
    tests/chaos/chaos.py --only NAME  one scenario (name or number)

Prints TAP (one line per check, the plan last) and the table; exits
non-zero when a check fails.  Talks to loopback/Unix sockets only, counts
containers by warmbox labels only, and stops only the processes it started,
by pid (the system dockerd is never touched).
"""
import argparse
import errno
import hashlib
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import quote

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))
import wbtest  # noqa: E402
from wbtest import Daemon, EngineEvents, Tap, UnixHTTPConnection, containers_with_label, docker_socket, wait_until  # noqa: E402,E501

t = Tap()
SYSTEM_ENGINE = docker_socket()
# WARMBOX_ENGINE=oci: each warmboxd runs on an OCI engine, a warmbox-oci
# of its own (its root and socket, per daemon; a daemon restarted after
# kill -9 gets the dead one's root, as on a host).
ON_OCI = wbtest.ENGINE_KIND == "oci"
POOLS = {"pools": {"python": {"min_ready": 3, "max_ready": 8},
                   "javascript": {"min_ready": 1, "max_ready": 4}}}
CRASH_MARKS = re.compile(r"AddressSanitizer|runtime error:|Assertion .* failed|SUMMARY: |Segmentation fault|"
                         r"double free|stack smashing")


# ---- the engine, by socket --------------------------------------------------

def engine_api(sock, method, path, body=None, timeout=30):
    conn = UnixHTTPConnection(sock, timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        raw = resp.read()
        try:
            return resp.status, (json.loads(raw) if raw else None)
        except ValueError:
            return resp.status, raw
    finally:
        conn.close()


def engine_alive(sock):
    try:
        return engine_api(sock, "GET", "/_ping", timeout=5)[0] == 200
    except OSError:
        return False


def labelled(sock, label, status=None):
    # (An OCI helper that has stopped: what its runtime state root holds.)
    return containers_with_label(label, status, sock=sock)


def engine_of(d):
    """The engine socket a daemon's containers are on."""
    return d.engine_sock if ON_OCI else SYSTEM_ENGINE


def Events(d, since):
    """The engine's events for d's containers since since (a time before
    d started: none of its events is missed)."""
    return EngineEvents(engine_of(d), since=int(since) - 1)


class MergedEvents:
    """Two daemons' events: on Docker one stream has both (the second
    is not opened); on OCI each daemon's helper has its own."""

    def __init__(self, *streams):
        self.streams = [e for e in streams if e is not None]

    def stop(self):
        for e in self.streams:
            e.stop()

    def starts(self, instances):
        out = {}
        for e in self.streams:
            for cid, n in e.starts(instances).items():
                out[cid] = out.get(cid, 0) + n
        return out


def oci_leftovers(root):
    """What an OCI engine's root still holds once its helper is gone:
    runtime state, bundles, cgroups (each with its processes), mounts
    under the root, processes whose root is in the image store."""
    left = []
    for sub in ("state", "state-runsc", "bundles"):
        path = os.path.join(root, sub)
        if os.path.isdir(path):
            left += ["%s/%s" % (sub, n) for n in os.listdir(path)]
    parent = "warmbox-oci-" + hashlib.sha256(root.encode()).hexdigest()[:12]
    for top in ["/sys/fs/cgroup"] + [os.path.join("/sys/fs/cgroup", c) for c in os.listdir("/sys/fs/cgroup")]:
        path = os.path.join(top, parent)
        if os.path.isdir(path):
            for n in os.listdir(path):
                cg = os.path.join(path, n)
                if os.path.isdir(cg):
                    procs = open(os.path.join(cg, "cgroup.procs")).read().split()
                    left.append("cgroup %s (%d processes)" % (cg, len(procs)))
    with open("/proc/self/mountinfo") as f:
        left += ["mount " + line.split()[4] for line in f if line.split()[4].startswith(root + "/")]
    store = "/var/lib/warmbox/oci-images/"
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.readlink("/proc/%s/root" % pid).startswith(store):
                    left.append("process %s in an image's root" % pid)
            except OSError:
                pass
    return left


# ---- requests whose programs prove their answers ----------------------------

KINDS_DEFAULT = (("py", 3), ("py_stdin", 1), ("py_sleep", 2), ("unpooled", 1), ("unpooled_sleep", 1),
                 ("js", 1), ("js_sleep", 1))


class Job:
    def __init__(self, rng, kind, sleep=(0.3, 1.5), timeout_ms=None):
        a, b = rng.getrandbits(40) | 1, rng.getrandbits(40) | 1
        secs = round(rng.uniform(*sleep), 3)
        self.kind = kind
        self.sleep = secs if "sleep" in kind else 0
        body = {}
        if kind == "py":
            lang, code, want = "python", "print(%d * %d)" % (a, b), "%d\n" % (a * b)
        elif kind == "py_stdin":
            s = "%032x" % rng.getrandbits(128)
            lang, code = "python", "import sys\nd = sys.stdin.read()\nprint(d[::-1], %d * %d)" % (a, b)
            want = "%s %d\n" % (s[::-1], a * b)
            body["stdin"] = s
        elif kind in ("py_sleep", "unpooled_sleep"):
            lang, code, want = "python", "import time\ntime.sleep(%s)\nprint(%d * %d)" % (secs, a, b), "%d\n" % (a * b)
        elif kind == "unpooled":
            lang, code, want = "python", "print(%d * %d)" % (a, b), "%d\n" % (a * b)
        elif kind == "js":
            lang, code, want = "javascript", "console.log(String(%dn * %dn))" % (a, b), "%d\n" % (a * b)
        elif kind == "js_sleep":
            lang = "javascript"
            code = "setTimeout(() => console.log(String(%dn * %dn)), %d)" % (a, b, int(secs * 1000))
            want = "%d\n" % (a * b)
        else:
            raise ValueError(kind)
        if kind.startswith("unpooled"):
            body["memory_mb"] = 300  # not the default: a container of its own
        if timeout_ms:
            body["timeout_ms"] = timeout_ms
        body.update(language=lang, code=code)
        self.body = body
        self.want = want
        self.timeout_ms = timeout_ms or 10000
        self.code_sha = hashlib.sha256(code.encode()).hexdigest()


class Outcome:
    """One request: what was sent, when, and what came back (or why not).
    err: None, "connect" (refused / no socket), "timeout" (our own client
    timeout), "dropped" (reset or closed without an answer)."""

    def __init__(self, job, tag=""):
        self.job = job
        self.tag = tag
        self.t0 = self.t1 = 0.0
        self.status = None
        self.body = None
        self.raw = b""
        self.err = None
        self.errtxt = ""


def send(sock, job, client_timeout=120, tag=""):
    o = Outcome(job, tag)
    o.t0 = time.time()
    conn = UnixHTTPConnection(sock, timeout=client_timeout)
    try:
        try:
            conn.connect()
        except OSError as e:
            o.err, o.errtxt = "connect", repr(e)
            return o
        try:
            conn.request("POST", "/v1/executions", body=json.dumps(job.body).encode(),
                         headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            o.raw = resp.read()
            o.status = resp.status
        except (socket.timeout, TimeoutError) as e:
            o.err, o.errtxt = "timeout", repr(e)
            return o
        except (OSError, http.client.HTTPException) as e:
            o.err, o.errtxt = "dropped", repr(e)
            return o
        try:
            o.body = json.loads(o.raw)
        except ValueError:
            o.body = None
        return o
    finally:
        o.t1 = time.time()
        conn.close()


class Load:
    """Closed loop: `workers` threads, each sending one request after
    another to target() until stop().  Open loop (interval): a new request
    every `interval` seconds whatever happens to the others, at most
    `workers` in flight, so that arrivals continue while a fault holds the
    requests in flight."""

    def __init__(self, target, workers, rng, kinds=KINDS_DEFAULT, sleep=(0.3, 1.5), short_timeout=None,
                 tag="load", interval=None):
        self.target = target
        self.rng = rng
        self.lock = threading.Lock()
        self.kinds = [k for k, w in kinds for _ in range(w)]
        self.sleep = sleep
        self.short_timeout = short_timeout
        self.tag = tag
        self.outcomes = []
        self.stopping = threading.Event()
        self.slots = threading.BoundedSemaphore(workers)
        self.interval = interval
        if interval:
            self.threads = [threading.Thread(target=self._dispatch, daemon=True)]
        else:
            self.threads = [threading.Thread(target=self._worker, daemon=True) for _ in range(workers)]
        self.spawned = []
        for th in self.threads:
            th.start()

    def _one(self):
        try:
            o = send(self.target(), self.job(), tag=self.tag)
            with self.lock:
                self.outcomes.append(o)
        finally:
            self.slots.release()

    def _dispatch(self):
        while not self.stopping.is_set():
            if self.slots.acquire(timeout=0.5):
                th = threading.Thread(target=self._one, daemon=True)
                th.start()
                self.spawned.append(th)
                self.stopping.wait(self.interval * self.rng.uniform(0.5, 1.5))

    def job(self):
        with self.lock:
            kind = self.rng.choice(self.kinds)
            # Some quick programs with a short request deadline: while rows
            # cannot be written they are refused (503) instead of waiting.
            tmo = self.short_timeout if (self.short_timeout and "sleep" not in kind
                                         and self.rng.random() < 0.5) else None
            return Job(self.rng, kind, self.sleep, tmo)

    def _worker(self):
        while not self.stopping.is_set():
            o = send(self.target(), self.job(), tag=self.tag)
            with self.lock:
                self.outcomes.append(o)
            if o.err == "connect" or (o.status and o.status != 200):
                time.sleep(0.25)  # a client backs off a little after a refusal

    def stop(self):
        self.stopping.set()
        for th in self.threads + self.spawned:
            th.join(timeout=180)
        return self.outcomes

    def ok_since(self, since=0.0):
        """Right answers so far to requests sent at or after since."""
        with self.lock:
            done = list(self.outcomes)
        return sum(1 for o in done if o.t0 >= since and judge(o) == "ok")

    def answered(self, n, since=0.0, timeout=120):
        """Until n requests sent at or after since were answered right (the
        load is under way): True, or False at the timeout."""
        return wait_until(lambda: self.ok_since(since) >= n, timeout=timeout, step=0.1)


# ---- judging ---------------------------------------------------------------

def clear_error(o):
    b = o.body
    return (o.status is not None and 400 <= o.status < 600 and isinstance(b, dict)
            and isinstance(b.get("error"), dict) and isinstance(b["error"].get("code"), str)
            and isinstance(b["error"].get("message"), str) and b["error"]["message"] != "")


def judge(o, allow_200=()):
    """ok | fail200 (an acceptable 200 that is not ok: allowed statuses, or
    a timeout after the request's own deadline) | wrong | clear | unclear |
    noanswer"""
    if o.err:
        return "noanswer"
    if o.status == 200:
        r = o.body if isinstance(o.body, dict) else {}
        st = r.get("status")
        if st == "ok":
            return "ok" if r.get("stdout") == o.job.want and r.get("exit_code") == 0 else "wrong"
        if st in allow_200:
            return "fail200"
        if st == "timeout" and o.t1 - o.t0 >= o.job.timeout_ms / 1000.0 - 0.05:
            return "fail200"
        return "wrong"
    return "clear" if clear_error(o) else "unclear"


def brief(o):
    b = o.body if isinstance(o.body, dict) else o.raw[:200]
    if isinstance(b, dict) and b.get("status"):
        b = {k: b.get(k) for k in ("id", "status", "exit_code", "stdout", "stderr", "error")}
    return "%s %s +%.2fs %s %s%s" % (o.tag, o.job.kind, o.t1 - o.t0, o.status, o.err or "", b if o.status else
                                    " " + o.errtxt)


def db_rows(db):
    """The history's rows; "code_hmac" is the code's SHA-256 keyed under
    the history's key (what rows_keyer gives for a job's code_sha)."""
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=30)
    try:
        c.row_factory = sqlite3.Row
        rows = [dict(r) for r in c.execute("SELECT id, status, container_id, started_at, code_hmac, daemon, "
                                           "error FROM executions")]
    finally:
        c.close()
    for r in rows:
        r["_db"] = db
    return rows


def rows_keyer(rows):
    """How rows' history keys a plain SHA-256 (identity when there are none)."""
    return wbtest.history_keyer(rows[0]["_db"]) if rows else (lambda sha: sha)


class Figures:
    COLS = ("sent", "answered 200", "clear errors", "no answer (explained)", "unclear failures",
            "daemon crashes", "wrong answers", "acked without row", "ran without row",
            "rows left running", "containers left", "seconds")
    FAULTS = ("unclear failures", "daemon crashes", "wrong answers", "acked without row", "ran without row",
              "rows left running", "containers left")

    def __init__(self, name):
        self.name = name
        self.v = {c: 0 for c in self.COLS}
        self.t0 = time.time()
        self.notes = []
        self.skipped = None

    def finish(self):
        self.v["seconds"] = round(time.time() - self.t0, 1)


def count_answers(fig, outcomes, explained=lambda o: False, allow_200=()):
    """Counts answers into fig; returns the lists of bad ones."""
    bad = {"wrong": [], "unclear": []}
    statuses = {}
    for o in outcomes:
        j = judge(o, allow_200)
        fig.v["sent"] += 1
        if o.status == 200:
            fig.v["answered 200"] += 1
            st = (o.body or {}).get("status") if isinstance(o.body, dict) else None
            statuses[st] = statuses.get(st, 0) + 1
        if j == "wrong":
            bad["wrong"].append(o)
        elif j == "clear":
            fig.v["clear errors"] += 1
            code = o.body["error"]["code"]
            statuses["%d %s" % (o.status, code)] = statuses.get("%d %s" % (o.status, code), 0) + 1
        elif j == "unclear":
            bad["unclear"].append(o)
        elif j == "noanswer":
            if explained(o):
                fig.v["no answer (explained)"] += 1
            else:
                bad["unclear"].append(o)
            statuses["no answer: " + o.err] = statuses.get("no answer: " + o.err, 0) + 1
    fig.v["wrong answers"] += len(bad["wrong"])
    fig.v["unclear failures"] += len(bad["unclear"])
    t.diag("%s: answers %s" % (fig.name, json.dumps(statuses, sort_keys=True)))
    t.ok(not bad["wrong"], "%s: no wrong answers" % fig.name, "\n".join(brief(o) for o in bad["wrong"][:8]))
    t.ok(not bad["unclear"], "%s: every failure is a clear JSON error or explained by the fault" % fig.name,
         "\n".join(brief(o) for o in bad["unclear"][:8]))
    return bad


def count_rows(fig, rows, outcomes, starts):
    """Rows against answers and against the engine's start events."""
    by_id = {r["id"]: r for r in rows}
    acked = [o for o in outcomes if o.status == 200 and isinstance(o.body, dict) and o.body.get("id")]
    missing = []
    for o in acked:
        r = by_id.get(o.body["id"])
        if r is None or r["status"] != o.body.get("status"):
            missing.append("%s answered %s, row %s" % (o.body["id"], o.body.get("status"),
                                                       r["status"] if r else "absent"))
    fig.v["acked without row"] += len(missing)
    t.ok(not missing, "%s: every acknowledged result (%d) has its finished row" % (fig.name, len(acked)),
         "\n".join(missing[:8]))

    running = [r["id"] for r in rows if r["status"] == "running"]
    fig.v["rows left running"] += len(running)
    t.ok(not running, "%s: no row left running (%d rows)" % (fig.name, len(rows)), running[:8])

    # Code that ran: every container the engine started has a row naming it,
    # or is one of the interrupted rows written ahead before a container was
    # known (a miss on the pool).  A row that says the code never ran
    # (refused, or cancelled with no start) while its container started is
    # as bad as no row.
    cids = {r["container_id"]: r for r in rows if r["container_id"]}
    unmatched = [c for c in starts if c not in cids]
    spare = [r for r in rows if r["status"] == "interrupted" and (not r["container_id"]
                                                                  or r["container_id"] not in starts)]
    denies = [r for r in rows if r["container_id"] in starts and not r["started_at"]
              and r["status"] in ("refused", "cancelled")]
    lost = max(0, len(unmatched) - len(spare)) + len(denies)
    fig.v["ran without row"] += lost
    t.ok(lost == 0, "%s: every container the engine started (%d) has a row that says it may have run"
         % (fig.name, len(starts)),
         "started, no row: %s\nrows denying a start: %s" % ([c[:12] for c in unmatched][:8],
                                                           [(r["id"], r["status"]) for r in denies][:8]))
    twice = {c[:12]: n for c, n in starts.items() if n > 1}
    t.ok(not twice, "%s: no container was started twice" % fig.name, twice)
    by_code = {}
    kh = rows_keyer(rows)
    for r in rows:
        by_code[r["code_hmac"]] = by_code.get(r["code_hmac"], 0) + 1
    dup = [o.job.code_sha[:12] for o in outcomes if by_code.get(kh(o.job.code_sha), 0) > 1]
    t.ok(not dup, "%s: no request has two rows (nothing ran twice)" % fig.name, dup)
    hist = {}
    for r in rows:
        hist[r["status"]] = hist.get(r["status"], 0) + 1
    fig.notes.append("rows: " + ", ".join("%s %d" % kv for kv in sorted(hist.items())))
    if unmatched:
        fig.notes.append("%d started containers matched interrupted rows without a container id"
                         % min(len(unmatched), len(spare)))


def check_daemon_end(fig, d, name, rc=None, killed=False):
    """A daemon we did not kill must not have exited by itself, must exit 0
    on SIGTERM, and its log must show no sanitizer report or abort."""
    crashed = []
    if not killed:
        if rc is None:
            if d.proc.poll() is not None:
                crashed.append("exited by itself with %s" % d.proc.returncode)
            rc = d.stop(timeout=90)
        if rc != 0 and not crashed:
            crashed.append("exit status %s after SIGTERM" % rc)
    log = d.read_log()
    m = CRASH_MARKS.search(log)
    if m:
        crashed.append("log: " + log[max(0, m.start() - 200):m.start() + 300])
    fig.v["daemon crashes"] += 1 if crashed else 0
    t.ok(not crashed, "%s: %s did not crash%s" % (fig.name, name, "" if killed else " and exited 0"),
         "\n".join(crashed) + "\n" + log[-1500:] if crashed else None)
    return rc


def count_containers(fig, sock, instances, what="after the end", oci_root=None):
    left = []
    for inst in instances:
        left += labelled(sock, "warmbox.instance=" + inst)
    fig.v["containers left"] += len(left)
    t.ok(not left, "%s: no container labelled with %s left %s" % (fig.name, "/".join(i[:8] for i in instances),
                                                                   what), [c[:12] for c in left])
    if ON_OCI and oci_root:
        # The helper is gone (its daemon stopped): nothing of it may stay.
        left = oci_leftovers(oci_root)
        fig.v["containers left"] += len(left)
        t.ok(not left, "%s: the OCI root %s holds nothing %s: no runtime state, bundle, cgroup, mount or process"
             % (fig.name, oci_root, what), left[:12])


KEEP = []  # the dirs (logs, history files) of the scenario in progress


def cleanup_dirs(*dirs):
    """Deleted at the end of the scenario, unless one of its checks failed:
    then they stay, as evidence."""
    KEEP.extend(dirs)


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f)
    return path


def containers_by_kind(sock, instance):
    """{"pooled created": n, "unpooled running": n, ...} of one instance: an
    unpooled container's pool key ends in /m<memory>."""
    st, body = engine_api(sock, "GET", "/containers/json?all=1&filters="
                          + quote(json.dumps({"label": ["warmbox.instance=" + instance]})))
    out = {}
    for c in body or []:
        pooled = "unpooled" if re.search(r"/m\d+$", c["Labels"].get("warmbox.pool", "")) else "pooled"
        key = "%s %s" % (pooled, c["State"])
        out[key] = out.get(key, 0) + 1
    return out


def pools_full(d):
    """d's pools hold what POOLS asks of them (min_ready) and create none."""
    return all(wbtest.pool_full(d, lang, p["min_ready"]) for lang, p in POOLS["pools"].items())


def engines_down(d):
    """d says none of its engines is up (GET /v1/engines)."""
    st, body = d.request("GET", "/v1/engines")
    return st == 200 and bool(body.get("engines")) and all(e["state"] != "up" for e in body["engines"])


def finished_codes(db):
    """The keyed code hashes of the history's finished rows."""
    return {r["code_hmac"] for r in db_rows(db) if r["status"] != "running"}


class Pinned:
    """A few long programs (pooled python, unpooled python, javascript) held
    running, so that a fault surely lands on every kind mid-run."""

    def __init__(self, target, rng, secs=3.0):
        self.outcomes = []
        self.threads = []
        for kind in ("py_sleep", "unpooled_sleep", "js_sleep"):
            job = Job(rng, kind, sleep=(secs, secs))
            th = threading.Thread(target=lambda j=job: self.outcomes.append(send(target, j, tag="pinned")),
                                  daemon=True)
            th.start()
            self.threads.append(th)

    def wait_running(self, sock, instance, timeout=10):
        return wait_until(lambda: containers_by_kind(sock, instance).get("unpooled running", 0) >= 1
                          and sum(v for k, v in containers_by_kind(sock, instance).items()
                                  if k.endswith("running")) >= 3, timeout=timeout, step=0.1)

    def join(self):
        for th in self.threads:
            th.join(timeout=180)
        return self.outcomes


# ---- 1. warmboxd kill -9 under load, restart on the same history --------------

def s_kill9(quick, rng):
    fig = Figures("kill9")
    work = tempfile.mkdtemp(prefix="wbchaos-kill9-")
    cfg = write_json(os.path.join(work, "pools.json"), POOLS)
    t0 = time.time()
    a = Daemon(extra_args=["--config", cfg])
    ev_a = Events(a, t0)
    db = a.db
    target = {"sock": a.sock}
    load = Load(lambda: target["sock"], 5 if quick else 8, rng, sleep=(0.3, 1.5))
    t.ok(load.answered(5 if quick else 16), "kill9: the load is answered before the kill")
    pinned = Pinned(a.sock, rng)
    pinned.wait_running(engine_of(a), a.instance)
    at_kill = containers_by_kind(engine_of(a), a.instance)
    t_kill = time.time()
    helpers = [p for p in (a.helper_pid(), a.oci_server_pid()) if p] if ON_OCI else []
    a.proc.send_signal(signal.SIGKILL)
    for pid in helpers:
        # The whole service killed at once (a service manager's kill -9 of
        # its group, the OOM killer): the helper's keeper and server
        # cannot clean up either; what they held is the next one's to reap.
        os.kill(pid, signal.SIGKILL)
    a.proc.wait()
    a.log.close()
    check_daemon_end(fig, a, "the killed daemon (log)", killed=True)
    running_before = {r["id"] for r in db_rows(db) if r["status"] == "running"}
    t.diag("kill9: killed %s with containers %s; %d rows running" % (a.instance[:8], json.dumps(at_kill, sort_keys=True),
                                                                     len(running_before)))
    fig.notes.append("at the kill: containers %s" % json.dumps(at_kill, sort_keys=True))
    time.sleep(0.5)
    t_b = time.time()
    b = Daemon(extra_args=["--config", cfg, "--store-path", db])
    # The load goes to the new daemon before "up" counts: a connect to the
    # dead one's socket after t_up would be a refusal nothing explains.
    target["sock"] = b.sock
    t_up = time.time()
    if ON_OCI:
        t.is_eq(b.oci_root, a.oci_root, "kill9: the restarted daemon's helper has the dead one's root")
    ev = MergedEvents(ev_a, Events(b, t_b) if ON_OCI else None)
    after = {r["id"]: r["status"] for r in db_rows(db)}
    not_marked = [i for i in running_before if after.get(i) != "interrupted"]
    t.ok(not not_marked, "kill9: the %d rows left running are interrupted after the restart" % len(running_before),
         [(i, after.get(i)) for i in not_marked][:8])
    t.ok(load.answered(5 if quick else 16, since=t_up), "kill9: the load is answered after the restart")
    outcomes = load.stop() + pinned.join()
    t.ok(wait_until(lambda: labelled(engine_of(b), "warmbox.instance=" + a.instance) == [], timeout=30),
         "kill9: the restarted daemon reaped the killed one's containers (pooled and unpooled)",
         labelled(engine_of(b), "warmbox.instance=" + a.instance))
    # Settled before its SIGTERM: its pools are full again.
    t.ok(wait_until(lambda: pools_full(b), timeout=120), "kill9: the restarted daemon's pools fill again",
         wbtest.pools(b))
    check_daemon_end(fig, b, "the restarted daemon")
    ev.stop()

    def explained(o):
        # In flight when the daemon died, or sent while it was down.
        return (o.err == "dropped" and o.t0 <= t_kill + 0.2 and o.t1 >= t_kill - 0.2) or \
               (o.err == "connect" and t_kill - 0.2 <= o.t0 <= t_up)

    count_answers(fig, outcomes, explained)
    ok_before = [o for o in outcomes if o.status == 200 and o.t1 < t_kill]
    ok_after = [o for o in outcomes if o.status == 200 and o.t0 > t_up]
    t.ok(ok_before and ok_after, "kill9: results before the kill (%d) and after the restart (%d)"
         % (len(ok_before), len(ok_after)))
    rows = db_rows(db)
    count_rows(fig, rows, outcomes, ev.starts({a.instance, b.instance}))
    # The requests the kill cut off: at most one row each (interrupted, or
    # finished if its row committed just before the kill; none if the kill
    # came before its row ahead was on disk, and then nothing of it ran:
    # the engine's starts are checked against the rows below); refused
    # connects: none.
    by_code = {}
    kh = rows_keyer(rows)
    for r in rows:
        by_code.setdefault(r["code_hmac"], []).append(r["status"])
    cut = [o for o in outcomes if o.err == "dropped"]
    odd = ["%s: rows %s" % (brief(o), by_code.get(kh(o.job.code_sha))) for o in cut
           if len(by_code.get(kh(o.job.code_sha), [])) > 1]
    odd += ["%s: rows %s" % (brief(o), by_code.get(kh(o.job.code_sha))) for o in outcomes
            if o.err == "connect" and by_code.get(kh(o.job.code_sha))]
    cut_rows = {}
    for o in cut:
        for st in by_code.get(kh(o.job.code_sha), ["no row"]):
            cut_rows[st] = cut_rows.get(st, 0) + 1
    t.ok(not odd, "kill9: each of the %d requests cut off by the kill has at most one row (%s), each refused "
         "connect none" % (len(cut), json.dumps(cut_rows, sort_keys=True)), "\n".join(odd[:8]))
    count_containers(fig, engine_of(b), [a.instance, b.instance], "after the restarted daemon stopped",
                     oci_root=b.oci_root)
    n_int = sum(1 for r in rows if r["status"] == "interrupted")
    fig.notes.append("%d rows interrupted" % n_int)
    cleanup_dirs(work, a.dir, b.dir)
    return fig


# ---- 2. dockerd kill -9 under load, restarted -----------------------------------

class OwnDockerd:
    """A second dockerd of our own, beside the system one (which we never
    touch): its own data root, exec root, pidfile, socket and config."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="wbc-", dir="/tmp")  # short: containerd's socket lives under it
        self.sock = os.path.join(self.root, "d.sock")
        self.data = os.path.join(self.root, "data")
        self.exec_root = os.path.join(self.root, "x")
        self.pidfile = os.path.join(self.root, "d.pid")
        self.cfg = write_json(os.path.join(self.root, "daemon.json"), {})
        self.log_path = os.path.join(self.root, "dockerd.log")
        self.proc = None
        self.containerd_pids = set()
        self.strays = 0

    def start(self, timeout=90):
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            ["dockerd", "--data-root", self.data, "--exec-root", self.exec_root, "--pidfile", self.pidfile,
             "-H", "unix://" + self.sock, "--config-file", self.cfg, "--bridge=none", "--iptables=false"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        ok = wait_until(lambda: self.proc.poll() is None and engine_alive(self.sock), timeout=timeout, step=0.3)
        self._note_containerd()
        return ok

    def _note_containerd(self):
        try:
            with open(os.path.join(self.exec_root, "containerd", "containerd.pid")) as f:
                self.containerd_pids.add(int(f.read().strip()))
        except (OSError, ValueError):
            pass

    def kill9(self):
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def load_images(self, images):
        save = subprocess.Popen(["docker", "save"] + images, stdout=subprocess.PIPE)
        load = subprocess.run(["docker", "-H", "unix://" + self.sock, "load"], stdin=save.stdout,
                              capture_output=True, timeout=600)
        save.stdout.close()
        save.wait()
        return save.returncode == 0 and load.returncode == 0, load.stderr.decode(errors="replace")

    def log(self):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def stop(self):
        """Everything on this engine is ours: remove it, stop dockerd and
        its containerd (by their pids), unmount what is left, delete."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                for cid in labelled(self.sock, "warmbox.instance"):
                    engine_api(self.sock, "DELETE", "/containers/%s?force=1" % cid)
            except (OSError, RuntimeError):
                pass
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=45)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._note_containerd()
        for pid in self.containerd_pids:
            if self._alive_ours(pid):
                os.kill(pid, signal.SIGTERM)
                if not wait_until(lambda: not self._alive_ours(pid), timeout=15):
                    os.kill(pid, signal.SIGKILL)
        # After a kill -9 of dockerd, shims of the containers that were
        # running can outlive their containerd: they name our exec root.
        self.strays = len(self._ours())
        for pid in self._ours():
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass
        if not wait_until(lambda: not self._ours(), timeout=10):
            for pid in self._ours():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        with open("/proc/mounts") as f:
            mounts = [line.split()[1] for line in f if line.split()[1].startswith(self.root + "/")]
        for m in sorted(mounts, key=len, reverse=True):
            subprocess.run(["umount", "-l", m], capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)

    def _ours(self):
        """Pids of processes started under our dockerd (containerd, shims):
        their command lines name our exec root, which nothing else uses."""
        out = []
        for name in os.listdir("/proc"):
            if name.isdigit() and int(name) != os.getpid() and self._alive_ours(int(name)):
                out.append(int(name))
        return out

    def _alive_ours(self, pid):
        """pid is a process whose command line names our exec root."""
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                return self.exec_root.encode() in f.read()
        except OSError:
            return False


def s_dockerd(quick, rng):
    fig = Figures("dockerd")
    if not shutil.which("dockerd"):
        fig.skipped = "dockerd is not installed"
        t.ok(True, "# SKIP dockerd: %s" % fig.skipped)
        return fig
    eng = OwnDockerd()
    d = None
    try:
        if not eng.start():
            t.ok(False, "dockerd: our own dockerd answers", eng.log()[-2000:])
            fig.skipped = "our dockerd did not start"
            return fig
        t.ok(True, "dockerd: our own dockerd answers on %s" % eng.sock)
        t0 = time.time()
        ok, err = eng.load_images(["warmbox/python:latest", "warmbox/javascript:latest"])
        t.ok(ok, "dockerd: images loaded into it (%.1f s)" % (time.time() - t0), err)
        fig.t0 = time.time()  # the image transfer is set-up, not the scenario
        if not ok:
            return fig
        work = tempfile.mkdtemp(prefix="wbchaos-dockerd-")
        cfg = write_json(os.path.join(work, "pools.json"), POOLS)
        ev1 = EngineEvents(eng.sock)
        d = Daemon(extra_args=["--config", cfg], engine="unix://" + eng.sock, wait_ready=True)
        load = Load(lambda: d.sock, 6, rng, sleep=(0.5, 2.0))
        t.ok(load.answered(12), "dockerd: the load is answered before the kill")
        pinned = Pinned(d.sock, rng)
        pinned.wait_running(eng.sock, d.instance)
        at_kill = containers_by_kind(eng.sock, d.instance)
        t_kill = time.time()
        eng.kill9()
        ev1.join(timeout=5)
        t.diag("dockerd: killed dockerd %d with containers %s" % (eng.proc.pid, json.dumps(at_kill, sort_keys=True)))
        fig.notes.append("at the kill: containers %s" % json.dumps(at_kill, sort_keys=True))
        # The engine stays dead until warmboxd has taken it out.
        t.ok(wait_until(lambda: engines_down(d), timeout=60), "dockerd: warmboxd takes the dead engine out",
             d.request("GET", "/v1/engines")[1])
        t_restart = time.time()
        up = eng.start()
        t.ok(up, "dockerd: restarted on the same data root and answers (%.1f s)" % (time.time() - t_restart),
             eng.log()[-2000:])
        ev2 = EngineEvents(eng.sock, since=int(t_restart) - 1)

        def serves():
            return any(o.status == 200 and o.t0 > time.time() - 3 and (o.body or {}).get("status") == "ok"
                       for o in list(load.outcomes))
        back = wait_until(serves, timeout=60, step=0.5)
        t.ok(back, "dockerd: warmboxd serves again by itself (%.1f s after the restart)" % (time.time() - t_restart))
        fig.notes.append("engine down %.1f s; warmboxd served again %.1f s after the engine answered"
                         % (t_restart - t_kill, time.time() - t_restart))
        time.sleep(4)
        outcomes = load.stop() + pinned.join()
        alive = d.proc.poll() is None
        t.ok(alive, "dockerd: warmboxd kept running through the engine's death")
        check_daemon_end(fig, d, "warmboxd")
        ev2.stop()
        count_answers(fig, outcomes, allow_200=("engine_lost",))
        lost = [o for o in outcomes if isinstance(o.body, dict) and o.body.get("status") == "engine_lost"]
        t.ok(all(o.t0 < t_kill + 1 and o.body.get("error") for o in lost),
             "dockerd: engine_lost results (%d) come from executions in flight at the kill, with a sentence"
             % len(lost), [brief(o) for o in lost if o.t0 >= t_kill + 1][:5])
        starts = ev1.starts({d.instance})
        for c, n in ev2.starts({d.instance}).items():
            starts[c] = starts.get(c, 0) + n
        count_rows(fig, db_rows(d.db), outcomes, starts)
        left = labelled(eng.sock, "warmbox.instance")
        fig.v["containers left"] += len(left)
        t.ok(not left, "dockerd: no warmbox-labelled container left on that engine after warmboxd stopped",
             [c[:12] for c in left])
        if left:
            st, info = engine_api(eng.sock, "GET", "/containers/json?all=1&filters="
                                  + quote(json.dumps({"label": ["warmbox.instance"]})))
            t.diag("left: %s" % [(c["Id"][:12], c["State"], c["Status"], c["Labels"].get("warmbox.pool", "")[:20])
                                 for c in (info or [])][:10])
        cleanup_dirs(work, d.dir)
        return fig
    finally:
        if d is not None and d.proc.poll() is None:
            d.stop()
        eng.stop()
        fig.notes.append("own dockerd stopped and removed%s" % (
            " (%d of its processes outlived it and were killed by pid)" % eng.strays if eng.strays else ""))


def s_helper(quick, rng):
    """The OCI engine's server killed -9 under load: its keeper starts a
    new one, which deletes what the dead one left, and warmboxd serves
    again by itself (the OCI engine's counterpart of the dockerd kill)."""
    fig = Figures("helper")
    if not ON_OCI:
        fig.skipped = "an OCI engine's (WARMBOX_ENGINE=oci)"
        t.ok(True, "# SKIP helper: %s" % fig.skipped)
        return fig
    work = tempfile.mkdtemp(prefix="wbchaos-helper-")
    cfg = write_json(os.path.join(work, "pools.json"), POOLS)
    t0 = time.time()
    d = Daemon(extra_args=["--config", cfg])
    try:
        ev1 = Events(d, t0)
        load = Load(lambda: d.sock, 4 if quick else 6, rng, sleep=(0.5, 2.0))
        t.ok(load.answered(4 if quick else 12), "helper: the load is answered before the kill")
        pinned = Pinned(d.sock, rng)
        pinned.wait_running(engine_of(d), d.instance)
        at_kill = containers_by_kind(engine_of(d), d.instance)
        server = d.oci_server_pid()
        t_kill = time.time()
        os.kill(server, signal.SIGKILL)
        ev1.join(timeout=5)
        fig.notes.append("at the kill of the server (pid %d): containers %s" % (server, json.dumps(at_kill, sort_keys=True)))
        up = wait_until(lambda: d.oci_server_pid() not in (None, server) and engine_alive(d.engine_sock),
                        timeout=150, step=0.2)
        t_up = time.time()
        t.ok(up, "helper: the keeper started a new server, which answers (%.1f s after the kill)" % (t_up - t_kill),
             d.read_log()[-2000:])
        ev2 = Events(d, t_kill)

        def serves():
            return any(o.status == 200 and o.t0 > time.time() - 3 and (o.body or {}).get("status") == "ok"
                       for o in list(load.outcomes))
        back = wait_until(serves, timeout=60, step=0.5)
        t.ok(back, "helper: warmboxd serves again by itself (%.1f s after the new server answered)"
             % (time.time() - t_up))
        fig.notes.append("engine down %.1f s; warmboxd served again %.1f s after" % (t_up - t_kill, time.time() - t_up))
        time.sleep(3)
        outcomes = load.stop() + pinned.join()
        t.ok(d.proc.poll() is None, "helper: warmboxd kept running through its engine's death")
        check_daemon_end(fig, d, "warmboxd")
        ev2.stop()
        count_answers(fig, outcomes, allow_200=("engine_lost",))
        lost = [o for o in outcomes if isinstance(o.body, dict) and o.body.get("status") == "engine_lost"]
        t.ok(all(o.t0 < t_kill + 1 and o.body.get("error") for o in lost),
             "helper: engine_lost results (%d) come from executions in flight at the kill, with a sentence"
             % len(lost), [brief(o) for o in lost if o.t0 >= t_kill + 1][:5])
        count_rows(fig, db_rows(d.db), outcomes, MergedEvents(ev1, ev2).starts({d.instance}))
        count_containers(fig, engine_of(d), [d.instance], "after warmboxd stopped", oci_root=d.oci_root)
        cleanup_dirs(work, d.dir)
        return fig
    finally:
        if d.proc.poll() is None:
            d.stop()


# ---- 3/4/5. the history file unwritable under load -----------------------------

def history_fault(name, quick, rng, make_fault, extra_args=(), db_path=None):
    """Load; make_fault() -> undo callable; hold it ~5 s under load; undo;
    load again; recovery and rows."""
    fig = Figures(name)
    work = tempfile.mkdtemp(prefix="wbchaos-%s-" % name)
    cfg = write_json(os.path.join(work, "pools.json"), POOLS)
    args = ["--config", cfg] + (["--store-path", db_path] if db_path else []) + list(extra_args)
    t0 = time.time()
    d = Daemon(extra_args=args)
    ev = Events(d, t0)
    db = db_path or d.db
    for i in range(3):  # the WAL exists, the pools are warm
        d.run("python", "print(%d)  # warm-up %s" % (i, os.urandom(8).hex()))
    load = Load(lambda: d.sock, 32, rng, sleep=(0.2, 1.0), short_timeout=2500, interval=0.2)
    t.ok(load.answered(5), "%s: the load is answered before the fault" % name)
    log_before = len(d.read_log())
    t_fault = time.time()
    undo = make_fault(d, db)
    if undo is None:
        load.stop()
        d.stop()
        ev.stop()
        cleanup_dirs(work, d.dir)
        return None
    try:
        time.sleep(5)
    finally:
        undo()
    t_undo = time.time()
    failing_logged = "cannot write" in d.read_log()[log_before:]
    time.sleep(3)
    outcomes = load.stop()
    during = [o for o in outcomes if o.t1 > t_fault and o.t0 < t_undo]
    job = Job(rng, "py")
    after = send(d.sock, job)
    t.ok(after.status == 200 and judge(after) == "ok", "%s: a new execution runs after recovery" % name,
         brief(after))
    outcomes.append(after)
    t.ok(d.proc.poll() is None, "%s: the daemon kept running" % name)
    errors = [o for o in outcomes if o.status is not None and o.status != 200]
    t.ok(all(o.status == 503 and clear_error(o) for o in errors),
         "%s: every error (%d) is a clear 503" % (name, len(errors)), [brief(o) for o in errors
                                                                       if o.status != 503][:5])
    check_daemon_end(fig, d, "warmboxd")
    ev.stop()
    count_answers(fig, outcomes)
    rows = db_rows(db)
    count_rows(fig, rows, outcomes, ev.starts({d.instance}))
    count_containers(fig, engine_of(d), [d.instance], oci_root=d.oci_root)
    ok_during = sum(1 for o in during if o.status == 200)
    err_during = sum(1 for o in during if o.status and o.status != 200)
    fig.notes.append("during the fault: %d answered 200, %d errors; log says 'cannot write': %s; "
                     "refused rows: %d" % (ok_during, err_during, "yes" if failing_logged else "no",
                                           sum(1 for r in rows if r["status"] == "refused")))
    cleanup_dirs(work, d.dir)
    return fig


def s_locked(quick, rng):
    holder = {}

    def fault(d, db):
        c = sqlite3.connect(db, timeout=30, isolation_level=None)
        c.execute("BEGIN EXCLUSIVE")
        holder["c"] = c

        def undo():
            holder["c"].execute("COMMIT")
            holder["c"].close()
        return undo
    return history_fault("locked", quick, rng, fault)


def s_readonly(quick, rng):
    def fault(d, db):
        wal = db + "-wal"
        p = subprocess.run(["chattr", "+i", wal], capture_output=True)
        if p.returncode != 0:
            return None
        return lambda: subprocess.run(["chattr", "-i", wal], check=True)
    fig = history_fault("readonly", quick, rng, fault)
    if fig is None:
        fig = Figures("readonly")
        fig.skipped = "chattr +i failed on the WAL"
        t.ok(True, "# SKIP readonly: %s" % fig.skipped)
    return fig


def s_diskfull(quick, rng):
    mnt = tempfile.mkdtemp(prefix="wbchaos-tmpfs-")
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mnt], capture_output=True)
    if p.returncode != 0:
        os.rmdir(mnt)
        fig = Figures("diskfull")
        fig.skipped = "cannot mount a tmpfs: %s" % p.stderr.decode(errors="replace").strip()
        t.ok(True, "# SKIP diskfull: %s" % fig.skipped)
        return fig
    filler = os.path.join(mnt, "filler")

    def fault(d, db):
        n = 0
        with open(filler, "wb", buffering=0) as f:
            for chunk in (1 << 20, 1 << 16, 4096, 512):
                while True:
                    try:
                        n += f.write(b"\0" * chunk)
                    except OSError as e:
                        if e.errno != errno.ENOSPC:
                            raise
                        break
        st = os.statvfs(mnt)
        t.diag("diskfull: filler of %d bytes; %d bytes free" % (n, st.f_bavail * st.f_frsize))
        return lambda: os.unlink(filler)

    try:
        return history_fault("diskfull", quick, rng, fault, db_path=os.path.join(mnt, "history.db"))
    finally:
        if os.path.exists(filler):
            os.unlink(filler)
        if subprocess.run(["umount", mnt], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", mnt], capture_output=True)
        try:
            os.rmdir(mnt)
        except OSError:
            pass


# ---- 6. clients that leave in each state ------------------------------------------

def s_disconnect(quick, rng):
    fig = Figures("disconnect")
    work = tempfile.mkdtemp(prefix="wbchaos-disc-")
    cfg = write_json(os.path.join(work, "pools.json"), POOLS)
    t0 = time.time()
    d = Daemon(extra_args=["--config", cfg])
    ev = Events(d, t0)
    load = Load(lambda: d.sock, 2, rng, sleep=(0.2, 0.8), tag="background")
    kinds = ("py_sleep", "unpooled_sleep", "js_sleep") if not quick else ("py_sleep", "unpooled_sleep")
    reps = 1 if quick else 2
    # 3 ms: usually before the container is in hand (unpooled: created for
    # it); 20 ms: attaching or starting; 0.1-0.8 s: running.
    plan = [(tmo, kind) for tmo in (0.003, 0.02, 0.1, 0.3, 0.8) for kind in kinds for _ in range(reps)]
    rng.shuffle(plan)
    leavers = []
    lock = threading.Lock()

    def leave(tmo, kind):
        o = send(d.sock, Job(rng, kind, sleep=(1.0, 1.2)), client_timeout=tmo, tag="leaves after %gs" % tmo)
        with lock:
            leavers.append(o)

    threads = []
    for tmo, kind in plan:
        th = threading.Thread(target=leave, args=(tmo, kind))
        th.start()
        threads.append(th)
        time.sleep(0.15)
    for th in threads:
        th.join()
    # Each leaver's request has its row, finished (what is checked below):
    # the daemon has dealt with every one before the load stops.
    kh = wbtest.history_keyer(d.db)
    left_codes = [kh(o.job.code_sha) for o in leavers]
    t.ok(wait_until(lambda: all(c in finished_codes(d.db) for c in left_codes), timeout=60),
         "disconnect: every leaving client's request has its finished row")
    outcomes = load.stop()
    t.ok(d.proc.poll() is None, "disconnect: the daemon is alive after %d clients left" % len(leavers))
    t.ok(all(o.err == "timeout" for o in leavers), "disconnect: every leaving client left before its answer",
         [brief(o) for o in leavers if o.err != "timeout"][:5])
    t.ok(wait_until(lambda: not any(r["status"] == "running" for r in db_rows(d.db)), timeout=20),
         "disconnect: no row stays running once they are over")
    check_daemon_end(fig, d, "warmboxd")
    ev.stop()
    states = {}
    for m in re.finditer(r"client went away while ([a-z ]+?)(?:;|$)", d.read_log(), re.M):
        states[m.group(1)] = states.get(m.group(1), 0) + 1
    fig.notes.append("the daemon saw clients leave while: " + ", ".join("%s %d" % kv for kv in sorted(states.items())))
    count_answers(fig, outcomes + leavers, explained=lambda o: o.tag.startswith("leaves") and o.err == "timeout")
    rows = db_rows(d.db)
    by_code = {}
    kh = rows_keyer(rows)
    for r in rows:
        by_code.setdefault(r["code_hmac"], []).append(
            r["status"] + ("" if r["status"] == "running" else " (started)" if r["started_at"] else " (not started)"))
    per = {}
    wrong = []
    for o in leavers:
        st = by_code.get(kh(o.job.code_sha), [])
        key = "%gs" % float(o.tag.split()[-1][:-1])
        per.setdefault(key, {})
        per[key][st[0] if len(st) == 1 else "%d rows" % len(st)] = per[key].get(
            st[0] if len(st) == 1 else "%d rows" % len(st), 0) + 1
        if len(st) != 1 or st[0].startswith("running"):
            wrong.append("%s: rows %s" % (brief(o), st))
    t.ok(not wrong, "disconnect: each leaving client's request left exactly one finished row",
         "\n".join(wrong[:8]))
    t.diag("disconnect: rows by client timeout: %s" % json.dumps(per, sort_keys=True))
    fig.notes.append("leavers' rows: " + ", ".join("%s %s" % (k, " ".join("%s=%d" % kv for kv in sorted(v.items())))
                                                   for k, v in sorted(per.items(), key=lambda kv: float(kv[0][:-1]))))
    count_rows(fig, rows, outcomes + leavers, ev.starts({d.instance}))
    count_containers(fig, engine_of(d), [d.instance], "after drain", oci_root=d.oci_root)
    cleanup_dirs(work, d.dir)
    return fig


# ---- 7. SIGTERM with executions in flight --------------------------------------------

def s_sigterm(quick, rng):
    fig = Figures("sigterm")
    work = tempfile.mkdtemp(prefix="wbchaos-term-")
    cfg = write_json(os.path.join(work, "pools.json"), POOLS)
    t0 = time.time()
    d = Daemon(extra_args=["--config", cfg])
    ev = Events(d, t0)
    n = 6 if quick else 8
    kinds = ["py_sleep", "unpooled_sleep", "js_sleep", "py_sleep"]
    inflight, after, lock = [], [], threading.Lock()

    def go(job, box, tag):
        o = send(d.sock, job, tag=tag)
        with lock:
            box.append(o)

    threads = []
    for i in range(n):
        job = Job(rng, kinds[i % len(kinds)], sleep=(1.0, 2.0) if quick else (1.0, 3.0))
        th = threading.Thread(target=go, args=(job, inflight, "in flight"))
        th.start()
        threads.append(th)
    running = lambda: len(labelled(engine_of(d), "warmbox.instance=" + d.instance, "running"))  # noqa: E731
    wait_until(lambda: running() >= n, timeout=15, step=0.05)
    n_running = running()
    # Connections opened before the signal stay served: a new execution
    # sent on one of them after the signal must get a 503 JSON answer.
    kept = []
    for _ in range(3):
        c = UnixHTTPConnection(d.sock, timeout=30)
        c.request("GET", "/healthz")
        r = c.getresponse()
        r.read()
        kept.append(c)
    # A burst of new connections across the signal, one every 5 ms from
    # 60 ms before it to 100 ms after: each must be answered (200 if it was
    # admitted before the signal, else 503 JSON) or refused at connect.
    burst_jobs = [Job(rng, ("py", "js")[i % 2]) for i in range(32)]
    burst = []

    def fire():
        for job in burst_jobs:
            th = threading.Thread(target=go, args=(job, burst, "around the signal"))
            th.start()
            threads.append(th)
            time.sleep(0.005)
    # And probes: new connections as fast as 3 threads can open them
    # (GET /healthz, no execution), each thread until its first refused
    # connect: any connection the kernel accepted must get an answer.
    probes = {}
    probes_stop = time.time() + 10

    def probe():
        while time.time() < probes_stop:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(30)
            try:
                try:
                    s.connect(d.sock)
                except OSError:
                    k = "refused at connect"
                else:
                    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                    line = s.recv(4096).split(b"\r\n")[0].decode(errors="replace")
                    k = line[:12] if line else "no answer (EOF)"
            except OSError as e:
                k = "no answer (%s)" % type(e).__name__
            finally:
                s.close()
            with lock:
                probes[k] = probes.get(k, 0) + 1
            if k == "refused at connect":
                return
    probers = [threading.Thread(target=probe) for _ in range(3)]
    for th in probers:
        th.start()
    firing = threading.Thread(target=fire)
    firing.start()
    time.sleep(0.06)
    t_term = time.time()
    d.proc.send_signal(signal.SIGTERM)
    wait_until(lambda: re.search(r"signal 15\b", d.read_log()), timeout=30, step=0.01)
    try:
        st, body = d.request("GET", "/readyz", timeout=5)
        ready = "%s" % st
    except OSError as e:
        st, ready = None, "connection refused" if isinstance(e, (ConnectionRefusedError, FileNotFoundError)) \
            else repr(e)
    t.ok(st != 200, "sigterm: /readyz fails once the daemon has taken the signal (%s)" % ready)
    # While the executions in flight still run, a new execution sent on a
    # connection opened before the signal gets a 503 JSON answer.
    for i, c in enumerate(kept):
        o = Outcome(Job(rng, ("py", "unpooled", "js")[i % 3]), "kept-alive connection, after the signal")
        o.t0 = time.time()
        try:
            c.request("POST", "/v1/executions", body=json.dumps(o.job.body).encode(),
                      headers={"Content-Type": "application/json"})
            r = c.getresponse()
            o.raw, o.status = r.read(), r.status
            o.body = json.loads(o.raw) if o.raw else None
        except (OSError, http.client.HTTPException, ValueError) as e:
            o.err, o.errtxt = "dropped", repr(e)
        o.t1 = time.time()
        c.close()
        after.append(o)
    firing.join()
    for th in probers:
        th.join()
    for i in range(n):
        job = Job(rng, ("py", "unpooled", "js")[i % 3])
        th = threading.Thread(target=go, args=(job, after, "after the signal"))
        th.start()
        threads.append(th)
        time.sleep(0.1)
    for th in threads:
        th.join()
    try:
        rc = d.proc.wait(timeout=90)
    except subprocess.TimeoutExpired:
        rc = None
    t_exit = time.time()
    d.log.close() if not d.log.closed else None
    t.diag("sigterm: %d of %d running at the signal; exit after %.1f s" % (n_running, n, t_exit - t_term))
    check_daemon_end(fig, d, "warmboxd (SIGTERM)", rc=rc if rc is not None else d.stop())
    ev.stop()
    t.ok(all(o.status == 200 and judge(o) == "ok" for o in inflight),
         "sigterm: every execution in flight (%d) got its 200 result" % len(inflight),
         [brief(o) for o in inflight if judge(o) != "ok"][:5])
    t.ok(all((o.status == 503 and clear_error(o)) or o.err == "connect" for o in after),
         "sigterm: requests after the signal get 503 JSON or a refused connection",
         [brief(o) for o in after if not ((o.status == 503 and clear_error(o)) or o.err == "connect")][:5])
    kept_out = [o for o in after if o.tag.startswith("kept")]
    t.ok(all(o.status == 503 and clear_error(o) for o in kept_out),
         "sigterm: on connections opened before the signal, new executions get 503 JSON (%d)" % len(kept_out),
         [brief(o) for o in kept_out][:5])
    bad = [o for o in burst if not ((o.status == 200 and judge(o) == "ok") or (o.status == 503 and clear_error(o))
                                    or o.err == "connect")]
    bh = {}
    for o in burst:
        k = "refused at connect" if o.err == "connect" else ("no answer (%s)" % o.errtxt.split("(")[0]) if o.err \
            else "%s %s" % (o.status, (o.body or {}).get("status") or ((o.body or {}).get("error") or {}).get("code"))
        bh[k] = bh.get(k, 0) + 1
    t.ok(not bad, "sigterm: each of %d connections made around the signal is answered (200 or 503 JSON) or refused "
         "at connect: %s" % (len(burst), json.dumps(bh, sort_keys=True)), [brief(o) for o in bad][:5])
    lost_probes = sum(v for k, v in probes.items() if k.startswith("no answer"))
    t.ok(lost_probes == 0, "sigterm: no connection made around the signal is reset without an answer "
         "(probes: %s)" % json.dumps(probes, sort_keys=True))
    fig.v["unclear failures"] += lost_probes
    if lost_probes:
        fig.notes.append("%d /healthz probes connected just before the listeners closed and got no answer"
                         % lost_probes)
    everything = inflight + burst + after
    count_answers(fig, everything, explained=lambda o: o.tag in ("after the signal", "around the signal")
                  and o.err == "connect")
    rows = db_rows(d.db)
    count_rows(fig, rows, everything, ev.starts({d.instance}))
    n200 = sum(1 for o in everything if o.status == 200)
    t.is_eq(sorted(r["status"] for r in rows), ["ok"] * n200, "sigterm: one ok row per execution admitted "
                                                              "before the signal, none for those refused at the door")
    count_containers(fig, engine_of(d), [d.instance], oci_root=d.oci_root)
    fig.notes.append("%d/%d running at SIGTERM, exit %s after %.1f s; burst around the signal: %s; after the "
                     "signal: %d 503, %d refused connections"
                     % (n_running, n, rc, t_exit - t_term, json.dumps(bh, sort_keys=True),
                        sum(1 for o in after if o.status == 503), sum(1 for o in after if o.err == "connect")))
    cleanup_dirs(work, d.dir)
    return fig


# ---- main ----------------------------------------------------------------------

SCENARIOS = [("kill9", s_kill9), ("dockerd", s_dockerd), ("helper", s_helper), ("locked", s_locked), ("readonly", s_readonly),
             ("diskfull", s_diskfull), ("disconnect", s_disconnect), ("sigterm", s_sigterm)]
QUICK = ("kill9", "helper", "disconnect", "sigterm")


def table(figs):
    cols = ("scenario",) + Figures.COLS
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(cols))) + "|"]
    for f in figs:
        if f.skipped:
            lines.append("| %s | skipped: %s |" % (f.name, f.skipped) + " |" * (len(cols) - 2))
            continue
        lines.append("| " + " | ".join([f.name] + [str(f.v[c]) for c in Figures.COLS]) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="kill9, helper (OCI), disconnect and sigterm with small loads")
    ap.add_argument("--only", metavar="NAME", help="one scenario: %s (or 1-8)" % ", ".join(n for n, _ in SCENARIOS))
    ap.add_argument("--seed", type=int, default=None)
    opts = ap.parse_args()
    seed = opts.seed if opts.seed is not None else int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    todo = SCENARIOS
    if opts.only:
        if opts.only.isdigit() and 1 <= int(opts.only) <= len(SCENARIOS):
            todo = [SCENARIOS[int(opts.only) - 1]]
        else:
            todo = [s for s in SCENARIOS if s[0] == opts.only]
            if not todo:
                ap.error("no scenario %r" % opts.only)
    elif opts.quick:
        todo = [s for s in SCENARIOS if s[0] in QUICK]
    if os.geteuid() != 0:
        print("1..0 # SKIP chaos needs root (mount, chattr, a second dockerd)")
        return 0
    if not ON_OCI and not engine_alive(SYSTEM_ENGINE):
        print("1..0 # SKIP no Docker engine answers on %s" % SYSTEM_ENGINE)
        return 0
    t.diag("chaos: seed %d, scenarios %s%s" % (seed, ", ".join(n for n, _ in todo), " (quick)" if opts.quick else ""))
    figs = []
    for name, fn in todo:
        t.diag("---- %s" % name)
        failed_before = t.failed
        del KEEP[:]
        try:
            fig = fn(opts.quick, rng)
        except Exception as e:  # a scenario that breaks is a failure, not a silent gap
            import traceback
            fig = Figures(name)
            fig.v["unclear failures"] += 1
            fig.notes.append("scenario raised %r" % e)
            t.ok(False, "%s: the scenario ran to its end" % name, traceback.format_exc())
        fig.finish()
        faults = {c: fig.v[c] for c in Figures.FAULTS if fig.v[c]}
        t.ok(not faults, "%s: every fault column is 0" % name, faults)
        for n in fig.notes:
            t.diag("%s: %s" % (name, n))
        if t.failed == failed_before:
            for d in KEEP:
                shutil.rmtree(d, ignore_errors=True)
        elif KEEP:
            t.diag("%s: kept for evidence: %s" % (name, " ".join(KEEP)))
        figs.append(fig)
    print()
    print(table(figs))
    print()
    t.done()


if __name__ == "__main__":
    sys.exit(main())
