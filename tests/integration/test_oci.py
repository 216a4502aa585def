#!/usr/bin/env python3
"""The OCI engine (warmbox-oci running crun where this host lets it, and
runc), against the Docker engine and under faults.

1. Hardening side by side: the same probes (uid, CapEff, NoNewPrivs,
   Seccomp, the network interfaces, a read-only root, a noexec /tmp, the
   masked /proc paths, mount refused, a memory bomb, a fork bomb against
   the pids limit, the CPU quota, the timeout's kill) give the same answers through a Docker engine and
   through an OCI engine on each native runtime (crun, runc), in one run;
   the engine says which runtime it runs (/v1/engines, its log).
2. Faults, on each native runtime, with a runtime of the test's own in front of it: the runtime
   missing (warmboxd says so and does not start), a create the runtime
   refuses, a runtime that hangs (killed at runtime_timeout_ms), a pooled
   container whose init dies while it waits: each gives a clear error or
   a run on a fresh container, never a wrong result, and the engine
   recovers when the fault ends.  Nothing is left in the runtime's state
   root afterwards.
3. The engine's events (GET /events, as Docker's): every container that
   ran a program was created, started once, died and was destroyed, in
   that order, and a stream opened later replays them (since=).
"""
import json
import os
import shutil
import stat
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import Daemon, EngineEvents, Tap, containers_with_label, rows, wait_until  # noqa: E402

t = Tap()
RUNC = shutil.which("runc") or "/usr/sbin/runc"
CRUN = shutil.which("crun")
if not os.path.exists(RUNC) or os.getuid() != 0:
    print("1..0 # SKIP the OCI engine needs root and runc")
    sys.exit(0)


def crun_fits():
    """crun's own test (libcrun_cgroup_enter): not on a hybrid layout whose
    v2 hierarchy holds a controller (scripts/setup.sh mounts those on v1)."""
    if os.statvfs("/sys/fs/cgroup") and os.path.exists("/sys/fs/cgroup/cgroup.controllers"):
        return True  # unified
    try:
        with open("/sys/fs/cgroup/unified/cgroup.controllers") as f:
            return f.read().strip() == ""
    except OSError:
        return True  # legacy


# The native runtimes this host runs, the default (auto) first.
RUNTIMES = ([("crun", CRUN, "state-crun")] if CRUN and crun_fits() else []) + [("runc", RUNC, "state")]
DEFAULT = RUNTIMES[0][0]
STATE = {name: state for name, _, state in RUNTIMES}
if DEFAULT == "runc":
    print("# crun %s: the OCI engine runs runc here, and only runc is tested"
          % ("does not fit this host's cgroups" if CRUN else "is not installed"))

PROBE = r"""
import json, os, subprocess, errno
st = open('/proc/self/status').read()
def field(k):
    return st.split(k + ':')[1].split()[0]
facts = {'uid_not_root': os.getuid() != 0, 'CapEff': field('CapEff'), 'NoNewPrivs': field('NoNewPrivs'),
         'Seccomp': field('Seccomp'), 'interfaces': sorted(os.listdir('/sys/class/net'))}
try:
    open('/usr/warmbox-probe', 'w')
    facts['root'] = 'writable'
except OSError as e:
    facts['root'] = errno.errorcode[e.errno]
p = '/tmp/probe.sh'
open(p, 'w').write('#!/bin/sh\necho ran\n')
os.chmod(p, 0o755)
try:
    subprocess.run([p], check=True)
    facts['tmp'] = 'exec'
except PermissionError:
    facts['tmp'] = 'noexec'
facts['kcore'] = os.stat('/proc/kcore').st_size if os.path.exists('/proc/kcore') else None
try:
    open('/proc/sys/kernel/hostname', 'w').write('x')
    facts['proc_sys'] = 'writable'
except OSError as e:
    facts['proc_sys'] = errno.errorcode[e.errno]
facts['mount'] = subprocess.run(['sh', '-c', 'mount -t tmpfs none /tmp/x 2>&1 || echo refused'],
                                capture_output=True, text=True).stdout.strip().split()[-1]
print(json.dumps(facts, sort_keys=True))
"""

FORK_BOMB = r"""
import os, time
n = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(5)
            os._exit(0)
        n += 1
except OSError as e:
    print('stopped', e.errno, n <= 64)
"""

MEMORY_BOMB = "x = []\nwhile True:\n    x.append(bytearray(16 << 20))\n"

