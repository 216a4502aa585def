#!/usr/bin/env python3
"""profiles/init.c on the host, outside any sandbox, so that what the
sandbox's seccomp filter forbids (symbolic links, FIFOs) can be put in its
way: built static as build-image.sh builds it, run as an unprivileged user
(setpriv) with WARMBOX_INIT_TRACE (it then kills only its program's group),
in a folder of its own.  Checks the first lines it accepts, and which files
its trailer lists, with what."""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import ROOT, Tap  # noqa: E402

t = Tap()
NONCE = "0123456789abcdef" * 2
work = tempfile.mkdtemp(prefix="warmbox-init-")
os.chmod(work, 0o755)
INIT = os.path.join(work, "init")
cc = os.environ.get("CC", "cc")
p = subprocess.run([cc, "-static", "-O2", "-Wall", "-Wextra", "-Werror", "-o", INIT,
                    os.path.join(ROOT, "profiles", "init.c"), os.path.join(ROOT, "profiles", "java_scan.c")],
                   capture_output=True, text=True)
if not t.ok(p.returncode == 0, "init.c builds static with -Wall -Wextra -Werror", p.stderr):
    t.done()


def run(script, first_line, inputs=(), setup=None):
    """Run `sh -c script` under the init in a fresh folder; (exit code,
    the program's stderr, the trailer's text or None)."""
    d = tempfile.mkdtemp(dir=work)
    os.chmod(d, 0o777)
    if setup:
        setup(d)
    head = first_line.encode() + b"".join(b"%s %s\n" % (hashlib.sha256(c).hexdigest().encode(), n.encode())
                                          for n, c in inputs)
    r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--",
                        INIT, "/bin/sh", "-c", script], input=head, cwd=d, capture_output=True, timeout=60,
                       env={"PATH": "/usr/bin:/bin", "WARMBOX_INIT_TRACE": "1"})
    mark = b"\x1ewarmbox-trailer " + NONCE.encode() + b"\n"
    err = r.stderr
    if mark in err:
        at = err.index(mark)
        return r.returncode, err[:at], err[at + len(mark):]
    return r.returncode, err, None


def listing(trailer):
    """[(name, size, content or None, sha256)], omitted, usage line."""
    lines = trailer.split(b"\n", 1)
    _, listed, omitted = lines[0].split(b" ")
    rest = lines[1]
    out = []
    for _ in range(int(listed)):
        head, rest = rest.split(b"\n", 1)
        _, nlen, size, clen, sha = head.split(b" ")
        name, rest = rest[:int(nlen)], rest[int(nlen):]
        content, rest = rest[:int(clen)], rest[int(clen):]
        out.append((name.decode(), int(size), content if int(clen) or int(size) == 0 else None, sha.decode()))
    return out, int(omitted), rest


FULL = "w1 %s 64 1000 %d\n"

# ---- the first lines -----------------------------------------------------
code, err, tr = run("echo hi >&2", "w1 %s\n" % NONCE)
t.ok(code == 0 and err == b"hi\n" and tr is not None and tr.startswith(b"files 0 0\nusage "),
     "the short line (no files asked): a trailer with no files and the usage", (code, err, tr))
for bad in ("w2 %s\n" % NONCE, "w1 %s\n" % NONCE[:-1], "w1 %s 64\n" % NONCE, "w1 %s 64 1 65\n" % NONCE,
            "w1 %s x y z\n" % NONCE, "w1 %s 64 1 1\nnot-a-hash name\n" % NONCE):
    code, err, tr = run("echo RAN", bad)
    t.ok(code == 125 and tr is None and b"malformed input frame" in err,
         "a malformed first line %r: exit 125, nothing run, no trailer" % bad[:40], (code, err))

