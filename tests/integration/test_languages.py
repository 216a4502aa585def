#!/usr/bin/env python3
"""Every language through every interface: a hello world, a stdin echo, an
arguments echo and a non-zero exit, through /v1, the CLI, Piston's npm
client and the MCP SDK; a compile error in each compiled language comes
back as compile_error with the compiler's message, and the program is not
run.  The language lists (/v1/languages, /api/v2/runtimes, `warmbox
languages`, the MCP tool's enum) name every language with its version."""
import concurrent.futures as cf
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import LANGUAGE_EXT, WARMBOX, Daemon, Tap, node_client_ready, node_steps  # noqa: E402

STDIN = "line one\nline two\n"
ARGS = ["a b", "c"]

# language: (hello, stdin echo, args echo joined by spaces, "bye" on stderr and exit 3)
PROGRAMS = {
    "python": ('print("hello world")',
               'import sys\nsys.stdout.write(sys.stdin.read())',
               'import sys\nprint(" ".join(sys.argv[1:]))',
               'import sys\nsys.stderr.write("bye\\n")\nsys.exit(3)'),
    "javascript": ('console.log("hello world")',
                   'process.stdout.write(require("fs").readFileSync(0))',
                   'console.log(process.argv.slice(2).join(" "))',
                   'process.stderr.write("bye\\n"); process.exitCode = 3'),
    "typescript": ('const greeting: string = "hello world";\nconsole.log(greeting);',
                   'import * as fs from "fs";\nconst data: Buffer = fs.readFileSync(0);\nprocess.stdout.write(data);',
                   'const args: string[] = process.argv.slice(2);\nconsole.log(args.join(" "));',
                   'process.stderr.write("bye\\n");\nprocess.exitCode = 3 as number;'),
    "bash": ('echo "hello world"', 'cat', 'echo "$*"', 'echo bye >&2\nexit 3'),
    "ruby": ('puts "hello world"', 'print $stdin.read', 'puts ARGV.join(" ")', '$stderr.puts "bye"\nexit 3'),
    "c": ('#include <stdio.h>\nint main(void) { puts("hello world"); return 0; }',
          '#include <stdio.h>\nint main(void) { int c; while ((c = getchar()) != EOF) putchar(c); return 0; }',
          '#include <stdio.h>\nint main(int argc, char **argv) {\n'
          '  for (int i = 1; i < argc; i++) printf("%s%s", argv[i], i + 1 < argc ? " " : "\\n");\n  return 0;\n}',
          '#include <stdio.h>\nint main(void) { fputs("bye\\n", stderr); return 3; }'),
    "cpp": ('#include <iostream>\nint main() { std::cout << "hello world" << std::endl; }',
            '#include <iostream>\nint main() { std::cout << std::cin.rdbuf(); }',
            '#include <iostream>\n#include <string>\nint main(int argc, char **argv) {\n  std::string s;\n'
            '  for (int i = 1; i < argc; i++) s += (i > 1 ? " " : "") + std::string(argv[i]);\n'
            '  std::cout << s << "\\n";\n}',
            '#include <iostream>\nint main() { std::cerr << "bye\\n"; return 3; }'),
    "go": ('package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello world") }',
           'package main\n\nimport (\n\t"io"\n\t"os"\n)\n\nfunc main() { io.Copy(os.Stdout, os.Stdin) }',
           'package main\n\nimport (\n\t"fmt"\n\t"os"\n\t"strings"\n)\n\n'
           'func main() { fmt.Println(strings.Join(os.Args[1:], " ")) }',
           'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tfmt.Fprintln(os.Stderr, "bye")\n\tos.Exit(3)\n}'),
    "rust": ('fn main() {\n    println!("hello world");\n}',
             'use std::io;\nfn main() {\n    io::copy(&mut io::stdin(), &mut io::stdout()).unwrap();\n}',
             'fn main() {\n    let a: Vec<String> = std::env::args().skip(1).collect();\n    println!("{}", a.join(" "));\n}',
             'fn main() {\n    eprintln!("bye");\n    std::process::exit(3);\n}'),
    "java": ('public class Main {\n  public static void main(String[] a) {\n    System.out.println("hello world");\n  }\n}',
             'public class Main {\n  public static void main(String[] a) throws Exception {\n'
             '    System.in.transferTo(System.out);\n  }\n}',
             'public class Main {\n  public static void main(String[] a) {\n'
             '    System.out.println(String.join(" ", a));\n  }\n}',
             'public class Main {\n  public static void main(String[] a) {\n    System.err.println("bye");\n'
             '    System.exit(3);\n  }\n}'),
}

