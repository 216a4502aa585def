#!/usr/bin/env python3
"""The Piston-compatible endpoints: GET /api/v2/runtimes and POST
/api/v2/execute, driven by the npm package piston-client unchanged, and by
hand for the cases that client never sends (encodings, several files, bad
input, limits, auth errors in Piston's shape)."""
import base64
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import interleaving, Daemon, Tap, node_client_ready, node_steps, wait_until  # noqa: E402

t = Tap()
d = Daemon(tcp=True)


def execute(body, raw=None):
    return d.request("POST", "/api/v2/execute", body, raw=raw)


st, rts = d.request("GET", "/api/v2/runtimes")
t.ok(st == 200 and isinstance(rts, list) and {r["language"] for r in rts} >= {"python", "javascript"},
     "runtimes lists the languages", rts)
py = next(r for r in rts if r["language"] == "python")
t.ok(py["version"].count(".") == 2 and "py" in py["aliases"], "a semver version and aliases", py)

# ---- piston-client, unchanged ----------------------------------------------
# Two pipes: writes to stdout and stderr closer together than the engine's
# copying of each can come swapped (docs/api.md has the numbers); with this
# pause between the writes the order is the program's.
ORDER_PAUSE = os.environ.get("WARMBOX_ORDER_PAUSE", "0.05")
FEW_PAUSE = "0.25"  # four writes, compared exactly: far apart
if node_client_ready("piston-client"):
    rc, res, stderr = node_steps("piston_client.mjs", "http://127.0.0.1:%d" % d.port, ORDER_PAUSE, timeout=180)
    t.ok(rc == 0 and len(res) == 9, "piston-client ran every call", stderr[-2000:])
    t.ok(isinstance(res.get("runtimes"), list) and len(res["runtimes"]) == len(rts), "client: runtimes")
    run = (res.get("python") or {}).get("run", {})
    t.ok(run.get("stdout") == "hi ['1', '2', '3']\n" and run.get("code") == 0 and run.get("signal") is None
         and run.get("output") == run.get("stdout") and res["python"].get("language") == "python"
         and res["python"].get("version") == py["version"],
         "client: python runs with the client's default args", res.get("python"))
    run = (res.get("js_stdin") or {}).get("run", {})
    t.ok(run.get("stdout") == "FROM PISTON\n" and run.get("code") == 3 and run.get("status") == "RE",
         "client: javascript reads stdin; exit 3 is status RE", res.get("js_stdin"))
    run = (res.get("alias") or {}).get("run", {})
    t.ok(run.get("stdout") == "42\n" and res["alias"].get("language") == "python", "client: alias py", res.get("alias"))
    run = (res.get("timeout") or {}).get("run", {})
    t.ok(run.get("status") == "TO" and run.get("signal") == "SIGKILL" and run.get("code") is None,
         "client: run_timeout 500 ends in TO / SIGKILL", res.get("timeout"))
    t.ok("runtime is unknown" in (res.get("unknown") or {}).get("message", ""),
         "client: an unknown language gets Piston's message", res.get("unknown"))
    run = (res.get("example") or {}).get("run", {})
    t.ok(run.get("code") == 0 and "'my_cool_code.js'" in run.get("stdout", "") and "'1', '2', '3'" in run.get("stdout", "")
         and "main.js" not in run.get("stdout", ""),
         "client: Piston's documented example prints process.argv with my_cool_code.js", res.get("example"))
    run = (res.get("java_solution") or {}).get("run", {})
    t.ok(run.get("stdout") == "solved 3\n" and run.get("code") == 0,
         "client: java `public class Solution` runs", res.get("java_solution"))
    run = (res.get("order") or {}).get("run", {})
    merged, switches = interleaving(run.get("output") or "", run.get("stdout") or "", run.get("stderr") or "")
    t.ok(merged and switches >= 190
         and run.get("stdout") == "".join("o%d\n" % i for i in range(100))
         and run.get("stderr") == "".join("e%d\n" % i for i in range(100)) and run.get("code") == 0,
         "client: run.output has stdout and stderr in the order written (100 alternations, %s s apart: "
         "%d of 199 switches)" % (ORDER_PAUSE, switches),
         (run.get("output") or "")[:300])
else:
    t.ok(False, "piston-client is installed (scripts/setup.sh runs npm ci in tests/node)")

# ---- by hand ----------------------------------------------------------------
st, r = execute({"language": "python", "version": "3", "files": [
    {"name": "main.py", "content": base64.b64encode(b"print('b64')").decode(), "encoding": "base64"}]})
t.ok(st == 200 and r["run"]["stdout"] == "b64\n", "base64 file content, version prefix 3", r)
st, r = execute({"language": "python", "version": "*", "files": [
    {"content": b"print('hex')".hex(), "encoding": "hex"}]})