# ---- a session's execution (" s<state max>") ------------------------------
def session_section(tr):
    """(gone names, has state, state size, state, notes) from a trailer."""
    _, _, rest = listing(tr)
    assert rest.startswith(b"session "), rest[:80]
    head, rest = rest.split(b"\n", 1)
    _, n_gone, has, size, slen, nlen, dlen = head.split(b" ")
    gone = []
    for _ in range(int(n_gone)):
        g, rest = rest.split(b"\n", 1)
        k = int(g.split(b" ")[1])
        gone.append(rest[:k].decode())
        rest = rest[k:]
    state, rest = rest[:int(slen)], rest[int(slen):]
    notes, rest = rest[:int(nlen)], rest[int(nlen):]
    rest = rest[int(dlen):]  # a notebook cell's display records (none here)
    assert int(dlen) == 0 and rest.startswith(b"usage "), rest[:80]
    return gone, int(has), int(size), state, notes


kept, dropped = b"kept", b"dropped"
code, err, tr = run("rm dropped.txt; printf STATE > .warmbox-state; printf 'x\\tlock\\n' > .warmbox-notes",
                    "w1 %s 64 1000 2 s100\n" % NONCE, inputs=[("kept.txt", kept), ("dropped.txt", dropped)],
                    setup=lambda d: [open(os.path.join(d, n), "wb").write(c)
                                     for n, c in (("kept.txt", kept), ("dropped.txt", dropped))])
sec = session_section(tr) if tr else None
t.is_eq(sec, (["dropped.txt"], 1, 5, b"STATE", b"x\tlock\n"),
        "a session's execution: the input files gone, the state and the notes the bootstrap left (dot-files, "
        "never listed as files)")
code, err, tr = run("head -c 300 /dev/zero > .warmbox-state", "w1 %s 64 1000 0 s100\n" % NONCE)
t.is_eq(session_section(tr) if tr else None, ([], 1, 300, b"", b""),
        "a state past the line's bound: its size without its bytes (the daemon keeps the last one)")
code, err, tr = run("ln -s /etc/passwd .warmbox-state", "w1 %s 64 1000 0 s100\n" % NONCE)
t.is_eq(session_section(tr) if tr else None, ([], 0, 0, b"", b""), "a state that is a link: none")
code, err, tr = run("true", "w1 %s 64 1000 0\n" % NONCE)
t.ok(tr is not None and b"session " not in tr, "not a session: no session section", tr)
for bad in ("w1 %s 64 1000 0 s0\n", "w1 %s 64 1000 0 s\n", "w1 %s 64 1000 0 s5 1\n"):
    code, err, tr = run("echo RAN", bad % NONCE)
    t.ok(code == 125 and tr is None, "a malformed session field %r: exit 125" % bad[-10:], (code, err))

# ---- what is listed -------------------------------------------------------


def links(d):
    os.symlink("/etc/passwd", os.path.join(d, "passwd-link"))
    os.symlink("/etc", os.path.join(d, "etc-link"))
    os.mkfifo(os.path.join(d, "fifo"))
    os.mkdir(os.path.join(d, ".cache"))
    with open(os.path.join(d, ".cache", "c"), "w") as f:
        f.write("cache")


code, err, tr = run("printf mine > plain.txt; mkdir -p sub/deeper; printf deep > sub/deeper/f; printf dot > .hidden",
                    FULL % (NONCE, 0), setup=links)
files, omitted, usage = listing(tr)
t.is_eq([(n, c) for n, _, c, _ in files], [("plain.txt", b"mine"), ("sub/deeper/f", b"deep")],
        "made files listed in path order, folders walked; links, a FIFO, dot-files and dot-folders are not")
t.ok(omitted == 0 and usage.startswith(b"usage "), "nothing omitted; the usage line ends it", (omitted, usage))

code, err, tr = run("printf new > kept.csv.out; printf changed > changed.txt", FULL % (NONCE, 2),
                    inputs=[("kept.csv", b"a,b\n"), ("changed.txt", b"old")],
                    setup=lambda d: [(open(os.path.join(d, n), "wb").write(c), os.chmod(os.path.join(d, n), 0o666))
                                     for n, c in (("kept.csv", b"a,b\n"), ("changed.txt", b"old"))])