# A compile error in each compiled language, and what its message must name.
COMPILE_ERRORS = {
    "c": ('#include <stdio.h>\nint main(void) { puts("RAN"); return undeclared_thing; }', "undeclared_thing"),
    "cpp": ('#include <cstdio>\nint main() { puts("RAN"); return undeclared_thing; }', "undeclared_thing"),
    "go": ('package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("RAN")\n\tfmt.Println(undeclared_thing)\n}',
           "undeclared_thing"),
    "rust": ('fn main() {\n    println!("RAN");\n    println!("{}", undeclared_thing);\n}', "undeclared_thing"),
    "java": ('public class Main {\n  public static void main(String[] a) {\n    System.out.println("RAN");\n'
             '    System.out.println(undeclared_thing);\n  }\n}', "undeclared_thing"),
    "typescript": ('console.log("RAN");\nlet x: number = ;\n', "TS1109"),
}

CASES = []
for lang, (hello, echo, args, exit3) in PROGRAMS.items():
    CASES += [
        {"name": "%s hello" % lang, "language": lang, "code": hello, "want_out": "hello world\n", "want_exit": 0},
        {"name": "%s stdin" % lang, "language": lang, "code": echo, "stdin": STDIN, "want_out": STDIN, "want_exit": 0},
        {"name": "%s args" % lang, "language": lang, "code": args, "args": ARGS, "want_out": "a b c\n", "want_exit": 0},
        {"name": "%s exit" % lang, "language": lang, "code": exit3, "want_out": "", "want_err": "bye\n",
         "want_exit": 3},
    ]
# A warning (gcc -Wall): the program runs; the warning is the compile stage's.
CASES.append({"name": "c warning", "language": "c", "want_out": "ok\n", "want_exit": 0, "warning": "unused",
              "code": '#include <stdio.h>\nint main(void) { int unused_var; puts("ok"); return 0; }'})
for lang, (code, word) in COMPILE_ERRORS.items():
    CASES.append({"name": "%s compile error" % lang, "language": lang, "code": code, "compile_error": word})

t = Tap()
t.ok(set(PROGRAMS) == set(LANGUAGE_EXT), "the cases cover every language of the corpora",
     sorted(set(PROGRAMS) ^ set(LANGUAGE_EXT)))
d = Daemon(tcp=True)

# ---- the lists ---------------------------------------------------------------

st, langs = d.request("GET", "/v1/languages")
by_lang = {x["language"]: x for x in langs.get("languages", [])} if st == 200 else {}
t.ok(set(PROGRAMS) <= set(by_lang) and all(by_lang[x].get("version") for x in PROGRAMS),
     "/v1/languages names every language with its version", sorted(by_lang))
t.ok(all(by_lang.get(x, {}).get("compiled") is (x in COMPILE_ERRORS) for x in PROGRAMS)
     and all("timeout_ms" in by_lang[x].get("compile", {}).get("default", {}) for x in COMPILE_ERRORS),
     "/v1/languages says which languages compile, with the compile stage's limits")
cli = subprocess.run([WARMBOX, "--url", "unix:" + d.sock, "languages"], capture_output=True, text=True, timeout=30)
listed = {line.split()[0]: line.split()[1] for line in cli.stdout.splitlines()[1:] if line.split()}
t.ok(cli.returncode == 0 and all(listed.get(x) == by_lang[x]["version"] for x in PROGRAMS),
     "`warmbox languages` lists every language with its version", cli.stdout)


# ---- /v1 ------------------------------------------------------------------------

def v1(case):
    body = {"language": case["language"], "code": case["code"], "timeout_ms": 20000}
    if case.get("stdin"):
        body["stdin"] = case["stdin"]
    if case.get("args"):
        body["args"] = case["args"]
    return d.request("POST", "/v1/executions", body, timeout=180)


def judge_v1(case, st, r):
    if "compile_error" in case:
        c = r.get("compile") or {}
        return (st == 200 and r.get("status") == "compile_error" and r.get("exit_code") is None
                and r.get("stdout") == "" and c.get("status") == "error" and c.get("exit_code", 0) != 0
                and case["compile_error"] in (c.get("stderr", "") + c.get("stdout", "")))
    good = (st == 200 and r.get("status") == "ok" and r.get("exit_code") == case["want_exit"]
            and r.get("stdout") == case["want_out"] and r.get("stderr") == case.get("want_err", ""))
    if case["language"] in COMPILE_ERRORS:
        good = good and (r.get("compile") or {}).get("status") == "ok"
    else:
        good = good and r.get("compile") is None
    if "warning" in case:
        good = good and case["warning"] in (r.get("compile") or {}).get("stderr", "")
    return good


