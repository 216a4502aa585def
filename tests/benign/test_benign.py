#!/usr/bin/env python3
"""The benign corpus: ordinary programs across Python's and Node's standard
libraries.  Each must run under the profiles (seccomp allowlist included)
and print OK; the seccomp allowlists are judged against this corpus."""
import concurrent.futures as cf
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))
from wbtest import corpus_daemon  # noqa: E402

# WARMBOX_RUNTIME=runsc runs the same corpus under gVisor (skipped when the
# engine has no such runtime).
RUNTIME, t, d = corpus_daemon()
programs = []
for lang, ext in (("python", ".py"), ("javascript", ".js")):
    for name in sorted(os.listdir(os.path.join(HERE, lang))):
        if name.endswith(ext):
            with open(os.path.join(HERE, lang, name)) as f:
                programs.append((lang, name, f.read()))


def run(p):
    lang, name, code = p
    st, r = d.run(lang, code, timeout_ms=20000)
    return p, st, r


with cf.ThreadPoolExecutor(4) as ex:
    for (lang, name, _), st, r in ex.map(run, programs):
        t.ok(st == 200 and r.get("status") == "ok" and r.get("exit_code") == 0
             and r.get("stdout", "").rstrip().endswith("OK"),
             "%s/%s" % (lang, name),
             (st, {k: r.get(k) for k in ("status", "exit_code", "stdout", "stderr")} if isinstance(r, dict) else r))
t.ok(sum(1 for p in programs if p[0] == "python") >= 30 and sum(1 for p in programs if p[0] == "javascript") >= 30,
     "at least 30 programs per language")
t.is_eq(d.stop(), 0, "daemon exits 0")
t.done()