# Every process of the sandbox the program may signal but itself and PID 1,
# warmbox's init, which the kernel shields: the init still reports the
# program's own end (issue 35: on runc, crun, and under test_hostile_gvisor
# runsc).
KILL_ALL = r"""
import os, signal
try:
    os.kill(-1, signal.SIGKILL)
except OSError as e:
    print('kill -1:', e)
print('still here')
"""

CPU = r"""
import os, time
# Four busy processes against the profile's 1 CPU (the machine has 2),
# each until it has had 0.4 s of CPU: on a host busy elsewhere too they
# still ask for more than one CPU at once.
kids = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        while time.process_time() < 0.4:
            pass
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)
stat = dict(l.split() for l in open('/sys/fs/cgroup/cpu/cpu.stat'))
quota = int(open('/sys/fs/cgroup/cpu/cpu.cfs_quota_us').read())
print(quota, int(stat['nr_throttled']) > 0)
"""


def facts_of(d):
    out = {}
    st, r = d.run("python", PROBE)
    out["probe"] = json.loads(r["stdout"]) if st == 200 and r.get("status") == "ok" else (st, r)
    st, r = d.run("python", FORK_BOMB, timeout_ms=20000)
    out["fork_bomb"] = (r.get("status"), r.get("stdout"))
    st, r = d.run("python", MEMORY_BOMB, memory_mb=128)
    out["memory_bomb"] = r.get("status")
    st, r = d.run("python", CPU)
    out["cpu"] = (r.get("status"), r.get("stdout"))
    st, r = d.run("python", "import time; time.sleep(30)", timeout_ms=1000)
    out["timeout"] = (r.get("status"), r.get("exit_code"))
    st, r = d.run("python", KILL_ALL)
    out["kill_all"] = (r.get("status"), r.get("exit_code"), r.get("stdout"))
    return out


work = tempfile.mkdtemp(prefix="warmbox-oci-test-")
docker = Daemon(engine="unix:///var/run/docker.sock", wait_ready=True)
on_docker = facts_of(docker)
docker.stop()


def runtime_daemon(runtime, root, **kw):
    """A daemon on an OCI engine of its own running runtime ("auto": the
    helper's choice)."""
    cfg = os.path.join(work, "config-%s.json" % os.path.basename(root))
    entry = {"name": "oci", "kind": "oci", "root": root, "runtime": runtime}
    entry.update(kw.pop("engine_keys", {}))
    with open(cfg, "w") as f:
        json.dump(dict({"engines": [entry]}, **kw.pop("config", {})), f)
    return Daemon(extra_args=["--config", cfg], engine="", wait_ready=kw.pop("wait_ready", True))