files, omitted, _ = listing(tr)
t.is_eq([n for n, _, _, _ in files], ["changed.txt", "kept.csv.out"],
        "an input left unchanged (same hash) is not sent back; a changed one is")

code, err, tr = run("head -c 600 /dev/zero > a; head -c 600 /dev/zero > b; printf tiny > c", FULL % (NONCE, 0))
files, omitted, _ = listing(tr)
zero = hashlib.sha256(bytes(600)).hexdigest()
t.ok([(n, s, c is not None, h) for n, s, c, h in files]
     == [("a", 600, True, zero), ("b", 600, False, zero), ("c", 4, True, hashlib.sha256(b"tiny").hexdigest())],
     "contents while the budget (1000 bytes) lasts, in path order; past it size and hash only", files)

code, err, tr = run("i=0; while [ $i -lt 70 ]; do printf x > f$i; i=$((i+1)); done; printf y > \"$(printf 'bad\\377name')\"",
                    FULL % (NONCE, 0))
files, omitted, _ = listing(tr)
t.ok(len(files) == 64 and omitted == 7, "64 listed; 6 more and a name that is not UTF-8 counted omitted",
     (len(files), omitted))


def unreadable(d):
    with open(os.path.join(d, "locked"), "w") as f:
        f.write("s")
    os.chown(os.path.join(d, "locked"), 65534, 65534)


code, err, tr = run("chmod 0 locked; printf ok > ok.txt", FULL % (NONCE, 0), setup=unreadable)
files, omitted, _ = listing(tr)
t.ok([n for n, _, _, _ in files] == ["ok.txt"] and omitted == 1, "a file it can't read is counted omitted",
     (files, omitted))

code, err, tr = run("sleep 30 & printf after > late.txt; exit 3", FULL % (NONCE, 0))
files, omitted, _ = listing(tr)
t.ok(code == 3 and [n for n, _, _, _ in files] == ["late.txt"],
     "exits as the program did; what it left running is killed before the files are read", (code, files))


# ---- --source: the init reads the frame, and runs a compile stage --------


def frame(code, args=(), files=(), rest=b"", name=None):
    head = (b"n%d " % len(name) if name is not None else b"") + b"%d" % len(code) \
        + b"".join(b" %d" % len(a) for a in args) + b"".join(b" f%d:%d" % (len(n), len(c)) for n, c in files) + b"\n"
    return head + (name or b"") + code + b"".join(args) + b"".join(n + c for n, c in files) + rest


def run_source(argv, line, body, setup=None, timeout=60, env=None):
    """The init with argv (after its own name) in a fresh folder: (exit code,
    stdout, the program's stderr, the trailer or None, the folder, seconds)."""
    import time
    d = tempfile.mkdtemp(dir=work)
    os.chmod(d, 0o777)
    if setup:
        setup(d)
    t0 = time.time()
    r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", INIT] + argv,
                       input=line.encode() + body, cwd=d, capture_output=True, timeout=timeout,
                       env=dict({"PATH": "/usr/bin:/bin", "WARMBOX_INIT_TRACE": "1"}, **(env or {})))
    took = time.time() - t0
    mark = b"\x1ewarmbox-trailer " + NONCE.encode() + b"\n"
    err, tr = r.stderr, None
    if mark in err:
        at = err.index(mark)
        err, tr = err[:at], err[at + len(mark):]
    return r.returncode, r.stdout, err, tr, d, took


SHOW = b'printf "%s|" "$@"; echo; cat; cat given.txt; echo; exit 4'
code, out, err, tr, d, _ = run_source(["--source", "main.sh", "--", "/bin/sh", "main.sh"], FULL % (NONCE, 0),
                                      frame(SHOW, [b"a b", b""], [(b"given.txt", b"GIVEN")], b"the rest\n"))
