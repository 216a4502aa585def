#!/usr/bin/env python3
"""Programs as agents write them (issue 25): Java runs whatever its public
class is called (a package, several files; no main method is a clear
compile error), and the program's file keeps the client's name
(`filename` in /v1, files[0].name in Piston's API): __file__, argv, $0,
tracebacks and compiler messages say it.  Each case through /v1 and
through /api/v2/execute; bad names get a clear 400 from both."""
import concurrent.futures as cf
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import Daemon, Tap, wait_until  # noqa: E402

t = Tap()
d = Daemon(tcp=True)


def v1(language, code, **kw):
    st, r = d.run(language, code, compile_timeout_ms=60000, **kw) if language in COMPILED else \
        d.run(language, code, **kw)
    return st, r


def piston(language, files, **kw):
    body = {"language": language, "files": files}
    body.update(kw)
    return d.request("POST", "/api/v2/execute", body)


COMPILED = {l["language"] for l in d.request("GET", "/v1/languages")[1]["languages"] if l.get("compiled")}
READY = {l["language"] for l in d.request("GET", "/v1/languages")[1]["languages"] if l.get("ready")}

SOLUTION = ("import java.util.*;\n\npublic class Solution {\n"
            "    public static void main(String[] args) {\n"
            "        System.out.println(\"sum \" + Arrays.stream(args).mapToInt(Integer::parseInt).sum());\n"
            "    }\n}\n")
HELLO = ("// HelloWorld.java\npublic class HelloWorld {\n"
         "    public static void main(String[] args) { System.out.println(\"Hello, World!\"); }\n}\n")
PACKAGED = ("package com.example;\n\n/** The entry point. */\npublic final class App {\n"
            "    public static void main(String... args) {\n"
            "        System.out.println(App.class.getName() + \" \" + new Greeter().greet(\"agent\"));\n"
            "    }\n}\n")
GREETER = "package com.example;\n\nclass Greeter {\n    String greet(String who) { return \"hello \" + who; }\n}\n"
TWO_MAIN = ("public class Main {\n    public static void main(String[] args) {\n"
            "        System.out.println(Geometry.area(3, 4));\n    }\n}\n")
TWO_HELPER = "public class Geometry {\n    static int area(int w, int h) { return w * h; }\n}\n"
NO_MAIN = "public class Library {\n    public int twice(int x) { return 2 * x; }\n}\n"