with cf.ThreadPoolExecutor(4) as ex:
    for case, (st, r) in zip(CASES, ex.map(v1, CASES)):
        t.ok(judge_v1(case, st, r), "/v1: %s" % case["name"],
             (st, {k: r.get(k) for k in ("status", "exit_code", "stdout", "stderr", "compile", "error")}
              if isinstance(r, dict) else r))


# ---- the CLI ----------------------------------------------------------------------

def cli_run(case):
    argv = [WARMBOX, "--url", "unix:" + d.sock, "run", case["language"], "-c", case["code"], "--timeout", "20000"]
    if case.get("stdin"):
        argv += ["--stdin", "-"]
    if case.get("args"):
        argv += ["--"] + case["args"]
    return subprocess.run(argv, input=case.get("stdin", ""), capture_output=True, text=True, timeout=180)


with cf.ThreadPoolExecutor(4) as ex:
    for case, p in zip(CASES, ex.map(cli_run, CASES)):
        if "compile_error" in case:
            good = p.returncode == 126 and case["compile_error"] in p.stderr and "RAN" not in p.stdout
        else:
            good = (p.returncode == case["want_exit"] and p.stdout == case["want_out"]
                    and p.stderr == case.get("want_err", ""))
        t.ok(good, "CLI: %s" % case["name"], (p.returncode, p.stdout[-300:], p.stderr[-500:]))

# ---- Piston's client and MCP's SDK --------------------------------------------------

cases_file = os.path.join(tempfile.mkdtemp(prefix="wb-langs-"), "cases.json")
with open(cases_file, "w") as f:
    json.dump([{k: c[k] for k in ("name", "language", "code", "stdin", "args") if k in c} for c in CASES], f)

if not node_client_ready("piston-client"):
    t.skip("Piston's client: piston-client is not installed in tests/node (scripts/setup.sh)")
else:
    rc, res, stderr = node_steps("languages.mjs", "piston", "http://127.0.0.1:%d" % d.port, cases_file, timeout=900)
    runtimes = {x.get("language"): x.get("version") for x in res.get("runtimes", [])}
    t.ok(rc == 0 and all(runtimes.get(x, "").startswith(by_lang[x]["version"].split(".")[0]) for x in PROGRAMS),
         "Piston's client lists every language with its version", (rc, runtimes, stderr[-500:]))
    for case in CASES:
        r = res.get(case["name"]) or {}
        run, comp = r.get("run") or {}, r.get("compile")
        if "compile_error" in case:
            good = (isinstance(comp, dict) and comp.get("code") not in (0, None)
                    and case["compile_error"] in comp.get("stderr", "") + comp.get("stdout", "")
                    and run.get("code") is None and run.get("stdout") == "" and "RAN" not in run.get("output", ""))
        else:
            good = (run.get("stdout") == case["want_out"] and run.get("code") == case["want_exit"]
                    and run.get("stderr") == case.get("want_err", ""))
            good = good and ((isinstance(comp, dict) and comp.get("code") == 0) if case["language"] in COMPILE_ERRORS
                             else comp is None)
        t.ok(good, "Piston's client: %s" % case["name"], r)

if not node_client_ready("@modelcontextprotocol/sdk"):
    t.skip("MCP: the MCP SDK is not installed in tests/node (scripts/setup.sh)")
else:
    rc, res, stderr = node_steps("languages.mjs", "mcp", WARMBOX, "unix:" + d.sock, cases_file, timeout=900)
    tools = res.get("tools") or [{}]
    prop = tools[0].get("inputSchema", {}).get("properties", {}).get("language", {})
    t.ok(rc == 0 and set(PROGRAMS) <= set(prop.get("enum", []))
         and all("%s %s" % (x, by_lang[x]["version"]) in prop.get("description", "") for x in PROGRAMS),
         "MCP: the tool's language enum and description name every language with its version",
         (rc, prop, stderr[-500:]))
    for case in CASES:
        r = res.get(case["name"]) or {}
        text = "".join(c.get("text", "") for c in r.get("content", []) if c.get("type") == "text")
        if "compile_error" in case:
            # (the compiler quotes the source, "RAN" included: no stdout section is the proof)
            good = (r.get("isError") is True and text.startswith("compile error")
                    and case["compile_error"] in text and "--- stdout ---" not in text)
        else:
            good = (("exit status %d" % case["want_exit"]) in text and case["want_out"] in text
                    and case.get("want_err", "") in text and bool(r.get("isError")) is False)
            if "warning" in case:
                good = good and "--- compiler warnings ---" in text and case["warning"] in text
        t.ok(good, "MCP: %s" % case["name"], (r, stderr[-300:]))