files, omitted, _ = listing(tr or b"files 0 0\n")
t.ok(code == 4 and out == b"a b||\nthe rest\nGIVEN\n" and tr is not None,
     "--source: the code is the source file, the arguments follow the command, the rest of stdin is the "
     "program's, the given file is beside it", (code, out, err))
t.ok([n for n, _, _, _ in files] == ["given.txt"],
     "--source: the source file (unchanged) is not sent back; a file not announced as input is", files)

for name, body in (("no newline", b"12"), ("a letter", b"1x\nabc"), ("short code", b"10\nabc"),
                   ("a name with /", frame(b"x", files=[(b"../x", b"y")])),
                   ("an argument after a file", b"1 f1:1 1\nxab2"),
                   ("257 arguments", b"1" + b" 0" * 257 + b"\nx")):
    code, out, err, tr, d, _ = run_source(["--source", "main.sh", "--", "/bin/sh", "-c", "echo RAN"],
                                          FULL % (NONCE, 0), body)
    t.ok(code == 125 and out == b"" and tr is None and b"warmbox: " in err,
         "--source, a malformed frame (%s): exit 125, nothing run, no trailer" % name, (code, out, err))
code, out, err, tr, d, _ = run_source(["--source", "main.sh", "--", "/bin/sh", "main.sh"], FULL % (NONCE, 0),
                                      frame(b"echo RAN"), setup=lambda d: open(os.path.join(d, "main.sh"), "w").close())
t.ok(code == 125 and out == b"", "--source: an existing file is never written over (O_EXCL)", (code, out, err))


def decode_order(data):
    """The compile stage's order (LEB128 numbers, length << 1 | stream):
    [("out" | "err", length)]."""
    segs, v, shift = [], 0, 0
    for b in data:
        v |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            segs.append(("err" if v & 1 else "out", v >> 1))
            v, shift = 0, 0
    assert shift == 0, data
    return segs


def compile_report(tr):
    """(exit, signal, timed out, truncated, duration us, stdout, stderr,
    order), the rest."""
    head, rest = tr.split(b"\n", 1)
    f = head.split(b" ")
    assert f[0] == b"compile" and len(f) == 9, head
    ol, el, orl = int(f[6]), int(f[7]), int(f[8])
    return ((int(f[1]), int(f[2]), int(f[3]), int(f[4]), int(f[5]), rest[:ol], rest[ol:ol + el],
             decode_order(rest[ol + el:ol + el + orl])), rest[ol + el + orl:])


STAGES = "w1 %s 64 1000 0 %d %d %d\n"
build = tempfile.mkdtemp(dir=work)
os.chmod(build, 0o777)
COMPILER = ["--source", "main.sh", "--compile", "3", "/bin/sh", "-c"]
ok_compile = "echo warning: thing >&2; cp main.sh %s/prog.sh" % build
code, out, err, tr, d, _ = run_source(COMPILER + [ok_compile, "--", "/bin/sh", build + "/prog.sh", "x"],
                                      STAGES % (NONCE, 5000, 1000, 5000), frame(b'echo "ran $1 $2"; exit 2', [b"y"]))
rep, rest = compile_report(tr)
t.ok(code == 2 and out == b"ran x y\n" and rep[0] == 0 and rep[6] == b"warning: thing\n" and rep[5] == b""
     and rest.startswith(b"files "), "a compile stage that succeeds: its output in the report, then the program runs",
     (code, out, rep))

code, out, err, tr, d, _ = run_source(COMPILER + ["echo 'main.sh:1: error: no' >&2; exit 3", "--", "/bin/sh", "-c",
                                                  "echo RAN > ran.txt; echo RAN"],
                                      STAGES % (NONCE, 5000, 1000, 5000), frame(b"broken"))