def prove_runtime(rt, state):
    root = os.path.join(work, "root-" + rt)
    t_oci = time.time()
    oci = runtime_daemon("auto" if rt == DEFAULT else rt, root)
    on_oci = facts_of(oci)
    t.is_eq(on_oci, on_docker, "%s: the probes answer the same on the OCI engine as on Docker" % rt)
    st, e = oci.request("GET", "/v1/engines")
    said = (e.get("engines") or [{}])[0].get("oci_runtime") or ""
    t.ok(said.startswith(rt + " version"), "%s: /v1/engines says the engine runs %s%s" %
         (rt, rt, " (its default here)" if rt == DEFAULT else ""), said)
    t.ok(("runc profiles run on %s version" % rt) in oci.read_log(), "%s: and so does warmboxd's log" % rt)
    t.ok(on_oci["probe"].get("CapEff") == "0000000000000000" and on_oci["probe"].get("NoNewPrivs") == "1"
         and on_oci["probe"].get("Seccomp") == "2" and on_oci["probe"].get("interfaces") == ["lo"]
         and on_oci["probe"].get("root") == "EROFS" and on_oci["probe"].get("tmp") == "noexec"
         and on_oci["probe"].get("uid_not_root"),
         "%s: not root, no capability, no new privileges, seccomp filter, only lo, read-only root, noexec /tmp" % rt,
         on_oci["probe"])
    t.ok(on_oci["fork_bomb"][0] == "ok" and (on_oci["fork_bomb"][1] or "").startswith("stopped 11 True"),
         "%s: a fork bomb stops at the pids limit (EAGAIN)" % rt, on_oci["fork_bomb"])
    t.is_eq(on_oci["memory_bomb"], "oom", "%s: a memory bomb ends oom" % rt)
    # By default (on a host that lets the helper make one) runc containers run
    # in a user namespace: the program's ids are the host's 1000000 + its own.
    st, r = oci.run("python", "import os; print(os.getuid(), ' '.join(open('/proc/self/uid_map').read().split()))")
    uid = int((r.get("stdout") or "0").split()[0])
    t.is_eq((r.get("stdout") or "").split()[1:], ["0", "1000000", "65536"],
            "%s by default: a user namespace, the container's ids 0-65535 the host's 1000000-1065535 "
            "(uid %d is %d there)" % (rt, uid, uid + 1000000))
    st, e = oci.request("GET", "/v1/engines")
    t.ok("name=userns" in json.dumps(e), "%s by default: /v1/engines shows name=userns among its security options" % rt,
         e)
    t.ok(on_oci["cpu"] == ("ok", "100000 True\n"), "%s: the CPU quota holds (1 CPU: four busy processes are throttled)"
         % rt, on_oci["cpu"])
    t.is_eq(on_oci["timeout"], ("timeout", None), "%s: a program past its timeout is killed: timeout" % rt)
    # ESRCH: nothing it may signal is left (PID 1 is not among them).
    t.ok(on_oci["kill_all"][:2] == ("ok", 0) and (on_oci["kill_all"][2] or "").endswith("still here\n"),
         "%s: kill(-1, SIGKILL) from the program leaves its init: ok, the program's own exit code" % rt,
         on_oci["kill_all"])

    # The engine's own events, replayed from before the daemon started.
    ev = EngineEvents(os.path.join(root, "engine.sock"), since=int(t_oci) - 1,
                      label="warmbox.instance=" + oci.instance)
    for i in range(3):
        oci.run("python", "print(%d)" % i)
    ran = [r[0] for r in rows(oci.db, "SELECT container_id FROM executions WHERE container_id != ''")]

    def lives():
        return {cid: ev.actions(cid) for cid in ran}

    wait_until(lambda: all(a and a[-1] == "destroy" for a in lives().values()), timeout=20)
    bad = {cid[:12]: a for cid, a in lives().items()
           if not (a[:2] == ["create", "start"] and a[-2:] == ["die", "destroy"] and a.count("start") == 1
                   and a.count("die") == 1 and set(a) <= {"create", "start", "kill", "oom", "die", "destroy"})}
    t.ok(len(ran) >= 8 and not bad, "%s events: each of the %d containers that ran was created, started once, died and "
         "was destroyed, in that order" % (rt, len(ran)), bad)
    t.ok(any("oom" in a for a in lives().values()), "%s events: the memory bomb's container has its oom event" % rt)
    starts = ev.starts({oci.instance})
    t.ok(starts and max(starts.values()) == 1 and set(ran) <= set(starts),
         "%s events: no container of the instance was started twice (%d started)" % (rt, len(starts)))
    ev.stop()
    oci.stop()
    t.is_eq(os.listdir(os.path.join(root, state)), [], "%s: nothing left in the runtime's state root" % rt)


for rt, rt_path, rt_state in RUNTIMES:
    prove_runtime(rt, rt_state)

# With "userns": false the same probes answer the same, and the program's
# ids are the host's own (as under Docker).
cfg = os.path.join(work, "userns.json")
with open(cfg, "w") as f:
    json.dump({"engines": [{"name": "oci", "kind": "oci", "root": os.path.join(work, "userns"), "userns": False}]}, f)
un = Daemon(extra_args=["--config", cfg], engine="", wait_ready=True)
on_userns = facts_of(un)
t.is_eq(on_userns, on_docker, "userns false: the probes answer the same as on Docker")
st, r = un.run("python", "print(' '.join(open('/proc/self/uid_map').read().split()))")
t.is_eq((r.get("stdout") or "").split(), ["0", "0", "4294967295"], "userns false: the host's own ids")
st, e = un.request("GET", "/v1/engines")
t.ok("name=userns" not in json.dumps(e), "userns false: /v1/engines does not say name=userns", e)
un.stop()
t.is_eq(os.listdir(os.path.join(work, "userns", STATE[DEFAULT])), [], "userns false: nothing left in the runtime's state root")

# Ctrl-C in the terminal of `make run`: SIGINT to the whole process group.
# The helper and the runtime's containers are not warmboxd's group's (the
# helper ignores it, the runtime runs in a group of its own): the program
# in flight finishes, the drain removes the pools through the helper, and
# then warmboxd stops it.
import signal  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
from wbtest import WARMBOXD, UnixHTTPConnection  # noqa: E402

grp_root = os.path.join(work, "group")
grp_sock = os.path.join(work, "group.sock")
grp_log = open(os.path.join(work, "group.log"), "wb")
grp = subprocess.Popen([WARMBOXD, "--engine", "oci:" + grp_root, "--listen", "unix:" + grp_sock,
                        "--store-path", os.path.join(work, "group.db")],
                       stdout=grp_log, stderr=subprocess.STDOUT, start_new_session=True)
