#!/usr/bin/env python3
"""CPython's own regression tests, in the sandbox: the part of the
standard library agents' code stands on (csv, json, tempfile, zipfile,
subprocess, threading, multiprocessing, ...), as `python3 -m test` runs
them, under the shipped python profile (its allowlist, its limits, its
argv) in an image that adds Debian's libpython3.11-testsuite to the
shipped one (a test fixture: the shipped image has no test package).

Each program of tests/benign/python-stdlib/ runs one test module with no
resources enabled (network, large files, GUI) and leaves out, with `-i`,
the cases that cannot hold in any sandbox, each with a comment saying why
(profiles/README.md lists them).  The allowlist is derived from these
programs too (profiles/derive-seccomp.py traces both corpora).

WARMBOX_RUNTIME=runsc runs them under gVisor."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import concurrent.futures as cf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))
from wbtest import ENGINE_KIND, ROOT, Daemon, Tap, engine_runtimes, oci_load_image  # noqa: E402

CORPUS = os.path.join(HERE, "python-stdlib")
IMAGE = "warmbox/python-stdlib-tests"

t = Tap()
runtime = os.environ.get("WARMBOX_RUNTIME", "runc")
if runtime not in engine_runtimes():
    print("1..0 # SKIP the engine has no %s runtime" % runtime)
    sys.exit(0)
if subprocess.run(["dpkg-query", "-W", "libpython3.11-testsuite"], capture_output=True).returncode != 0:
    print("1..0 # SKIP Debian's libpython3.11-testsuite is not installed (scripts/setup.sh installs it)")
    sys.exit(0)

# The fixture image: the shipped python image plus the test package
# (build-image.sh reuses it when nothing changed).
env = dict(os.environ, WARMBOX_PYTHON_TESTSUITE="1", WARMBOX_IMAGE_REPO=IMAGE)
r = subprocess.run([os.path.join(ROOT, "profiles", "build-image.sh"), "python"], env=env,
                   capture_output=True, text=True, timeout=900)
if not t.ok(r.returncode == 0, "the test-suite image builds", r.stdout + r.stderr):
    t.done()
if ENGINE_KIND == "oci":
    oci_load_image(IMAGE + ":latest")

# The shipped python profile, byte for byte but for its image (and the
# runtime asked for).
profiles = tempfile.mkdtemp(prefix="warmbox-stdlib-profiles-")
shutil.copytree(os.path.join(ROOT, "profiles", "python"), os.path.join(profiles, "python"),
                ignore=shutil.ignore_patterns("__pycache__"))
path = os.path.join(profiles, "python", "profile.json")
with open(path) as f:
    prof = json.load(f)
prof["image"] = IMAGE + ":latest"
prof["runtime"] = runtime
with open(path, "w") as f:
    json.dump(prof, f, indent=2)
with open(os.path.join(ROOT, "profiles", "python", "seccomp.json"), "rb") as f1, \
        open(os.path.join(profiles, "python", "seccomp.json"), "rb") as f2:
    t.ok(f1.read() == f2.read(), "the shipped allowlist, unchanged")

d = Daemon(extra_args=["--profiles", profiles])
limits = d.request("GET", "/v1/languages")[1]["languages"][0]["max"]
programs = sorted(n for n in os.listdir(CORPUS) if n.endswith(".py"))


def run(name):
    with open(os.path.join(CORPUS, name)) as f:
        code = f.read()
    # The longest run a request may ask for, and memory for the suites
    # that build big objects; everything else is the profile's default.
    return name, d.run("python", code, timeout_ms=limits["timeout_ms"], memory_mb=1024)


def failures(text):
    """regrtest's FAIL/ERROR lines and the last error line of each."""
    keep = [l for l in text.splitlines() if re.match(r"(FAIL|ERROR): |\w+Error: |test_\w+ failed", l)]
    return "\n".join(keep[:20]) or text[-1500:]


with cf.ThreadPoolExecutor(2) as ex:
    for name, (st, res) in ex.map(run, programs):
        out = res.get("stdout", "") if isinstance(res, dict) else ""
        good = st == 200 and res.get("status") == "ok" and res.get("exit_code") == 0 \
            and out.rstrip().endswith("Tests result: SUCCESS")
        t.ok(good, "%s (%s)" % (name, runtime),
             None if good or not isinstance(res, dict) else
             "status %s exit %s\n%s" % (res.get("status"), res.get("exit_code"),
                                        failures(out + "\n" + res.get("stderr", ""))))
t.ok(len(programs) >= 50, "%d test modules in the corpus" % len(programs))
t.is_eq(d.stop(), 0, "daemon exits 0")
shutil.rmtree(profiles, ignore_errors=True)
t.done()