rep, rest = compile_report(tr)
t.ok(code == 3 and out == b"" and rep[0] == 3 and b"error: no" in rep[6] and not os.path.exists(os.path.join(d, "ran.txt")),
     "a compile stage that fails: its exit status and words in the report, the program never runs", (code, out, rep))

# Killed, not waited for: neither the stage's last word nor its background
# child's (whose pipe would hold the init until it wrote) comes out.
code, out, err, tr, d, _ = run_source(COMPILER + ["(sleep 30; echo child) & echo started; sleep 30; echo finished",
                                                  "--", "/bin/sh", "-c", "echo RAN"],
                                      STAGES % (NONCE, 300, 1000, 5000), frame(b"x"))
rep, rest = compile_report(tr)
t.ok(rep[2] == 1 and out == b"" and rep[5] == b"started\n",
     "a compile stage past its timeout is killed, its whole group with it, and the program does not run",
     (code, out, rep))

code, out, err, tr, d, _ = run_source(COMPILER + ["head -c 5000 /dev/zero | tr '\\0' e >&2", "--", "/bin/sh", "-c", "echo ran"],
                                      STAGES % (NONCE, 5000, 1000, 5000), frame(b"x"))
rep, rest = compile_report(tr)
t.ok(rep[0] == 0 and rep[3] == 1 and rep[6] == b"e" * 1000 and out == b"ran\n" and rep[7] == [("err", 1000)],
     "the compiler's output is kept to its bound (and the rest read and dropped); the order covers what was kept",
     (rep[:5], len(rep[6]), rep[7]))

# The order of the compiler's two streams: a pause between the writes lets
# each be read before the next (the init polls both pipes; two writes into
# both in one poll's time are read stdout first).
code, out, err, tr, d, _ = run_source(COMPILER + ["echo o1; sleep 0.1; echo e1 >&2; sleep 0.1; echo o2; echo o3; "
                                                  "sleep 0.1; echo e2 >&2", "--", "/bin/sh", "-c", "echo ran"],
                                      STAGES % (NONCE, 5000, 1000, 5000), frame(b"x"))
rep, rest = compile_report(tr)
t.ok(rep[5] == b"o1\no2\no3\n" and rep[6] == b"e1\ne2\n" and rest.startswith(b"files ")
     and rep[7] == [("out", 3), ("err", 3), ("out", 6), ("err", 3)],
     "the compile report carries the order its two streams were read in, a stream's consecutive reads joined",
     rep[5:])
code, out, err, tr, d, _ = run_source(COMPILER + ["true", "--", "/bin/sh", "-c", "echo ran"],
                                      STAGES % (NONCE, 5000, 1000, 5000), frame(b"x"))
rep, rest = compile_report(tr)
t.ok(rep[5] == b"" and rep[6] == b"" and rep[7] == [] and rest.startswith(b"files "),
     "a silent compiler: an empty order", rep)

code, out, err, tr, d, _ = run_source(COMPILER + ["true", "--", "/bin/sh", "-c", "echo before; sleep 30; echo after"],
                                      STAGES % (NONCE, 5000, 1000, 400), frame(b"x"))
rep, rest = compile_report(tr)
t.ok(code == 137 and out == b"before\n" and b"\ntimeout\nusage " in b"\n" + rest,
     "after compiling, the init holds the program to its own timeout: killed before its sleep ends, and the "
     "trailer says so", (code, out, rest[-80:]))
# A program that keeps the init busy reaping orphans: the deadline's signal
# may fall between two waits; it comes again until it is seen.
for i in range(3):
    code, out, err, tr, d, _ = run_source(COMPILER + ["true", "--", "/bin/sh", "-c",
                                                      "end=$(($(date +%s) + 4)); while [ $(date +%s) -lt $end ]; "
                                                      "do (true &); done; echo SURVIVED"],
                                          STAGES % (NONCE, 5000, 1000, 300), frame(b"x"))
    rep, rest = compile_report(tr)
    t.ok(code == 137 and b"SURVIVED" not in out and b"\ntimeout\nusage " in b"\n" + rest,
         "a program busy making orphans is still stopped at its timeout, before its loop ends (%d)" % (i + 1),
         (code, out))
