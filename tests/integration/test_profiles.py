#!/usr/bin/env python3
"""Profiles: warmboxd --check-profiles, the loader's seccomp policy on real
files (unknown names and forbidden calls stop the daemon, naming the file
and the syscall), and the shipped allowlists against a fresh trace of the
benign corpus (profiles/derive-seccomp.py)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import ROOT, WARMBOXD, Tap  # noqa: E402

t = Tap()
SHIPPED = os.path.join(ROOT, "profiles")


def check(profiles_dir, *extra):
    r = subprocess.run([WARMBOXD, "--check-profiles", "--profiles", profiles_dir] + list(extra),
                       capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


rc, out = check(SHIPPED)
t.ok(rc == 0 and "profiles OK" in out and "profile python:" in out and "profile javascript:" in out,
     "--check-profiles accepts the shipped profiles", out)


def edited(edit):
    d = tempfile.mkdtemp(prefix="warmbox-badprof-")
    shutil.copytree(os.path.join(SHIPPED, "python"), os.path.join(d, "python"))
    path = os.path.join(d, "python", "seccomp.json")
    with open(path) as f:
        sc = json.load(f)
    edit(sc)
    with open(path, "w") as f:
        json.dump(sc, f)
    return d, path


cases = [
    ("an unknown syscall name", lambda sc: sc["syscalls"][0]["names"].append("wrtie"), '"wrtie"'),
    ("ptrace allowed", lambda sc: sc["syscalls"][0]["names"].append("ptrace"), '"ptrace" may never'),
    ("io_uring_setup allowed", lambda sc: sc["syscalls"].append(
        {"names": ["io_uring_setup"], "action": "SCMP_ACT_LOG"}), '"io_uring_setup" may never'),
    ("clone3 allowed", lambda sc: [r.update(action="SCMP_ACT_ALLOW") for r in sc["syscalls"]
                                   if r["names"] == ["clone3"]], '"clone3" may never'),
    ("socket without conditions", lambda sc: sc["syscalls"][0]["names"].append("socket"), "raw"),
    ("clone with namespace flags", lambda sc: sc["syscalls"][0]["names"].append("clone"), "namespace"),
]
for name, edit, want in cases:
    d, path = edited(edit)
    rc, out = check(d)
    t.ok(rc != 0 and path in out and want in out, "--check-profiles refuses %s, naming file and call" % name, out)
    # A real start refuses the same profile before it listens.
    sock = os.path.join(d, "wb.sock")
    r = subprocess.run([WARMBOXD, "--profiles", d, "--listen", "unix:" + sock,
                        "--store-path", os.path.join(d, "h.db")],
                       capture_output=True, text=True, timeout=60)
    t.ok(r.returncode != 0 and want in r.stderr and not os.path.exists(sock),
         "warmboxd does not start with %s" % name, r.stderr)
    shutil.rmtree(d)

# The shipped allowlists cover what the benign corpus calls today, in
# every language (two traced at a time: strace is most of the cost).  The
# compiled languages' corpora are traced every second program (a compiler
# under strace is slow; the compiler's calls are the same for each
# program): WARMBOX_TRACE_ALL=1 traces them whole.
COMPILED = {"c", "cpp", "go", "rust", "java"}
if os.geteuid() == 0 and shutil.which("strace") and os.path.exists("/usr/bin/docker-init"):
    import concurrent.futures as cf
    from wbtest import LANGUAGE_EXT

    def derive_one(lang, corpus, every):
        out = tempfile.mktemp(prefix="warmbox-derived-", suffix=".json")
        r = subprocess.run([sys.executable, os.path.join(SHIPPED, "derive-seccomp.py"), lang, "--out", out,
                            "--corpus", corpus, "--every", every], capture_output=True, text=True, timeout=900)
        derived = None
        if r.returncode == 0:
            with open(out) as f:
                derived = json.load(f)
            os.unlink(out)
        return r, derived

    def derive(lang):
        every = "2" if lang in COMPILED and not os.environ.get("WARMBOX_TRACE_ALL") else "1"
        r, derived = derive_one(lang, os.path.join(ROOT, "tests", "benign", lang), every)
        # The standard library's own tests (python): every third module (a
        # suite under strace is slow), or all with WARMBOX_TRACE_ALL=1.
        stdlib = os.path.join(ROOT, "tests", "benign", lang + "-stdlib")
        if derived is not None and os.path.isdir(stdlib):
            r, more = derive_one(lang, stdlib, "1" if os.environ.get("WARMBOX_TRACE_ALL") else "3")
            if more is None:
                derived = None
            else:
                derived["syscalls"] += more["syscalls"]
        return lang, r, derived

    with cf.ThreadPoolExecutor(2) as ex:
        for lang, r, derived in ex.map(derive, list(LANGUAGE_EXT)):
            if derived is None:
                t.ok(False, "%s: derive-seccomp.py runs" % lang, r.stderr)
                continue
            with open(os.path.join(SHIPPED, lang, "seccomp.json")) as f:
                shipped = json.load(f)
            names = lambda doc: {n for r in doc["syscalls"] for n in r["names"] if r["action"] == "SCMP_ACT_ALLOW"}
            missing = names(derived) - names(shipped)
            t.ok(not missing, "%s: the shipped allowlist has every call a fresh trace of the corpus shows" % lang,
                 "re-run profiles/derive-seccomp.py %s --runs 3; missing: %s" % (lang, sorted(missing)))
            extra = names(shipped) - names(derived)
            if extra:
                t.diag("%s: allowed but not traced this time: %s" % (lang, sorted(extra)))
else:
    t.diag("skipping the trace comparison (needs root, strace and docker-init)")
t.done()