t.ok(st == 200 and r["run"]["stdout"] == "hex\n", "hex file content, version *", r)
st, r = execute({"language": "python", "version": "2.7.18", "files": [{"content": "print(1)"}]})
t.ok(st == 404 and "runtime is unknown" in r.get("message", "") and "error" not in r,
     "a version we do not have: 404 with Piston's {message}", (st, r))
st, r = execute({"language": "python", "files": [
    {"name": "main.py", "content": "import helper, csv\nprint(helper.X, open('d.csv').read().split(), open('b', 'rb').read())"},
    {"name": "helper.py", "content": "X = 41 + 1"},
    {"name": "d.csv", "content": "a,b\n1,2\n"},
    {"name": "b", "content": b"\x00\xff".hex(), "encoding": "hex"}]})
t.ok(st == 200 and r["run"]["stdout"] == "42 ['a,b', '1,2'] b'\\x00\\xff'\n",
     "several files: files[0] runs, the others are in its working directory (an importable module too)", (st, r))
st, r = execute({"language": "python", "files": [{"content": "print(1)"}, {"content": "x=1"}]})
t.ok(st == 400 and "files[1] needs a name" in r.get("message", ""), "a second file without a name: 400", (st, r))
st, r = execute(None, raw=b"{not json")
t.ok(st == 400 and "message" in r, "malformed JSON: 400 {message}", (st, r))
st, r = execute({"language": "python", "files": [{"content": "print(1)"}], "run_timeout": 10 ** 9})
t.ok(st == 400 and "maximum" in r.get("message", ""), "run_timeout above the maximum: 400", (st, r))
st, r = execute({"language": "python", "files": [{"content": "print(len(bytearray(200*1024*1024)))"}],
                 "run_memory_limit": 64 * 1024 * 1024, "compile_timeout": 10000, "compile_memory_limit": -1,
                 "run_cpu_time": 3000})
t.ok(st == 200 and r["run"]["signal"] == "SIGKILL" and r["run"]["status"] == "SG",
     "run_memory_limit in bytes is the memory limit (64 MiB: a 200 MiB buffer is killed)", r)
st, r = execute({"language": "javascript", "files": [{"content": "process.stdout.write(Buffer.from([0x61,0xff,0x62]));"
                                                                  "console.error('e')"}],
                 "args": [1, "two"]})
t.ok(st == 200 and r["run"]["stdout"] == "a\ufffdb" and r["run"]["stderr"] == "e\n"
     and r["run"]["output"] in ("a\ufffdbe\n", "e\na\ufffdb"),
     "non-UTF-8 bytes become U+FFFD; output has both streams (no pause between them: either order)", r)
st, r = execute({"language": "python", "files": [{"content": "import sys, time\n"
                                                              "print(0, flush=True); time.sleep(%s)\n"
                                                              "print(1, file=sys.stderr, flush=True); time.sleep(%s)\n"
                                                              "print(2, flush=True); time.sleep(%s)\n"
                                                              "print(3, file=sys.stderr, flush=True)\n"
                                                              % ((FEW_PAUSE,) * 3)}]})
t.ok(st == 200 and r["run"]["output"] == "0\n1\n2\n3\n" and r["run"]["stdout"] == "0\n2\n"
     and r["run"]["stderr"] == "1\n3\n", "out 0, err 1, out 2, err 3: run.output 0 1 2 3, as written", r)
st, r = execute({"language": "c", "files": [{"content": "#include <stdio.h>\nint main(void) { int unused; "
                                                         "printf(\"ran\\n\"); return 0; }\n"}]})
comp = r.get("compile") or {}
t.ok(st == 200 and "unused" in comp.get("stderr", "") and comp.get("output") == comp.get("stdout", "") + comp.get("stderr", "")
     and r["run"]["output"] == "ran\n",
     "c: compile.output is the compiler's warning (gcc writes only to stderr), run.output the program's", r)
st, r = execute({"language": "python", "files": [{"content": "import sys; print(sys.argv[1:])"}], "args": [1, 2.5, "x"]})
t.ok(st == 200 and r["run"]["stdout"] == "['1', '2.5', 'x']\n", "numeric args are stringified as Piston does", r)
st, r = d.request("GET", "/api/v2/execute")
t.ok(st == 400 and "POST" in r.get("message", ""), "GET on execute: 400 {message}", (st, r))

t.ok(wait_until(lambda: not d.our_running(), timeout=20), "no container left running")
t.is_eq(d.stop(), 0, "daemon exits 0")
t.ok(len(d.our_containers()) == 0, "no labelled container left after stop")
t.done()