code, out, err, tr, d, _ = run_source(COMPILER + ["true", "--", "/bin/sh", "-c", "echo ran"],
                                      STAGES % (NONCE, 5000, 1000, 5000), frame(b"x"))
t.ok(err.startswith(b"\x1ewarmbox-run " + NONCE.encode() + b"\n"),
     "after compiling, the init marks the program's start on stderr with the nonce (the daemon times the run "
     "from it)", err[:60])
code, out, err, tr, d, _ = run_source(COMPILER + ["exec >/dev/null 2>&1; sleep 0.5; cp main.sh %s/late.sh" % build,
                                                  "--", "/bin/sh", build + "/late.sh"],
                                      STAGES % (NONCE, 5000, 1000, 5000), frame(b"echo late ran"))
rep, rest = compile_report(tr)
t.ok(rep[0] == 0 and rep[1] == 0 and out == b"late ran\n",
     "a compiler that closes its output and works on is waited for, not killed", (rep[:5], out))
code, out, err, tr, d, _ = run_source(COMPILER + ["true", "--", "/bin/sh", "-c", "echo RAN"], "w1 %s 64 1000 0\n" % NONCE,
                                      frame(b"x"))
t.ok(code == 125 and out == b"", "a compile stage without its limits on the first line: exit 125, nothing run",
     (code, out, err))

# ---- the program's own file name, and Java's (--java) ----------------------
# The name in the frame is the source file's, and replaces NAME in both
# commands (never in the program's arguments).
ECHO = "printf '%s|' \"$0\" \"$@\" >&2"
code, out, err, tr, d, _ = run_source(["--source", "main.sh", "--compile", "4", "/bin/sh", "-c", ECHO, "main.sh", "--",
                                       "/bin/sh", "main.sh"],
                                      STAGES % (NONCE, 5000, 1000, 5000),
                                      frame(b'echo "$0 $1"', [b"main.sh"], name=b"my script.sh"))
rep, rest = compile_report(tr or b"compile 1 0 0 0 0 0 0\n")
t.ok(code == 0 and out == b"my script.sh main.sh\n" and rep[6] == b"my script.sh|" and sorted(os.listdir(d)) == ["my script.sh"],
     "a name in the frame: the code is that file, the compiler's and the program's word main.sh became it "
     "(the program's own argument main.sh stays)", (code, out, rep[6], os.listdir(d)))
for name, why in ((b".hidden", "a dot-file"), (b"-x", "an option"), (b"a/b", "a path"), (b"..", "..")):
    code, out, err, tr, d, _ = run_source(["--source", "main.sh", "--", "/bin/sh", "main.sh"], FULL % (NONCE, 0),
                                          frame(b"echo RAN", name=name))
    t.ok(code == 125 and out == b"" and tr is None and b"not a plain name" in err and os.listdir(d) == [],
         "a program name that is %s: exit 125, nothing written or run" % why, (code, out, err))
for head, why in ((b"n0 1\nx", "length 0"), (b"n300 1\n" + b"a" * 300 + b"x", "past 255 bytes"),
                  (b"n1\nx", "no code length"), (b"1 n1\nxy", "after the code's length")):
    code, out, err, tr, d, _ = run_source(["--source", "main.sh", "--", "/bin/sh", "-c", "echo RAN"], FULL % (NONCE, 0),
                                          head)
    t.ok(code == 125 and out == b"" and tr is None, "a malformed program name (%s): exit 125" % why, (code, out, err))