jobs = {}
with cf.ThreadPoolExecutor(4) as ex:
    def go(name, fn, *a, **kw):
        jobs[name] = ex.submit(fn, *a, **kw)

    # ---- Java: the class names the file, and is what runs ---------------
    go("v1 Solution", v1, "java", SOLUTION, args=["1", "2", "39"])
    go("piston Solution", piston, "java", [{"name": "Main.java", "content": SOLUTION}], args=["1", "2", "39"])
    go("v1 HelloWorld", v1, "java", HELLO)
    go("piston HelloWorld", piston, "java", [{"content": HELLO}])
    go("v1 package", v1, "java", PACKAGED, files=[{"name": "Greeter.java", "content": GREETER}])
    go("piston package", piston, "java", [{"name": "App.java", "content": PACKAGED},
                                          {"name": "Greeter.java", "content": GREETER}])
    go("v1 two files", v1, "java", TWO_MAIN, files=[{"name": "Geometry.java", "content": TWO_HELPER}])
    go("piston two files", piston, "java", [{"name": "Main.java", "content": TWO_MAIN},
                                            {"name": "Geometry.java", "content": TWO_HELPER}])
    go("v1 no main", v1, "java", NO_MAIN)
    go("piston no main", piston, "java", [{"content": NO_MAIN}])
    go("v1 Main.java given too", v1, "java", TWO_MAIN, files=[{"name": "Main.java", "content": TWO_HELPER}])

    # ---- the program's own name ------------------------------------------
    go("piston example", piston, "js", [{"name": "my_cool_code.js", "content": "console.log(process.argv)"}])
    JS = "console.log(process.argv[1], __filename);\nnew Function()();\nthrow new Error('boom');\n"
    go("v1 js", v1, "javascript", JS, filename="my_cool_code.js")
    go("piston js", piston, "javascript", [{"name": "my_cool_code.js", "content": JS}])
    PY = "import sys\nprint(__file__, sys.argv)\n\ndef f():\n    raise ValueError('boom')\n\nf()\n"
    go("v1 python", v1, "python", PY, filename="solve.py", args=["x"])
    go("piston python", piston, "python", [{"name": "solve.py", "content": PY}], args=["x"])
    go("v1 python default", v1, "python", PY)
    go("v1 python module name", v1, "python", "import random, json\nprint(__file__, random.randint(1, 1), json.dumps([1]))",
       filename="random.py")
    SH = 'echo "$0 ${BASH_SOURCE[0]} $1"\nnosuchcommand\n'
    go("v1 bash", v1, "bash", SH, filename="deploy.sh", args=["a"])
    go("piston bash", piston, "bash", [{"name": "deploy.sh", "content": SH}], args=["a"])
    RB = "puts [$0, __FILE__].join(' ')\nraise 'boom'\n"
    go("v1 ruby", v1, "ruby", RB, filename="script.rb")
    go("piston ruby", piston, "ruby", [{"name": "script.rb", "content": RB}])
    C = '#include <stdio.h>\nint main(void) { printf("%s\\n", __FILE__); return 0; }\n'
    go("v1 c", v1, "c", C, filename="prog.c")
    go("piston c", piston, "c", [{"name": "file0.code", "content": C}])
    go("v1 c error", v1, "c", "int main(void) { return undeclared; }\n", filename="prog.c")
    TS = "const n: number = 'not a number' as any;\nconsole.log(n);\nlet x = ;\n"
    go("v1 ts error", v1, "typescript", TS, filename="solver.ts")
    go("piston ts error", piston, "typescript", [{"name": "solver.ts", "content": TS}])
    for lang, name, code in (("cpp", "sol.cc", '#include <cstdio>\nint main() { std::puts(__FILE__); }\n'),
                             ("go", "hello.go", 'package main\n\nimport (\n\t"fmt"\n\t"runtime"\n)\n\n'
                                                'func main() { _, f, _, _ := runtime.Caller(0); fmt.Println(f) }\n'),
                             ("rust", "my code.rs", 'fn main() { println!("{}", file!()); }\n')):
        if lang in READY:
            go("v1 " + lang, v1, lang, code, filename=name)

    # ---- refused names: a clear 400 through both APIs ----------------------
    for what, lang, name, needle in (
            ("a dot-file", "python", ".hidden.py", "must not start with '.'"),
            ("an option", "bash", "-x", "would read it as an option"),
            ("a path", "python", "src/main.py", "plain file name"),
            ("C without .c", "c", "prog.py", "must end in .c"),
            ("a Go test file", "go", "x_test.go", "leaves out test files")):
        go("v1 refused " + what, v1, lang, "x", filename=name)
        go("piston refused " + what, piston, lang, [{"name": name, "content": "x"}])
    go("v1 refused java", v1, "java", HELLO, filename="HelloWorld.java")
    go("v1 refused collision", v1, "python", "x", filename="data.csv", files=[{"name": "data.csv", "content": ""}])
    go("piston refused collision", piston, "python", [{"name": "a.py", "content": "x"}, {"name": "a.py", "content": ""}])

R = {k: f.result() for k, f in jobs.items()}


def out_of(name):
    st, r = R[name]
    if "run" in r:  # Piston
        return st, r["run"].get("stdout", ""), r["run"].get("stderr", ""), r
    return st, r.get("stdout", ""), r.get("stderr", ""), r


for api in ("v1", "piston"):
    st, out, err, r = out_of(api + " Solution")
    t.ok(st == 200 and out == "sum 42\n", "%s: java `public class Solution` runs, with its args" % api, r)
    st, out, err, r = out_of(api + " HelloWorld")
    t.ok(st == 200 and out == "Hello, World!\n", "%s: java `public class HelloWorld` runs" % api, r)
    st, out, err, r = out_of(api + " package")
    t.ok(st == 200 and out == "com.example.App hello agent\n",
         "%s: java `package com.example; public class App` runs as com.example.App, with a class of another "
         "file" % api, r)
    st, out, err, r = out_of(api + " two files")
    t.ok(st == 200 and out == "12\n", "%s: java, two files compiled together" % api, r)

st, r = R["v1 no main"]
t.ok(st == 200 and r.get("status") == "compile_error" and r["compile"]["status"] == "error"
     and "warmbox: no class to run" in r["compile"]["stderr"]
     and "public static void main(String[] args)" in r["compile"]["stderr"] and r.get("exit_code") is None,
     "v1: java without a main method: compile_error, compile.stderr says there is no class to run", r)
st, r = R["piston no main"]
t.ok(st == 200 and r["compile"]["code"] == 1 and "warmbox: no class to run" in r["compile"]["stderr"]
     and r["run"]["code"] is None and r["run"]["message"] == "not run: the compile stage failed",
     "piston: java without a main method: the compile stage says so, nothing runs", r)
st, r = R["v1 Main.java given too"]
t.ok(st == 200 and r.get("status") == "compile_error"
     and "must be in Main.java (javac's rule), and a file given with the code already has that name"
     in r["compile"]["stderr"],
     "v1: java, a given file with the code's file name: compile_error saying so", r)

