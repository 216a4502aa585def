#!/usr/bin/env python3
"""Two builds of warmboxd against each other (a refactor must not be
slower): the warm path of each, sequential, interleaved round by round
with the engine floor (start + run of a pre-created container), in the
same minutes; prints p50s and the ratios to the floor and to each other.

  python3 tests/bench/bench_ab.py --old OLD/bin --new bin [--n 25] [--json FILE]

Build the old one in a worktree of its own (git worktree add /tmp/old REV;
make -C /tmp/old).  Both use the images the engine has."""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
import bench_pool as bp  # noqa: E402
import wbtest  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--old", required=True)
ap.add_argument("--new", default=os.path.join(HERE, "..", "..", "bin"))
ap.add_argument("--n", type=int, default=25)
ap.add_argument("--json")
args = ap.parse_args()
n = args.n
cfg = bp.write_config({"pools": {"default": {"min_ready": 0, "max_ready": 0},
                                  "python": {"min_ready": 4, "max_ready": 8},
                                  "javascript": {"min_ready": 4, "max_ready": 8}}, "max_containers": 64})
wbtest.WARMBOXD = os.path.join(args.new, "warmboxd")
new = wbtest.Daemon(extra_args=["--config", cfg])
wbtest.WARMBOXD = os.path.join(args.old, "warmboxd")
old = wbtest.Daemon(extra_args=["--config", cfg])
def ready(d, lang, n):
    st, body = d.request("GET", "/v1/pools")
    return any(p["language"] == lang and not p["draining"] and not p["transient"] and p["ready"] >= n
               and p["creating"] == 0 for p in body.get("pools", []))
bp.wait_until(lambda: ready(new, "python", 4) and ready(old, "python", 4), timeout=180)
out = {}
try:
    for lang in ("python", "javascript"):
        body = bp.spec(lang)
        bp.daemon_run(new, lang); bp.daemon_run(old, lang)
        t = {"new": [], "old": [], "floor": []}
        hits = {"new": 0, "old": 0}
        def warm(d, k):
            bp.wait_until(lambda: ready(d, lang, 4), timeout=30, step=0.05)
            time.sleep(bp.IDLE)
            s, h = bp.daemon_run(d, lang)
            hits[k] += bool(h)
            return s
        def floor():
            cid = bp.floor_create(body)
            time.sleep(bp.IDLE)
            try:
                return bp.floor_run(cid)
            finally:
                bp.floor_remove(cid)
        modes = [("new", lambda: warm(new, "new")), ("old", lambda: warm(old, "old")), ("floor", floor)]
        for i in range(n):
            for k in range(3):
                name, fn = modes[(i + k) % 3]
                t[name].append(fn())
        p = lambda k: bp.pct(t[k], 50) * 1000
        out[lang] = {"new_warm_p50_ms": round(p("new"), 1), "old_warm_p50_ms": round(p("old"), 1),
                     "floor_p50_ms": round(p("floor"), 1), "new_over_floor": round(p("new") / p("floor"), 3),
                     "old_over_floor": round(p("old") / p("floor"), 3), "new_over_old": round(p("new") / p("old"), 3),
                     "hits": hits, "n": n}
        print(lang, json.dumps(out[lang]), flush=True)
finally:
    new.stop(); old.stop()
if args.json:
    with open(args.json, "w") as f:
        json.dump(out, f, indent=1)
