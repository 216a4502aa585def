#!/usr/bin/env python3
"""The benign corpus: ordinary programs across each language's standard
library (and the shell's tools).  Each must run under its profile (seccomp
allowlist included) and print OK; the seccomp allowlists are judged against
this corpus.

A program NAME.EXT may come with NAME.stdin (sent as its stdin) and a folder
NAME.files/ (its files, sent as the request's files[]): programs in several
files, and the usual ways of reading stdin.

Under gVisor (WARMBOX_RUNTIME=runsc) the interpreted languages run whole and
the others a subset (WARMBOX_CORPUS_SUBSET programs each, default 4; 0: all):
their compilers trace through the same kernel surface, and the whole corpora
under runc keep make test within its time.  `make corpora` runs everything
under both runtimes."""
import base64
import concurrent.futures as cf
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))
from wbtest import LANGUAGE_EXT, corpus_daemon  # noqa: E402

# WARMBOX_RUNTIME=runsc runs the same corpus under gVisor (skipped when the
# engine has no such runtime).
RUNTIME, t, d = corpus_daemon()
SUBSET = int(os.environ.get("WARMBOX_CORPUS_SUBSET", "4" if RUNTIME == "runsc" else "0"))
MINIMUM = {"python": 70, "javascript": 30}
programs = []
for lang, ext in LANGUAGE_EXT.items():
    names = sorted(n for n in os.listdir(os.path.join(HERE, lang)) if n.endswith(ext))
    if SUBSET and lang not in ("python", "javascript"):
        names = names[:: max(1, len(names) // SUBSET)][:SUBSET]
    for name in names:
        with open(os.path.join(HERE, lang, name)) as f:
            programs.append((lang, name, f.read()))


def inputs(lang, name):
    """The request's stdin and files[] for a corpus program (its sidecars)."""
    base = os.path.join(HERE, lang, os.path.splitext(name)[0])
    extra = {}
    if os.path.exists(base + ".stdin"):
        with open(base + ".stdin", "rb") as f:
            extra["stdin_base64"] = base64.b64encode(f.read()).decode()
    if os.path.isdir(base + ".files"):
        extra["files"] = []
        for n in sorted(os.listdir(base + ".files")):
            with open(os.path.join(base + ".files", n), "rb") as f:
                extra["files"].append({"name": n, "content": base64.b64encode(f.read()).decode(),
                                       "encoding": "base64"})
    return extra


# A compiled language gets the profile's longest compile: four heavy
# compiles at once (cpp's <regex>) take ~25 s each on 2 cores, and this
# corpus checks what the programs do, not how fast they build.
COMPILED = {l["language"] for l in d.request("GET", "/v1/languages")[1]["languages"] if l.get("compiled")}


def run(p):
    lang, name, code = p
    extra = {"compile_timeout_ms": 60000} if lang in COMPILED else {}
    extra.update(inputs(lang, name))
    st, r = d.run(lang, code, timeout_ms=20000, **extra)
    return p, st, r


# Under gVisor (Debian's runsc), programs that take a path gVisor answers
# differently from Linux, measured 2026-12-01 (profiles/README.md, the
# corpora's pass rates): reported as TAP TODO when they fail there, never
# skipped, and they must pass under runc.
GVISOR_KNOWN = {
    "python/subprocess_tools.py": "statx with AT_NO_AUTOMOUNT answers EINVAL: coreutils' ls -l and stat fail",
    "bash/files_workdir.sh": "statx with AT_NO_AUTOMOUNT answers EINVAL (coreutils' stat)",
    "bash/sort_cut_join.sh": "statx with AT_NO_AUTOMOUNT answers EINVAL (coreutils' ls)",
    "bash/sleep_timeout.sh": "select, which the host's trace never shows (read -t)",
    "ruby/io_pipes_select.rb": "select, which the host's trace never shows (IO.select)",
    "c/poll_select.c": "select, which the host's trace never shows",
    "ruby/files_stringio_tempfile.rb": "sendfile where the host's kernel used copy_file_range (FileUtils.cp)",
    "typescript/fs_cwd.ts": "sendfile where the host's kernel used copy_file_range (fs.copyFile)",
    "c/random_numbers.c": "a short read of /dev/urandom",
}

with cf.ThreadPoolExecutor(4) as ex:
    for (lang, name, _), st, r in ex.map(run, programs):
        good = st == 200 and r.get("status") == "ok" and r.get("exit_code") == 0 \
            and r.get("stdout", "").rstrip().endswith("OK")
        diag = (st, {k: r.get(k) for k in ("status", "exit_code", "stdout", "stderr", "compile")}
                if isinstance(r, dict) else r)
        known = GVISOR_KNOWN.get("%s/%s" % (lang, name)) if RUNTIME == "runsc" else None
        if known and not good:
            t.todo("%s/%s" % (lang, name), "gVisor: " + known, diag)
        else:
            t.ok(good, "%s/%s" % (lang, name), diag)
for lang, ext in LANGUAGE_EXT.items():
    n = len([x for x in os.listdir(os.path.join(HERE, lang)) if x.endswith(ext)])
    t.ok(n >= MINIMUM.get(lang, 20), "%s: %d programs in the corpus (at least %d)" % (lang, n, MINIMUM.get(lang, 20)))
t.is_eq(d.stop(), 0, "daemon exits 0")
t.done()