got = {}


def grp_run():
    conn = UnixHTTPConnection(grp_sock, timeout=60)
    conn.request("POST", "/v1/executions", body=json.dumps(
        {"language": "python", "code": "import time; time.sleep(4); print(6*7)"}).encode(),
        headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    got["r"] = (r.status, json.loads(r.read()))


def grp_python_ready():
    try:
        conn = UnixHTTPConnection(grp_sock, timeout=10)
        conn.request("GET", "/v1/languages")
        body = json.loads(conn.getresponse().read())
        conn.close()
        return any(x["language"] == "python" and x["ready"] for x in body["languages"])
    except (OSError, ValueError, KeyError):
        return False


# The signal once the program runs: its container is seen running on the
# group's engine.
grp_engine = os.path.join(grp_root, "engine.sock")
if wait_until(grp_python_ready, timeout=60):
    th = threading.Thread(target=grp_run)
    th.start()
    t.ok(wait_until(lambda: os.path.exists(grp_engine)
                    and containers_with_label("warmbox.instance", "running", sock=grp_engine), timeout=60)
         and th.is_alive(), "the group's program runs, its answer still to come")
    os.killpg(grp.pid, signal.SIGINT)
    th.join(timeout=60)
try:
    rc = grp.wait(timeout=60)
except subprocess.TimeoutExpired:
    grp.kill()
    rc = grp.wait()
grp_log.close()
st_r = got.get("r", (None, {}))
with open(os.path.join(work, "group.log"), "rb") as f:
    glog = f.read().decode("utf-8", "replace")
t.ok(st_r[0] == 200 and st_r[1].get("stdout") == "42\n" and rc == 0,
     "Ctrl-C to the group: the program in flight finishes, warmboxd exits 0", (st_r, rc))
t.ok("not removed" not in glog and os.listdir(os.path.join(grp_root, STATE[DEFAULT])) == [],
     "and every container was removed through the helper, which stopped last", glog[-1500:])

# ---- faults ----------------------------------------------------------------------

mode = os.path.join(work, "mode")


def fake_runtime(name, real):
    fake = os.path.join(work, "fake-" + name)
    with open(fake, "w") as f:
        f.write(FAKE % {"mode": mode, "runtime": real})
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
    return fake


FAKE = """#!/bin/bash
# A runtime that fails as told (the file %(mode)s), in front of a real one.
m=$(cat %(mode)s 2>/dev/null)
create=; pidfile=
for ((i = 1; i <= $#; i++)); do
  [ "${!i}" = create ] && create=1
  if [ "${!i}" = --pid-file ]; then j=$((i + 1)); pidfile=${!j}; fi
done
if [ -n "$create" ]; then
  case "$m" in
    create-fail) echo "fake runtime: create refused" >&2; exit 1 ;;
    create-hang) exec sleep 3600 ;;
  esac
fi
%(runtime)s "$@"; rc=$?
if [ -n "$create" ] && [ "$m" = kill-init ] && [ $rc = 0 ]; then kill -9 "$(cat "$pidfile")"; fi
exit $rc
"""


def set_mode(m):
    with open(mode, "w") as f:
        f.write(m)


# The config's engines, no --engine flag (engine="" is none).
class ConfigDaemon(Daemon):
    def __init__(self, cfg, wait_ready=True):
        super().__init__(extra_args=["--config", cfg], engine="", wait_ready=wait_ready)


def config_daemon(runtime, root, wait_ready=True):
    cfg = os.path.join(work, "config-%s.json" % os.path.basename(root))
    with open(cfg, "w") as f:
        json.dump({"engines": [{"name": "oci", "kind": "oci", "root": root, "runtime": runtime,
                                "runtime_timeout_ms": 2000}],
                   "pools": {"default": {"min_ready": 1, "max_ready": 1}}}, f)
    return ConfigDaemon(cfg, wait_ready=wait_ready)


try:
    config_daemon("/nonexistent/runc", os.path.join(work, "missing"), wait_ready=False)
    t.ok(False, "a missing runtime stops warmboxd at start")
except RuntimeError as e:
    t.ok("/nonexistent/runc cannot be run" in str(e) and "warmbox-oci exited" in str(e),
         "a missing runtime: warmboxd does not start, and says why", str(e)[-600:])


def faults(rt, rt_path, state):
    def ok(cond, msg, *more):
        return t.ok(cond, rt + ": " + msg, *more)

    def is_eq(got, want, msg):
        return t.is_eq(got, want, rt + ": " + msg)

    set_mode("")
    root = os.path.join(work, "faults-" + rt)
    d = config_daemon(fake_runtime(rt, rt_path), root)
    st, r = d.run("python", "print(6*7)")
    ok(st == 200 and r.get("stdout") == "42\n", "through the test's runtime: a run works", r)

    set_mode("create-fail")
    st, r = d.run("python", "print(1)", memory_mb=300)  # not pooled: a create now
    ok(st in (502, 503) and "error" in r and r.get("stdout") is None,
         "a create the runtime refuses: a clear error (%d), no result" % st, r)
    ok(wait_until(lambda: "create refused" in d.read_log(), timeout=10),
         "the runtime's own words are in warmboxd's log")

    set_mode("create-hang")
    st, r = d.run("python", "print(1)", memory_mb=310)
    ok(st in (502, 503) and "error" in r, "a runtime that hangs: killed at its bound, a clear error (%d)" % st, r)
    ok(wait_until(lambda: "did not finish in time" in d.read_log(), timeout=10),
         "the helper says it killed the runtime")

    set_mode("")
    st, r = d.run("python", "print(6*7)", memory_mb=320)
    ok(st == 200 and r.get("stdout") == "42\n", "the fault gone: runs work again", r)

    # A pooled container whose init dies while it waits: warmboxd must not
    # report that exit as the program's.
    def python_ready():
        st, body = d.request("GET", "/v1/pools")
        return st == 200 and any(p["language"] == "python" and p["ready"] > 0 for p in body["pools"])

    wait_until(python_ready, timeout=20)
    set_mode("kill-init")
    st, r = d.run("python", "print(0)")  # takes the pooled container; its refill's init is killed
    ok(st == 200 and r.get("stdout") == "0\n", "the pooled container (made before the fault) runs", r)
    ok(wait_until(python_ready, timeout=20), "the refill, whose init was killed, waits in the pool")
    set_mode("")
    st, r = d.run("python", "print(6*7)")
    ok((st == 200 and r.get("status") == "ok" and r.get("stdout") == "42\n" and r.get("exit_code") == 0)
         or (st != 200 and "error" in r),
         "handed a container whose init died: the right result from a fresh one, or a clear error; never "
         "that exit as the program's (%s)" % st, r)
    st, r = d.run("python", "print(6*7)")
    ok(st == 200 and r.get("stdout") == "42\n", "and the next run is right", r)

    # The engine's server killed (a crash, the OOM killer) with a program in
    # flight: that run ends with a clear error, the keeper starts a new server
    # that deletes what the dead one left, and warmboxd serves again by itself.
    server = d.oci_server_pid()
    oci_sock = os.path.join(root, "engine.sock")
    slow = {}
    th = threading.Thread(target=lambda: slow.update(r=d.run("python", "import time; time.sleep(5)")))
    th.start()
    ok(wait_until(lambda: containers_with_label("warmbox.instance=" + d.instance, "running", sock=oci_sock),
                    timeout=10, step=0.05), "a program runs")
    before = set(os.listdir(os.path.join(root, state)))
    os.kill(server, 9)
    th.join(timeout=60)
    st, r = slow.get("r", (None, {}))
    ok(st is not None and (st != 200 or r.get("status") in ("engine_lost", "sandbox_error")) and "error" in r
         and r.get("exit_code") is None,
         "the server killed mid-run: a clear error, no exit code (%s %s)" % (st, r.get("status")), r)
    ok(wait_until(lambda: d.oci_server_pid() not in (None, server), timeout=30),
         "the keeper started a new server", d.read_log()[-1500:])
    ok("was killed by signal 9" in d.read_log(), "warmboxd's log says the server was killed, and restarted")

    def runs_again():
        st, r = d.run("python", "print(6*7)")
        return st == 200 and r.get("stdout") == "42\n"

    ok(wait_until(runs_again, timeout=60, step=0.5), "warmboxd serves again by itself")
    ok(before and wait_until(lambda: not before & set(os.listdir(os.path.join(root, state))), timeout=10),
         "none of the dead server's %d containers is left in the runtime's state" % len(before),
         before & set(os.listdir(os.path.join(root, state))))
    is_eq(d.stop(), 0, "the daemon stops")
    is_eq(os.listdir(os.path.join(root, state)), [], "nothing is left in the runtime's state root")
    is_eq(os.listdir(os.path.join(root, "bundles")), [], "nor a bundle")


for rt, rt_path, rt_state in RUNTIMES:
    faults(rt, rt_path, rt_state)
shutil.rmtree(work, ignore_errors=True)
t.done()
