#!/usr/bin/env python3
"""What the python image's data stack costs at the engine: the same
container (the profile's user, no network, read-only root) created and run
from warmbox/python (with numpy, pandas, scipy, matplotlib, ...) and from a
build of the same image without them (WARMBOX_DATA_STACK=0, tagged
warmbox/python-slim), alternating, in one run: create, start-to-exit of
`python3 -c pass`, and the image sizes.  Prints medians and ratios.

    python3 tests/bench/bench_image.py [--n 20]

Containers are labelled warmbox.bench=image and removed; the slim image is
removed at the end.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def docker(*args, check=True):
    return subprocess.run(["docker"] + list(args), capture_output=True, text=True, check=check).stdout.strip()


def one(image):
    t0 = time.perf_counter()
    cid = docker("create", "--label", "warmbox.bench=image", "--network", "none", "--read-only",
                 "--user", "65534:65534", "--tmpfs", "/tmp:rw,noexec,nosuid,size=64m", image,
                 "/usr/bin/python3", "-I", "-S", "-c", "pass")
    t1 = time.perf_counter()
    docker("start", "-a", cid)
    t2 = time.perf_counter()
    docker("rm", "-f", cid)
    return (t1 - t0) * 1000, (t2 - t1) * 1000


SLIM = "warmbox/python-slim:latest"


def build_slim():
    """The python image without its data stack, as SLIM (remove_slim drops it)."""
    env = dict(os.environ, WARMBOX_DATA_STACK="0", WARMBOX_IMAGE_REPO=SLIM.split(":")[0])
    subprocess.run([os.path.join(ROOT, "profiles", "build-image.sh"), "python"], env=env, check=True)


def remove_slim():
    subprocess.run(["docker", "rmi", SLIM], capture_output=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20)
    a = ap.parse_args()
    build_slim()
    images = {"data": "warmbox/python:latest", "slim": SLIM}
    sizes = {k: int(docker("image", "inspect", "--format", "{{.Size}}", v)) for k, v in images.items()}
    got = {k: ([], []) for k in images}
    try:
        for k in images:  # one warm-up each
            one(images[k])
        for i in range(a.n):
            for k in (("data", "slim") if i % 2 == 0 else ("slim", "data")):
                c, s = one(images[k])
                got[k][0].append(c)
                got[k][1].append(s)
    finally:
        ids = docker("ps", "-aq", "--filter", "label=warmbox.bench=image", check=False).split()
        if ids:
            docker("rm", "-f", *ids, check=False)
        remove_slim()
    print("image          size     create p50   start-to-exit p50   (n=%d, alternating)" % a.n)
    for k in images:
        print("%-12s %5.0f MB   %7.1f ms   %10.1f ms" % (k, sizes[k] / 1e6, statistics.median(got[k][0]),
                                                         statistics.median(got[k][1])))
    print("data / slim:  create %.2fx, start-to-exit %.2fx" % (
        statistics.median(got["data"][0]) / statistics.median(got["slim"][0]),
        statistics.median(got["data"][1]) / statistics.median(got["slim"][1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
