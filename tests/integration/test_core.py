#!/usr/bin/env python3
"""The execution core against a real engine: issue 10's reproductions.

1. (in test_store.py: a locked history and impatient clients)
2. kill -9 with unpooled executions running, restart, stop: no container
   of either daemon is left (every container carries warmbox.owner);
3. SIGTERM during a 3 s execution: its client gets the result, the row is
   written, the daemon exits 0, nothing is left;
4. a cancelled execution (client gone mid-run) and an interrupted one
   (daemon killed mid-run) each have a row;
and the hardening and labels of an unpooled container, read back from the
engine.
"""
import concurrent.futures as cf
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import ENGINE_KIND, Daemon, Tap, containers_with_label, docker_api, oci_state, rows, wait_until  # noqa: E402

t = Tap()



def ours(instance):
    return containers_with_label("warmbox.instance=" + instance)


def try_request(d, body, timeout):
    try:
        return d.request("POST", "/v1/executions", body, timeout=timeout)
    except OSError as e:
        return None, {"client error": repr(e)}


# ---- an unpooled container is made like a pooled one ---------------------------

d = Daemon()
with cf.ThreadPoolExecutor(1) as ex:
    f = ex.submit(d.run, "python", "import time; time.sleep(2); print('big')", memory_mb=300)
    # Running, by the engine's state: a pool's container on its way out
    # (removing, dead) is not the one.
    t.ok(wait_until(lambda: len(d.our_containers("running")) == 1, timeout=20, step=0.05),
         "an execution with memory_mb 300 runs in a container of its own")
    cid = (d.our_containers("running") or [None])[0]
    st, info = docker_api("GET", "/containers/%s/json" % cid) if cid else (None, {})
    labels = (info or {}).get("Config", {}).get("Labels", {})
    hc = (info or {}).get("HostConfig", {})
    t.ok(all(labels.get(k) for k in ("warmbox.instance", "warmbox.owner", "warmbox.pool", "warmbox.language")),
         "it carries all four labels, warmbox.owner included", labels)
    t.ok(labels.get("warmbox.pool", "").endswith("/m300"), "its pool key names the memory variant",
         labels.get("warmbox.pool"))
    t.ok(hc.get("Memory") == 300 * 1048576 and hc.get("MemorySwap") == hc.get("Memory")
         and hc.get("ReadonlyRootfs") and hc.get("CapDrop") == ["ALL"] and hc.get("NetworkMode") == "none"
         and any(o.startswith("seccomp=") for o in hc.get("SecurityOpt") or []),
         "and the same hardening as a pooled one", hc)
    st, r = f.result()
    t.ok(st == 200 and r.get("stdout") == "big\n" and not r.get("pool_hit"), "its result comes back", r)
t.is_eq(d.stop(), 0, "exits 0")

# ---- 2 and 4: kill -9 with unpooled executions running --------------------------

d = Daemon()
first = d.instance
with cf.ThreadPoolExecutor(4) as ex:
    running = [ex.submit(try_request, d, {"language": "python", "memory_mb": 200 + 10 * i,
                                          "code": "import time; time.sleep(30)"}, 60) for i in range(4)]
    t.ok(wait_until(lambda: len(d.our_running()) == 4, timeout=30, step=0.1),
         "four unpooled executions run")
    t.ok(wait_until(lambda: rows(d.db, "SELECT count(*) FROM executions WHERE status = 'running'")[0][0] == 4,
                    timeout=10), "each has its row written ahead, status running")
    d.proc.send_signal(signal.SIGKILL)
    d.proc.wait()
    outcomes = [f.result() for f in running]
t.ok(all(st is None for st, _ in outcomes), "their clients lose the connection")
if ENGINE_KIND == "oci":
    # The helper dies with its daemon (PR_SET_PDEATHSIG) and removes what
    # it holds: the runtime's state root is empty once it is gone.
    helper = d.helper_pid()
    t.ok(helper and wait_until(lambda: not os.path.exists("/proc/%d" % helper), timeout=60)
         and os.listdir(os.path.join(d.oci_root, "state")) == [],
         "OCI: the killed daemon's helper stops and removes its containers (runtime state empty)",
         os.listdir(os.path.join(d.oci_root, "state")))
else:
    t.ok(len(ours(first)) >= 4, "the killed daemon's containers are still on the engine (%d)" % len(ours(first)))
d2 = Daemon(extra_args=["--store-path", d.db])
t.ok(wait_until(lambda: len(ours(first)) == 0, timeout=30), "the restarted daemon's reaper removes them all",
     ours(first))
got = rows(d.db, "SELECT status, error, container_id != '' FROM executions")
t.ok(len(got) == 4 and all(s == "interrupted" and e and c for s, e, c in got),
     "the four rows say interrupted, why, and which container", got)
# A cancelled execution: the client leaves mid-run.
st, _ = try_request(d2, {"language": "python", "code": "import time; time.sleep(20)"}, 1.5)
t.ok(st is None, "a client gives up after 1.5 s")
t.ok(wait_until(lambda: rows(d.db, "SELECT count(*) FROM executions WHERE status = 'cancelled'")[0][0] == 1,
                timeout=15), "its execution is stopped and has a row: cancelled")
t.ok(wait_until(lambda: len(d2.our_running()) == 0, timeout=15), "its container is gone")
second = d2.instance
t.is_eq(d2.stop(), 0, "the restarted daemon exits 0")
t.is_eq((len(ours(first)), len(ours(second))), (0, 0), "no container of either daemon is left")

# ---- 3: SIGTERM during a 3 s execution --------------------------------------------

d = Daemon()
with cf.ThreadPoolExecutor(2) as ex:
    f = ex.submit(d.run, "python", "import time; time.sleep(3); print('finished')")
    t.ok(wait_until(lambda: len(d.our_running()) == 1, timeout=20, step=0.05), "a 3 s execution runs")
    d.proc.send_signal(signal.SIGTERM)
    # The signal arrives when it arrives: wait for what it changes.
    t.ok(wait_until(lambda: d.request("GET", "/readyz")[0] == 503, timeout=10, step=0.05),
         "/readyz fails once SIGTERM is seen")
    t.ok(not f.done(), "while the execution still runs")
    st, body = d.run("python", "print(1)")
    t.ok(st == 503 and body.get("error", {}).get("code") == "busy", "a new execution gets 503 busy (JSON)", body)
    st, r = f.result(timeout=30)
    t.ok(st == 200 and r.get("status") == "ok" and r.get("stdout") == "finished\n",
         "the execution in flight gets its result", (st, r))
    rc = d.proc.wait(timeout=30)
d.log.close()
t.is_eq(rc, 0, "then the daemon exits 0")
t.is_eq(rows(d.db, "SELECT status FROM executions WHERE id = ?", r.get("id", "")), [("ok",)],
        "with its row written")
t.is_eq(len(ours(d.instance)), 0, "and no container left")
t.ok("drained; exiting" in d.read_log(), "the log says it drained")

t.done()
