#!/usr/bin/env python3
"""The symbol check: a container's life belongs to sandbox/.

    scripts/symbols.py [BUILD]   check the objects built from exec/ (in
                                 BUILD, default build/): none may reference
                                 an engine call (eng_*) or the node
                                 accessor that hands out the engine
                                 (node_engine); exit 1 naming each one
    scripts/symbols.py --self-test
                                 show that the check fails: an object of
                                 exec/ compiled with a call to
                                 eng_container_start, and one with
                                 node_engine, must each be refused; TAP

The include check (scripts/layers.py) cannot see this: exec/ may include
nodes/nodes.h, which includes warmbox/engine.h, so a call of an engine
function from exec/ compiles.  What an object references is what it does:
`nm -u` lists it.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What no object of exec/ may reference: the engine's calls, and the way
# to one from a node.  Types (eng_result_t, ...) are no symbols.
FORBIDDEN = re.compile(r"^(eng_[a-z0-9_]+|node_engine)$")


def check(build):
    objs = sorted(glob.glob(os.path.join(build, "exec", "*.o")))
    problems = []
    if not objs:
        return ["no objects of exec/ in %s (build first: make all)" % build], 0
    for obj in objs:
        out = subprocess.run(["nm", "-u", obj], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            name = line.split()[-1]
            if FORBIDDEN.match(name):
                problems.append("%s references %s: a container's life is sandbox/'s (sbx_run_*, "
                                "sbx_create, sbx_remove)" % (os.path.relpath(obj, ROOT), name))
    return problems, len(objs)


def self_test():
    results = []
    problems, n = check(os.path.join(ROOT, "build"))
    results.append((not problems and n > 0, "the objects of exec/ as built (%d) pass%s"
                    % (n, "".join("\n# " + p for p in problems))))
    with tempfile.TemporaryDirectory(prefix="warmbox-symbols-") as tmp:
        os.makedirs(os.path.join(tmp, "exec"))
        for name, body in [("eng_container_start",
                            "void *eng_container_start (void *, const char *, void *, void *, void *);\n"
                            "void f (void); void f (void) { eng_container_start (0, 0, 0, 0, 0); }\n"),
                           ("node_engine",
                            "void *node_engine (void *);\n"
                            "void *g (void *n); void *g (void *n) { return node_engine (n); }\n")]:
            src = os.path.join(tmp, "probe.c")
            with open(src, "w") as f:
                f.write(body)
            obj = os.path.join(tmp, "exec", "probe.o")
            subprocess.run(["cc", "-c", src, "-o", obj], check=True)
            problems, _ = check(tmp)
            results.append((len(problems) == 1 and name in problems[0],
                            "an object of exec/ calling %s is refused" % name))
            os.unlink(obj)
    print("1..%d" % len(results))
    for i, (good, what) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if good else "not ok", i, what))
    sys.exit(0 if all(g for g, _ in results) else 1)


def main():
    if "--self-test" in sys.argv[1:]:
        self_test()
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    problems, n = check(build)
    for p in problems:
        print("symbols: " + p)
    print("symbols: %d objects of exec/, %d problems" % (n, len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