st, out, err, r = out_of("piston example")
t.ok(st == 200 and "my_cool_code.js" in out and "main.js" not in out and out.startswith("[") and r["run"]["code"] == 0,
     "piston: the documented example prints process.argv with my_cool_code.js", r)
for api in ("v1", "piston"):
    st, out, err, r = out_of(api + " js")
    t.ok(st == 200 and out == "my_cool_code.js my_cool_code.js\n" and "my_cool_code.js:3" in err
         and "main.js" not in err, "%s: javascript: argv[1], __filename and the stack trace name my_cool_code.js"
         % api, r)
    st, out, err, r = out_of(api + " python")
    t.ok(st == 200 and out == "solve.py ['solve.py', 'x']\n" and 'File "solve.py", line 7, in <module>' in err
         and 'File "solve.py", line 5, in f' in err and "raise ValueError('boom')" in err and "main.py" not in err,
         "%s: python: __file__, sys.argv[0] and the traceback (with its source lines) name solve.py" % api, r)
    st, out, err, r = out_of(api + " bash")
    t.ok(st == 200 and out == "deploy.sh deploy.sh a\n" and "deploy.sh: line 2: nosuchcommand" in err,
         "%s: bash: $0, BASH_SOURCE and errors name deploy.sh" % api, r)
    st, out, err, r = out_of(api + " ruby")
    t.ok(st == 200 and out == "script.rb script.rb\n" and "script.rb:2:in" in err,
         "%s: ruby: $0, __FILE__ and the backtrace name script.rb" % api, r)
    st, r = R[api + " ts error"]
    cerr = r.get("compile", {}).get("stderr", "")
    t.ok(st == 200 and "solver.ts(3," in cerr and "main.ts" not in cerr,
         "%s: typescript: the compile error names solver.ts" % api, r)
st, r = R["v1 python default"]
t.ok(st == 200 and r["stdout"] == "main.py ['main.py']\n" and 'File "main.py", line 5' in r["stderr"],
     "v1: no filename: python is main.py as before", r)
st, r = R["v1 python module name"]
t.ok(st == 200 and r["stdout"] == "random.py 1 [1]\n",
     "v1: python named random.py still imports the standard random (not itself, though it is a file too)", r)
st, out, err, r = out_of("v1 c")
t.ok(st == 200 and out == "prog.c\n", "v1: c: __FILE__ is the filename", r)
st, out, err, r = out_of("piston c")
t.ok(st == 200 and out == "file0.code.c\n", "piston: c: a name without .c gets it, as Piston appends it", r)
st, r = R["v1 c error"]
t.ok(st == 200 and r.get("status") == "compile_error" and "prog.c:1:" in r["compile"]["stderr"]
     and "main.c" not in r["compile"]["stderr"], "v1: c: gcc's messages name prog.c", r)
for lang, want in (("cpp", "sol.cc\n"), ("go", "/tmp/hello.go\n"), ("rust", "my code.rs\n")):
    if lang not in READY:
        t.skip("no %s image" % lang)
        continue
    st, out, err, r = out_of("v1 " + lang)
    t.ok(st == 200 and out == want, "v1: %s runs as %s" % (lang, want.strip()), r)

for what, needle in (("a dot-file", "must not start with '.'"), ("an option", "would read it as an option"),
                     ("a path", "plain file name"), ("C without .c", "must end in .c"),
                     ("a Go test file", "leaves out test files")):
    st, r = R["v1 refused " + what]
    t.ok(st == 400 and "filename" in r["error"]["message"] and needle in r["error"]["message"],
         "v1: a filename that is %s: 400 saying why" % what, (st, r))
    st, r = R["piston refused " + what]
    if what == "C without .c":  # Piston appends the suffix
        t.ok(st == 200 and r["compile"]["stderr"].startswith("prog.py.c:1:"),
             "piston: files[0].name without .c compiles with .c appended (prog.py.c)", (st, r))
        continue
    t.ok(st == 400 and "files[0].name" in r.get("message", "") and needle in r.get("message", ""),
         "piston: files[0].name that is %s: 400 saying why" % what, (st, r))
st, r = R["v1 refused java"]
t.ok(st == 400 and "javac's rule" in r["error"]["message"], "v1: java refuses a filename (the class names it)",
     (st, r))
st, r = R["v1 refused collision"]
t.ok(st == 400 and "the program's own filename" in r["error"]["message"], "v1: a given file with the filename: 400",
     (st, r))
st, r = R["piston refused collision"]
t.ok(st == 400 and "the program's own file" in r.get("message", ""), "piston: a file with files[0]'s name: 400",
     (st, r))

t.ok(wait_until(lambda: not d.our_running(), timeout=20), "no container left running")
t.is_eq(d.stop(), 0, "daemon exits 0")
t.done()