# ---- edges of the source-file languages -------------------------------------------

many = [{"name": "f%02d.txt" % i, "content": str(i)} for i in range(64)]
st, r = d.run("bash", "ls | wc -l; cat f63.txt", files=many)
t.ok(st == 200 and r.get("status") == "ok" and r.get("stdout") == "65\n63",
     "bash: 64 given files beside the source file", (st, r.get("stdout"), r.get("stderr")))
st, r = d.run("c", "int main(void){return 0;}", files=[{"name": "main.c", "content": "x"}])
t.ok(st == 400 and "main.c" in r.get("error", {}).get("message", ""),
     "a given file named as the source file: 400", (st, r))
st, r = d.request("POST", "/v1/executions", {"language": "python", "code": "1", "compile_timeout_ms": None,
                                              "compile_memory_mb": 512})
t.ok(st == 400 and "no compile stage" in r.get("error", {}).get("message", ""),
     "compile limits for a language without a compile stage: 400, whichever of them is set", (st, r))

# ---- pools for ten languages -------------------------------------------------------

st, pools = d.request("GET", "/v1/pools")
warm = {p["language"]: p for p in pools.get("pools", []) if not p.get("transient") and not p.get("draining")}
t.ok(set(PROGRAMS) <= set(warm) and all(warm[x]["min_ready"] == 1 for x in PROGRAMS),
     "by default every language has a warm pool of min_ready 1 (ten languages: ten idle containers, not twenty)",
     {x: (warm.get(x) or {}).get("min_ready") for x in PROGRAMS})
cfg_dir = tempfile.mkdtemp(prefix="wb-langs-cfg-")
cfg = os.path.join(cfg_dir, "config.json")
with open(cfg, "w") as f:
    json.dump({"max_containers": 3, "shutdown_grace_ms": 1000,
               "pools": {"default": {"min_ready": 0, "max_ready": 0},
                                              "c": {"min_ready": 1, "max_ready": 2}}}, f)
small = Daemon(extra_args=["--config", cfg])
st, r = small.run("ruby", 'puts "cold"')
st2, r2 = small.run("c", '#include <stdio.h>\nint main(void){puts("warm");}', timeout_ms=20000)
t.ok(st == 200 and r.get("stdout") == "cold\n" and r.get("pool_hit") is False,
     "a language whose pool is 0 is still served (cold)", (st, r.get("stdout"), r.get("pool_hit")))
t.ok(st2 == 200 and r2.get("stdout") == "warm\n", "a language with a pool is served from it", (st2, r2))
st, pools = small.request("GET", "/v1/pools")
held = sum(p["ready"] + p["creating"] + p["in_use"] for p in pools.get("pools", []))
t.ok(st == 200 and held <= 3, "the global cap (max_containers 3) holds over every language's pool", pools)
t.ok("shutdown_grace_ms 1000 is shorter than the longest execution the profiles allow" in small.read_log(),
     "a shutdown_grace_ms shorter than the longest execution (a compile stage's included) is warned of",
     small.read_log()[-500:])
t.is_eq(small.stop(), 0, "that daemon exits 0")

# ---- the history ------------------------------------------------------------------
import sqlite3  # noqa: E402

db = sqlite3.connect(d.db)
rows = db.execute("SELECT language, status, compile_status, compile_ms FROM executions "
                  "WHERE status IN ('ok', 'compile_error')").fetchall()
db.close()
t.ok(any(r[0] == "c" and r[1] == "compile_error" and r[2] == "error" and r[3] is not None and r[3] >= 0 for r in rows)
     and any(r[0] == "go" and r[1] == "ok" and r[2] == "ok" and r[3] > 0 for r in rows)
     and all(r[2] is None for r in rows if r[0] in ("python", "bash", "ruby", "javascript")),
     "the history: a compile error's row (status compile_error, compile_status error), compile times for compiled "
     "languages, none for the others", rows[:5])

t.is_eq(d.stop(), 0, "daemon exits 0")
t.done()