# --java with stand-in commands that show what they were given: the file
# is named after the code's public class, the given .java files are
# compiled with it, and the class to run (with its package) replaces Main.
JAVA = ["--source", "Main.java", "--java", "--compile", "4", "/bin/sh", "-c", ECHO, "Main.java", "--",
        "/bin/sh", "-c", "echo RUN \"$0\" \"$@\"", "Main"]
JAVA_STAGES = STAGES % (NONCE, 5000, 1000, 5000)
code, out, err, tr, d, _ = run_source(JAVA, JAVA_STAGES,
                                      frame(b"package com.example;\npublic class App { public static void main(String[] a) {} }",
                                            [b"Main"], [(b"Helper.java", b"class Helper {}"), (b"data.txt", b"x")]))
rep, rest = compile_report(tr or b"compile 1 0 0 0 0 0 0\n")
t.ok(code == 0 and out == b"RUN com.example.App Main\n" and rep[6] == b"App.java|./Helper.java|"
     and sorted(os.listdir(d)) == ["App.java", "Helper.java", "data.txt"],
     "--java: the code is App.java, compiled with the given Helper.java; com.example.App runs (its argument Main "
     "stays)", (code, out, rep[6], os.listdir(d)))
code, out, err, tr, d, _ = run_source(JAVA, JAVA_STAGES,
                                      frame(b"class Util { static int f() { return 1; } }",
                                            files=[(b"Runner.java", b"package p; public class Runner { public static void main(String[] a) {} }")]))
rep, rest = compile_report(tr or b"compile 1 0 0 0 0 0 0\n")
t.ok(code == 0 and out == b"RUN p.Runner\n" and rep[6] == b"Util.java|./Runner.java|",
     "--java: no main in the code: the first given .java file with one names the class to run", (code, out, rep[6]))
code, out, err, tr, d, _ = run_source(JAVA, JAVA_STAGES,
                                      frame(b"public class App { public static void main(String[] a) {} }",
                                            files=[(b"-J-XX:+PrintFlagsFinal.java", b"class X {}"),
                                                   (b"@opts.java", b"class Y {}")]))
rep, rest = compile_report(tr or b"compile 1 0 0 0 0 0 0\n")
t.ok(code == 0 and rep[6] == b"App.java|./-J-XX:+PrintFlagsFinal.java|./@opts.java|",
     "--java: given .java files reach javac as ./NAME: no name becomes an option or a file of them", (code, rep[6]))
code, out, err, tr, d, _ = run_source(JAVA, JAVA_STAGES, frame(b"public class Lib { void main(String[] a) {} }"))
rep, rest = compile_report(tr or b"compile 0 0 0 0 0 0 0\n")
t.ok(code == 1 and out == b"" and rep[0] == 1 and rep[6].startswith(b"Lib.java|")
     and b"warmbox: no class to run: no top-level class" in rep[6] and b"static void main(String[] args)" in rep[6],
     "--java: no class with a main method: it compiles, then the stage fails with a sentence saying so, "
     "nothing runs", (code, out, rep))
code, out, err, tr, d, _ = run_source(JAVA, JAVA_STAGES,
                                      frame(b"public class Main { public static void main(String[] a) {} }",
                                            files=[(b"Main.java", b"class Other {}")]))
rep, rest = compile_report(tr or b"compile 0 0 0 0 0 0 0\n")
t.ok(code == 1 and out == b"" and rep[0] == 1 and rep[5] == b"" and rep[4] == 0
     and rep[6] == b"warmbox: the code's public class Main must be in Main.java (javac's rule), and a file given with "
                   b"the code already has that name\n" and open(os.path.join(d, "Main.java")).read() == "class Other {}",
     "--java: a given file has the code's file name: the stage fails with the reason, nothing compiled or "
     "written over", (code, out, rep))
code, out, err, tr, d, _ = run_source(JAVA, JAVA_STAGES, frame(b"class X {}", name=b"X.java"))
t.ok(code == 125 and tr is None and b"named after its class" in err, "--java: a name in the frame is malformed",
     (code, err))
