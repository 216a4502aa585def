#!/usr/bin/env python3
"""Per language: a hello world through warmboxd (a pooled container, warm)
against the engine floor for the same hello world, and the compile stage
alone, in one run with the rounds interleaved.

  floor    the container warmboxd would create (its --print-spec body),
           pre-created, then attached, started, given the init's line and
           the frame, and read to its end: what a client doing the same
           work on the engine directly pays, compile included
  warm     POST /v1/executions of the same code, a pool hit
  compile  the compile stage alone, as the sandbox's init measured it in
           the warm runs (compiled languages)

    python3 tests/bench/bench_languages.py [--n 10] [--languages c,go,...]
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
import bench_pool as bp  # noqa: E402
from wbtest import BIN, ROOT, Daemon, wait_until  # noqa: E402

HELLO = {
    "python": 'print("hello world")',
    "javascript": 'console.log("hello world")',
    "typescript": 'const s: string = "hello world";\nconsole.log(s);',
    "bash": 'echo "hello world"',
    "ruby": 'puts "hello world"',
    "c": '#include <stdio.h>\nint main(void) { puts("hello world"); return 0; }',
    "cpp": '#include <iostream>\nint main() { std::cout << "hello world" << std::endl; }',
    "go": 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello world") }',
    "rust": 'fn main() {\n    println!("hello world");\n}',
    "java": 'public class Main {\n  public static void main(String[] a) {\n    System.out.println("hello world");\n  }\n}',
}


def profile(language):
    with open(os.path.join(ROOT, "profiles", language, "profile.json")) as f:
        return json.load(f)


def floor_spec(language):
    out = subprocess.run([os.path.join(BIN, "warmboxd"), "--print-spec", language],
                         capture_output=True, check=True).stdout
    body = json.loads(out)
    body["Labels"] = {"warmbox.instance": "bench-floor", "warmbox.owner": "bench"}
    return body


def floor_run(cid, language):
    """The init's line (with the compile stage's limits) and the hello
    world's frame through an attached, pre-created container: seconds from
    start to the output's end."""
    p = profile(language)
    line = b"w1 " + os.urandom(16).hex().encode() + b" 64 1048576 0"
    if "compile" in p:
        dl = p["limits"]["default"]
        line += b" %d %d %d" % (dl["compile_timeout_ms"], dl["compile_output_bytes"], dl["timeout_ms"])
    return bp.attach_run(cid, line, HELLO[language], b"hello world\n")


def floor(body, language):
    cid = bp.floor_create(body)
    try:
        return floor_run(cid, language)
    finally:
        bp.floor_remove(cid)


def pool_ready(d, language):
    st, body = d.request("GET", "/v1/pools")
    live = [p for p in body.get("pools", []) if p["language"] == language and not p["draining"]
            and not p.get("transient")]
    return bool(live) and all(p["ready"] >= 1 and p["creating"] == 0 for p in live)


def warm(d, language, compile_ms):
    wait_until(lambda: pool_ready(d, language), timeout=60, step=0.05)
    time.sleep(bp.IDLE)
    t0 = time.time()
    st, r = d.run(language, HELLO[language], timeout_ms=30000)
    elapsed = time.time() - t0
    if st != 200 or r.get("stdout") != "hello world\n" or not r.get("pool_hit"):
        raise RuntimeError("warm %s: %s %s" % (language, st, r))
    if r.get("compile"):
        compile_ms.append(r["compile"]["duration_ms"] / 1000.0)
    return elapsed


def measure(languages, n):
    """{language: {"warm": [s], "floor": [s], "compile": [s]}}"""
    d = Daemon()
    times = {x: {"warm": [], "floor": [], "compile": []} for x in languages}
    bodies = {x: floor_spec(x) for x in languages}
    modes = []
    for x in languages:
        modes.append((x, "warm", lambda x=x: warm(d, x, times[x]["compile"])))
        modes.append((x, "floor", lambda x=x: floor(bodies[x], x)))
    try:
        for _, _, fn in modes:  # warm-up: images in the page cache, pools made
            fn()
        for x in languages:
            times[x]["compile"].clear()
        for i in range(n):
            order = modes[i % len(modes):] + modes[:i % len(modes)]
            for x, kind, fn in order:
                times[x][kind].append(fn())
    finally:
        d.stop()
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--languages", default=",".join(HELLO))
    a = ap.parse_args()
    languages = a.languages.split(",")
    times = measure(languages, a.n)
    print("| language (n=%d, seconds) | warm p50 | floor p50 | warm / floor | compile p50 |" % a.n)
    print("|---|---|---|---|---|")
    for x in languages:
        w, f, c = (bp.pct(times[x][k], 50) for k in ("warm", "floor", "compile"))
        print("| %s | %.3f | %.3f | %.2f | %s |" % (x, w, f, w / f, "%.3f" % c if times[x]["compile"] else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
