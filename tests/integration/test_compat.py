#!/usr/bin/env python3
"""Ordinary agent code that failed in the sandbox (issue 25), through
/v1/executions and through Piston's /api/v2/execute: SQLite on disk (the
working directory and /tmp), multiprocessing (locks, Pool, Queue),
subprocess running the image's tools and a shell, stdin read from the
descriptor itself, os.chdir, the sandbox uid's name, the program's own
file (multiprocessing's spawn, a program running its __file__ again); and what is still out
(a package manager, the network), with what a program sees when it tries
(profiles/README.md, "Python's tools")."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import Daemon, Tap  # noqa: E402

t = Tap()
d = Daemon(tcp=True)

CASES = [
    ("sqlite3 create/insert/select in the working directory", """
import sqlite3
con = sqlite3.connect("t.db")
con.execute("create table t(x integer, y text)")
con.executemany("insert into t values(?, ?)", [(1, "a"), (2, "b"), (3, "c")])
con.commit()
print(con.execute("select sum(x), group_concat(y) from t").fetchone())
""", "", "(6, 'a,b,c')\n"),
    ("sqlite3 in /tmp, WAL journal", """
import sqlite3, tempfile, os
path = os.path.join(tempfile.mkdtemp(), "w.db")
con = sqlite3.connect(path)
print(con.execute("pragma journal_mode=wal").fetchone()[0])
con.execute("create table t(x)"); con.execute("insert into t values (42)"); con.commit()
print(sqlite3.connect(path).execute("select x from t").fetchone()[0])
""", "", "wal\n42\n"),
    ("multiprocessing Pool.map", """
import multiprocessing as mp
def sq(x): return x * x
if __name__ == "__main__":
    with mp.Pool(2) as p:
        print(p.map(sq, range(6)))
""", "", "[0, 1, 4, 9, 16, 25]\n"),
    ("multiprocessing Lock and Queue between processes", """
import multiprocessing as mp
def work(q, lock, i):
    with lock:
        q.put(i * 10)
if __name__ == "__main__":
    q, lock = mp.Queue(), mp.Lock()
    ps = [mp.Process(target=work, args=(q, lock, i)) for i in range(3)]
    [p.start() for p in ps]
    print(sorted(q.get(timeout=20) for _ in ps))
    [p.join() for p in ps]
""", "", "[0, 10, 20]\n"),
    ('subprocess.run(["ls"])', """
import subprocess
open("seen.txt", "w").close()
print(subprocess.run(["ls"], capture_output=True, text=True, check=True).stdout, end="")
""", "", "main.py\nseen.txt\n"),  # the program's own file beside it, as under python3 main.py
    ('sh -c "echo hi | wc -c"', """
import subprocess
print(subprocess.run(["sh", "-c", "echo hi | wc -c"], capture_output=True, text=True).stdout.strip())
""", "", "3\n"),
    ("stdin through open(0), after the bootstrap read its frame", """
print(open(0).read().split())
""", "1 2\n3\n", "['1', '2', '3']\n"),
    ("os.chdir", """
import os
os.mkdir("sub"); os.chdir("sub"); open("f", "w").close(); os.chdir("..")
print(os.listdir("sub"))
""", "", "['f']\n"),
]

for name, code, stdin, want in CASES:
    st, r = d.run("python", code, stdin=stdin)
    t.ok(st == 200 and r.get("status") == "ok" and r.get("exit_code") == 0 and r.get("stdout") == want,
         "/v1: " + name, (st, {k: r.get(k) for k in ("status", "exit_code", "stdout", "stderr")}))
    st, r = d.request("POST", "/api/v2/execute", {"language": "python", "version": "*", "stdin": stdin,
                                                  "files": [{"content": code}]})
    run = r.get("run", {}) if isinstance(r, dict) else {}
    t.ok(st == 200 and run.get("code") == 0 and run.get("stdout") == want,
         "piston: " + name, (st, r))

# The code is a file too (profile.json "program_file"): what reads it back.
FILE_CASES = [
    ("multiprocessing spawn Pool (reruns the main file)", """
import multiprocessing as mp
def sq(x): return x * x
if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as p:
        print(p.map(sq, range(5)))
""", "[0, 1, 4, 9, 16]\n"),
    ("the program runs its own __file__ again", """
import subprocess, sys
if sys.argv[1:] == ["child"]:
    print("child of", __file__)
else:
    print(subprocess.run([sys.executable, __file__, "child"], capture_output=True, text=True).stdout, end="")
