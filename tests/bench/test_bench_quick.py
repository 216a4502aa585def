#!/usr/bin/env python3
"""The benchmark's fast subset (make test): every measurement of
bench_pool.py runs once at a tiny size, so the bench cannot rot between
`make bench` runs.  It checks what a measurement must get right (every
execution correct, every warm run a pool hit, its own containers gone)
and asserts no duration: speed is make bench's, read as ratios."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_pool as bench  # noqa: E402
from wbtest import Tap, containers_with_label, wait_until  # noqa: E402

t = Tap()
body = bench.spec("python")


def rate_ok(x):
    return isinstance(x, float) and math.isfinite(x) and x > 0


b = bench.burst(body, 4, rounds=2)
t.ok(b["warm_hits"] == b["executions"] == 8, "burst: every warm execution correct and a pool hit", b)
t.ok(all(rate_ok(x) for x in b["warm_rounds_per_s"] + b["naive_rounds_per_s"] + b["same_work_rounds_per_s"]),
     "burst: warm, naive and same-work rates measured for each round", b)
t.ok(len(b["ratios"]) == 2 and rate_ok(b["ratio_median"]) and rate_ok(b["same_work_ratio_median"]),
     "burst: the per-round ratios and their medians", b)

rate, cpu_ms, limit = bench.sustained_warm(2, 2.0)
t.ok(rate_ok(rate) and rate_ok(cpu_ms) and isinstance(limit, int) and limit >= 1,
     "sustained: rate, daemon CPU per execution and the start limit", (rate, cpu_ms, limit))

t.ok(rate_ok(bench.floor_parallel(body, 2, 2.0)), "floor at parallelism 2 measured")

se = bench.slow_engine_compare(body, 0, clients=4, per_round=8, rounds=2)
t.ok(all(rate_ok(x) for x in se["warm_rounds_per_s"] + se["naive_rounds_per_s"]) and len(se["warm_rounds_per_s"]) == 2,
     "slow engine: warmboxd and naive rounds through the slowing proxy", se)

import bench_languages  # noqa: E402
lt = bench_languages.measure(["c", "bash"], 1)
t.ok(all(rate_ok(lt[x][k][0]) for x in ("c", "bash") for k in ("warm", "floor"))
     and rate_ok(lt["c"]["compile"][0]) and not lt["bash"]["compile"],
     "languages: warm, floor and (compiled) compile times measured", lt)

# The runtimes' bench (bench_runtime.py), once at a tiny size: a failed
# call is a row, and every figure it prints is measured.
import bench_runtime  # noqa: E402
rts = bench_runtime.runtimes() if os.getuid() == 0 else []
if rts:
    pools = {"default": {"min_ready": 0, "max_ready": 0}, "python": {"min_ready": 2, "max_ready": 2}}
    ds = {rt: bench_runtime.daemon(rt, pools) for rt in rts}
    try:
        sq = bench_runtime.sequential(2, ds)
        # A call the daemon refuses, in a sustained loop: counted by what it
        # ended as, the loop goes on, nothing raised.
        d0 = next(iter(ds.values()))

        def refused():
            st, r = d0.run("python", "print(6*7)", timeout_ms=-1)
            raise bench.CallFailed(st, r)
        refusals = bench_runtime.Failures()
        rate, _ = bench.sustained(d0, refused, 2, 0.5, fails=refusals)
    finally:
        for d in ds.values():
            bench_runtime.stop(d)
    t.ok(all(rate_ok(sq["p50_ms"][k]) for k in ["bare"] + rts)
         and all(sq["failed"][rt] == "none" for rt in rts)
         and all(isinstance(sq["warmboxd_own_p50_ms"][rt], float) for rt in rts),
         "runtimes (%s): bare and warm p50, warmboxd's own part, no call failed" % ", ".join(rts), sq)
    tp = bench_runtime.throughput(1.5, rts, levels=(2,))
    t.ok(all(rate_ok(tp[2][rt]["per_s"]) and tp[2][rt]["ok"] > 0 and tp[2][rt]["runtime_cpu_ms"] > 0
             for rt in rts) and ("crun_vs_runc" in tp[2]) == ("crun" in rts),
         "runtimes: throughput and the runtime's CPU per execution measured for each", tp)
    # The loop is faster than the Unix caller's default rate: the refusals
    # past its bucket are counted too, by what they ended as.
    t.ok(rate == 0 and len(refusals) >= 2 and "400 invalid_request" in refusals.by
         and set(refusals.by) <= {"400 invalid_request", "429 rate_limited"},
         "a failed call is counted as a row by what it ended as, not raised (%s)" % refusals, refusals.by)
else:
    t.ok(True, "# SKIP the runtimes' bench needs root and crun or runc")

gone = wait_until(lambda: not containers_with_label("warmbox.instance=bench-floor"), timeout=30)
t.ok(gone, "the bench's own containers are all removed",
     containers_with_label("warmbox.instance=bench-floor"))
t.done()
