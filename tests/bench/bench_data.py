#!/usr/bin/env python3
"""Does the data stack slow the trivial case?  One warmboxd serves two
python languages from one run's profiles: `python` (the image with numpy,
pandas, scipy, matplotlib, ...) and `pyslim` (the same build without them,
WARMBOX_DATA_STACK=0); rounds interleave, each timing:

  warm  print(6*7)      on python and on pyslim (a pooled container each)
  warm  import pandas   on python
  floor print(6*7)      a pre-created container of each image started and
        import pandas   waited for directly (no daemon, no bootstrap)

and prints p50s, warm vs floor, and python vs pyslim (the "before").

    python3 tests/bench/bench_data.py [--n 20]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
import bench_image  # noqa: E402
import bench_pool as bp  # noqa: E402
from wbtest import BIN, ROOT, Daemon, wait_until  # noqa: E402

PANDAS = "import pandas\nprint(6*7)"


def profiles_dir():
    out = tempfile.mkdtemp(prefix="warmbox-bench-data-")
    shutil.copytree(os.path.join(ROOT, "profiles", "python"), os.path.join(out, "python"))
    shutil.copytree(os.path.join(ROOT, "profiles", "python"), os.path.join(out, "pyslim"))
    path = os.path.join(out, "pyslim", "profile.json")
    with open(path) as f:
        prof = json.load(f)
    prof.update(language="pyslim", aliases=[], image=bench_image.SLIM)
    with open(path, "w") as f:
        json.dump(prof, f)
    return out


def floor_body(profiles, language, code):
    out = subprocess.run([os.path.join(BIN, "warmboxd"), "--profiles", profiles, "--print-spec", language],
                         capture_output=True, check=True).stdout
    body = json.loads(out)
    body["Cmd"] = ["/usr/bin/python3", "-I", "-S", "-c",
                   "import sys; sys.path.append('/usr/lib/python3/dist-packages'); " + code.replace("\n", "; ")]
    for k in ("OpenStdin", "StdinOnce", "AttachStdin"):
        body[k] = False
    body["Labels"] = {"warmbox.instance": "bench-floor", "warmbox.owner": "bench"}
    return body


def floor(body):
    cid = bp.floor_create(body)
    try:
        return bp.floor_run(cid)
    finally:
        bp.floor_remove(cid)


def pools_full(d, n):
    st, body = d.request("GET", "/v1/pools")
    live = [p for p in body.get("pools", []) if not p["draining"] and not p.get("transient")]
    return len(live) == 2 and all(p["ready"] >= n and p["creating"] == 0 for p in live)


def warm(d, language, code):
    wait_until(lambda: pools_full(d, 2), timeout=30, step=0.05)
    time.sleep(bp.IDLE)
    t0 = time.time()
    st, r = d.run(language, code, timeout_ms=30000)
    elapsed = time.time() - t0
    if st != 200 or r.get("stdout") != "42\n" or not r.get("pool_hit"):
        raise RuntimeError("run %s: %s %s" % (language, st, r))
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20)
    a = ap.parse_args()
    bench_image.build_slim()
    profiles = profiles_dir()
    cfg = os.path.join(profiles, "config.json")
    with open(cfg, "w") as f:
        json.dump({"pools": {"default": {"min_ready": 2, "max_ready": 2}}}, f)
    d = Daemon(extra_args=["--profiles", profiles, "--config", cfg])
    bodies = {"floor print python": floor_body(profiles, "python", "print(6*7)"),
              "floor print pyslim": floor_body(profiles, "pyslim", "print(6*7)"),
              "floor pandas python": floor_body(profiles, "python", PANDAS)}
    modes = {"warm print python": lambda: warm(d, "python", "print(6*7)"),
             "warm print pyslim": lambda: warm(d, "pyslim", "print(6*7)"),
             "warm pandas python": lambda: warm(d, "python", PANDAS)}
    modes.update({k: (lambda b=b: floor(b)) for k, b in bodies.items()})
    times = {k: [] for k in modes}
    try:
        for k in modes:  # warm-up
            modes[k]()
        names = list(modes)
        for i in range(a.n):
            order = names[i % len(names):] + names[:i % len(names)]
            for k in order:
                times[k].append(modes[k]())
    finally:
        d.stop()
        bench_image.remove_slim()
        shutil.rmtree(profiles, ignore_errors=True)
    p50 = {k: bp.pct(v, 50) for k, v in times.items()}
    print("| n=%d, seconds | p50 | p99 |" % a.n)
    print("|---|---|---|")
    for k in modes:
        print("| %s | %.3f | %.3f |" % (k, p50[k], bp.pct(times[k], 99)))
    print("warm vs floor, print(6*7): with the data stack %+.1f%%, without %+.1f%%"
          % (100 * (p50["warm print python"] / p50["floor print python"] - 1),
             100 * (p50["warm print pyslim"] / p50["floor print pyslim"] - 1)))
    print("warm vs floor, import pandas: %+.1f%%" % (100 * (p50["warm pandas python"] / p50["floor pandas python"] - 1)))
    print("print(6*7) warm, with the data stack / without: %.3f" % (p50["warm print python"] / p50["warm print pyslim"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