""", "child of /tmp/main.py\n"),
]
for name, code, want in FILE_CASES:
    st, r = d.run("python", code, timeout_ms=30000)
    t.ok(st == 200 and r.get("status") == "ok" and r.get("stdout") == want and r.get("files") == [],
         "/v1: " + name + "; the unchanged program file is not sent back",
         (st, {k: r.get(k) for k in ("status", "exit_code", "stdout", "stderr", "files")}))
st, r = d.run("python", 'open(__file__, "a").write("# seen\\n")\nprint("ok")', filename="solve.py")
files = {f["name"]: f for f in r.get("files", [])} if isinstance(r, dict) else {}
t.ok(st == 200 and r.get("stdout") == "ok\n" and list(files) == ["solve.py"]
     and files["solve.py"]["content"].endswith("# seen\n"),
     "a program that changes its own file gets it back, under its name", r)
st, r = d.run("python", "import random\nprint(random.randint(1, 1))", filename="random.py")
t.ok(st == 200 and r.get("stdout") == "1\n",
     "a program named random.py still imports the standard random (not itself)", r)
st, r = d.run("python", "print(open('main.py').read())", files=[{"name": "main.py", "content": "given"}])
t.ok(st == 200 and r.get("stdout") == "given\n" and r.get("files") == [],
     "a given file with the program's default name stands (the code is then no file)", (st, r))
st, r = d.run("javascript", """
const { fork } = require('child_process');
if (process.argv[2] === 'child') { console.log('child'); process.exit(0); }
fork(__filename, ['child']).on('exit', (c) => console.log('exit', c));
""")
t.ok(st == 200 and r.get("stdout") == "child\nexit 0\n" and r.get("files") == [],
     "javascript: child_process.fork(__filename)", (st, {k: r.get(k) for k in ("status", "stdout", "stderr", "files")}))

# What is still out, and what a program sees.
OUT = [
    ("no package manager: pip", 'import subprocess, sys\n'
     'r = subprocess.run([sys.executable, "-m", "pip", "install", "requests"], capture_output=True, text=True)\n'
     'print(r.returncode, r.stderr.strip())',
     lambda out: out.startswith("1 ") and "No module named pip" in out),
    ("no pip, apt-get or curl on the path", 'import shutil\n'
     'print([shutil.which(n) for n in ("pip", "pip3", "apt-get", "curl", "wget")])',
     lambda out: out.strip() == "[None, None, None, None, None]"),
    ("pip from a shell: not found, exit 127", 'import subprocess\n'
     'r = subprocess.run("pip install requests", shell=True, capture_output=True, text=True)\n'
     'print(r.returncode, r.stderr.strip())',
     lambda out: out.strip() == "127 /bin/sh: 1: pip: not found"),
    # Isolation shown by what the sandbox sees (nothing is sent anywhere):
    # one interface, lo, and no route.  A connection to any other address
    # then fails at once with ENETUNREACH (profiles/README.md).
    ("no network: lo is the only interface, and there is no route", ''
     'print([l.split(":")[0].strip() for l in open("/proc/net/dev").readlines()[2:]],\n'
     '      open("/proc/net/route").read().count("\\n"))',
     lambda out: out.strip() == "['lo'] 1"),
    ("sockets: TCP and UDP on lo are there; SCTP, MPTCP, ICMP and raw sockets are refused", 'import socket\n'
     'def mk(*a):\n    try:\n        socket.socket(*a).close(); return "ok"\n'
     '    except OSError as e:\n        return e.errno\n'
     'print(mk(socket.AF_INET, socket.SOCK_STREAM), mk(socket.AF_INET6, socket.SOCK_DGRAM, 17),\n'
     '      mk(socket.AF_INET, socket.SOCK_STREAM, 132), mk(socket.AF_INET, socket.SOCK_STREAM, 262),\n'
     '      mk(socket.AF_INET, socket.SOCK_DGRAM, 1), mk(socket.AF_INET, socket.SOCK_RAW, 1))',
     lambda out: out.strip() == "ok ok 1 1 1 1"),
    ("no network: a name does not resolve, urllib fails at once", 'import urllib.request\n'
     'try:\n    urllib.request.urlopen("http://example.com", timeout=5)\nexcept Exception as e:\n'
     '    print(type(e).__name__, e)',
     lambda out: out.startswith("URLError") and "Temporary failure in name resolution" in out),
    ("the sandbox's uid has a name (pwd, getpass, whoami)", 'import getpass, os, pwd, subprocess\n'
     'print(pwd.getpwuid(os.getuid()).pw_name, getpass.getuser(), os.path.expanduser("~"),\n'
     '      subprocess.run(["whoami"], capture_output=True, text=True).stdout.strip())',
     lambda out: re.fullmatch(r"(sandbox-\d+) \1 /tmp \1", out.strip()) is not None),
]
for name, code, good in OUT:
    st, r = d.run("python", code)
    t.ok(st == 200 and r.get("status") == "ok" and good(r.get("stdout", "")), name,
         (st, {k: r.get(k) for k in ("status", "exit_code", "stdout", "stderr")}))
t.is_eq(d.stop(), 0, "daemon exits 0")
t.done()