code, out, err, tr, d, _ = run_source(["--source", "Main.java", "--java", "--", "/bin/true"], FULL % (NONCE, 0),
                                      frame(b"x"))
t.ok(code == 125 and b"usage" in err, "--java without a compile stage: a usage error", (code, err))
# With the real compiler where the host has it (build-image.sh's JDK).
JDK = "/usr/lib/jvm/java-17-openjdk-amd64/bin/"
if not os.path.exists(JDK + "javac"):
    t.skip("no JDK 17 on the host to compile with")
else:
    jbuild = tempfile.mkdtemp(dir=work)
    os.chmod(jbuild, 0o777)
    code, out, err, tr, d, _ = run_source(
        ["--source", "Main.java", "--java", "--compile", "6", JDK + "javac", "-encoding", "UTF-8", "-d", jbuild,
         "Main.java", "--", JDK + "java", "-XX:-UsePerfData", "-cp", jbuild, "Main"],
        STAGES % (NONCE, 60000, 65536, 30000),
        frame("// a comment \\u000a public class HelloWörld { public static void main(String[] a) {\n"
              "  System.out.println(\"hi \" + a[0] + \" \" + HelloWörld.class.getName()); } }".encode(), [b"there"]),
        timeout=120, env={"LANG": "C.UTF-8"})  # as the sandbox has it
    rep, rest = compile_report(tr or b"compile 1 0 0 0 0 0 0\n")
    t.ok(code == 0 and out == "hi there HelloWörld\n".encode() and rep[0] == 0,
         "--java with javac: a public class behind a Unicode escape, not ASCII, in a file of its name, runs",
         (code, out, rep))

# ---- in a real sandbox: nothing of the compiler outlives its stage --------
# (Traced on the host the init may not kill(-1); in a container it does.)
# The "compiler" leaves a grandchild in a session of its own, its output
# closed, that would write a file 2 s later; the program looks 3 s later.
LEAVER = ("import os, time\n"
          "if os.fork() == 0:\n"
          "    os.setsid()\n"
          "    if os.fork() == 0:\n"
          "        os.close(1); os.close(2); time.sleep(2)\n"
          "        open('/tmp/late.txt', 'w').write('late'); os._exit(0)\n"
          "    os._exit(0)\n"
          "time.sleep(0.2)\n")
LOOKER = ("import os, time\n"
          "time.sleep(3)\n"
          "others = [p for p in os.listdir('/proc') if p.isdigit() and int(p) not in (1, os.getpid(), os.getppid())]\n"
          "print('others', len(others), 'late', os.path.exists('/tmp/late.txt'))\n")
have_image = subprocess.run(["docker", "image", "inspect", "warmbox/python:latest"], capture_output=True).returncode == 0
if not have_image:
    t.skip("no warmbox/python image to run the init in a container")
else:
    r = subprocess.run(["docker", "run", "-i", "--rm", "--network", "none", "-u", "65534", "--read-only",
                        "--tmpfs", "/tmp:rw,noexec,nosuid,size=16m,mode=1777", "-w", "/tmp", "--init",
                        "--label", "warmbox.owner=test-init", "warmbox/python:latest",
                        "/warmbox/init", "--source", "main.x", "--compile", "3", "/usr/bin/python3", "-c", LEAVER,
                        "--", "/usr/bin/python3", "-c", LOOKER],
                       input=(STAGES % (NONCE, 5000, 1000, 10000)).encode() + frame(b"x"), capture_output=True,
                       timeout=120)
    t.ok(r.returncode == 0 and r.stdout == b"others 0 late False\n",
         "in a container: what the compiler left in a session of its own is killed before the program starts",
         (r.returncode, r.stdout, r.stderr[-300:]))

shutil.rmtree(work, ignore_errors=True)
t.done()
