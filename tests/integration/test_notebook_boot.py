#!/usr/bin/env python3
"""profiles/python/bootstrap.py's notebook mode (E2B's runCode) on the host's
python3, outside any sandbox: frames built by hand, each run in a folder of
its own, as the profile runs it (-I -S -B, the warmbox matplotlib backend).
A frame with .warmbox-notebook runs its code as a Jupyter cell: its last
expression's value, its figures and its exception become JSON lines in
.warmbox-display; without that file nothing changes (figure-N.png, the
traceback on stderr).  The matplotlib checks are skipped where the host's
python3 has no matplotlib (the image's has; WARMBOX_NOTEBOOK_IMAGE runs them
all there)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import ROOT, Tap  # noqa: E402

BOOT = os.path.join(ROOT, "profiles", "python", "bootstrap.py")
NOTEBOOK = b".warmbox-notebook"
SESSION = b".warmbox-session"

# WARMBOX_NOTEBOOK_IMAGE=warmbox/python:latest: the same checks in the image.
IMAGE = os.environ.get("WARMBOX_NOTEBOOK_IMAGE")

t = Tap()
work = tempfile.mkdtemp(prefix="warmbox-notebook-")


def frame(code, files=(), name=b"main.py"):
    head = ["n%d" % len(name), str(len(code))] + ["f%d:%d" % (len(n), len(c)) for n, c in files]
    return " ".join(head).encode() + b"\n" + name + code + b"".join(n + c for n, c in files)


def run(code, files=(), notebook=True, env=None):
    """(exit code, stdout, stderr, display records or None, the folder)."""
    d = tempfile.mkdtemp(dir=work)
    files = list(files)
    if notebook:
        files.append((NOTEBOOK, json.dumps({"env": env or {}}).encode()))
    env = {"MPLBACKEND": "module://_warmbox_mpl", "MPLCONFIGDIR": os.path.join(d, ".matplotlib")}
    if IMAGE:
        # This tree's bootstrap in the image's python3, as its user.
        os.chmod(d, 0o777)
        argv = ["docker", "run", "--rm", "-i", "--network", "none", "-e", "MPLBACKEND=" + env["MPLBACKEND"],
                "-e", "MPLCONFIGDIR=/work/.matplotlib", "-v", os.path.dirname(BOOT) + ":/wb:ro", "-v", d + ":/work",
                "-w", "/work", IMAGE, "/usr/bin/python3", "-I", "-S", "-B", "/wb/bootstrap.py"]
    else:
        argv = [sys.executable, "-I", "-S", "-B", BOOT]
        env["PATH"] = "/usr/bin:/bin"
    r = subprocess.run(argv, input=frame(code.encode(), files), cwd=d, capture_output=True, timeout=120,
                       env=dict(os.environ) if IMAGE else env)
    records = None
    path = os.path.join(d, ".warmbox-display")
    if os.path.exists(path):
        with open(path, "rb") as f:
            data = f.read()
        records = [json.loads(line) for line in data.decode("ascii").splitlines()]
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace"), records, d


def main_results(records):
    return [r for r in records or () if r.get("type") == "result" and r.get("is_main_result")]


rc, out, err, recs, d = run("x = 21\n")
t.ok(rc == 0 and recs == [] and err == "", "an assignment as the last statement: no result", (rc, recs, err))
t.ok(not os.path.exists(os.path.join(d, ".warmbox-notebook")), "the notebook file is never written")

rc, out, err, recs, d = run("x = 21\nprint('p')\nx * 2\n")
t.ok(rc == 0 and out == "p\n" and recs == [{"type": "result", "is_main_result": True, "text": "42"}],
     "a last expression's value is the main result; print still goes to stdout", (rc, out, recs))

rc, out, err, recs, d = run("'hi'")
t.is_eq([r["text"] for r in main_results(recs)], ["hi"], "a string's repr loses its outer quotes (E2B's text)")

rc, out, err, recs, d = run("print(1)\nNone\n")
t.ok(rc == 0 and recs == [], "a None value shows nothing", recs)

rc, out, err, recs, d = run("x = 5\nx;  # quiet\n\n")
t.ok(rc == 0 and recs == [], "a last line ending with ';' shows nothing", recs)

rc, out, err, recs, d = run("s = 'a;'\ns\n")
t.is_eq([r["text"] for r in main_results(recs)], ["a;"], "a ';' inside the last expression's string is no ';'")

rc, out, err, recs, d = run(
    "class R:\n"
    "    def __repr__(self): return 'R()'\n"
    "    def _repr_html_(self): return '<b>r</b>'\n"
    "    def _repr_markdown_(self): return '**r**'\n"
    "    def _repr_latex_(self): return '$r$'\n"
    "    def _repr_svg_(self): return '<svg/>'\n"
    "    def _repr_png_(self): return b'\\x89PNG'\n"
    "    def _repr_json_(self): return {'r': 1}\n"
    "R()\n")
t.is_eq(main_results(recs), [{"type": "result", "is_main_result": True, "text": "R()", "html": "<b>r</b>",
                              "markdown": "**r**", "latex": "$r$", "svg": "<svg/>", "png": "iVBORw==",
                              "json": {"r": 1}}], "the _repr_*_ methods give their keys (png in base64)")

rc, out, err, recs, d = run(
    "class R:\n"
    "    def __repr__(self): return 'R()'\n"
    "    def _repr_html_(self): raise ValueError('no')\n"
    "    def _repr_markdown_(self): return None\n"
    "    def _repr_json_(self): return {'nan': float('nan')}\n"
    "R()\n")
t.is_eq(main_results(recs), [{"type": "result", "is_main_result": True, "text": "R()"}],
        "a failing, empty or unreadable formatter only loses its key")

rc, out, err, recs, d = run("class A:\n    pass\n[A(), (A(),)]\n")
texts = [r["text"] for r in main_results(recs)]
t.ok(len(texts) == 1 and texts[0].startswith("[<__main__.A at 0x") and ",)]" in texts[0] and "object" not in texts[0],
     "an object without a __repr__: IPython's text, in a list too", texts)

rc, out, err, recs, d = run("6 * 7\n", files=[(NOTEBOOK, b"")], notebook=False)
t.ok(rc == 0 and [r["text"] for r in main_results(recs)] == ["42"], "an empty notebook file: a cell", (rc, err, recs))

rc, out, err, recs, d = run("a = 1\nb = 0\na / b\n")
errors = [r for r in recs or () if r.get("type") == "error"]
t.ok(rc == 1 and err == "" and len(errors) == 1 and errors[0]["name"] == "ZeroDivisionError"
     and errors[0]["value"] == "division by zero", "an exception is one error record, exit 1, nothing on stderr",
     (rc, err, recs))
tb = errors[0]["traceback"] if errors else ""
t.ok(tb.startswith("Traceback (most recent call last):\n") and 'File "main.py", line 3, in <module>' in tb
     and "a / b" in tb and "bootstrap" not in tb and tb.endswith("ZeroDivisionError: division by zero\n"),
     "its traceback: the program's line and source, no bootstrap frame", tb)

rc, out, err, recs, d = run("def f():\n    raise KeyError('k')\nf()\n")
errors = [r for r in recs or () if r.get("type") == "error"]
t.ok(errors and errors[0]["name"] == "KeyError" and errors[0]["value"] == "'k'"
     and "line 2, in f" in errors[0]["traceback"], "an exception in a function: its frame in the traceback", recs)

rc, out, err, recs, d = run("class A:\n    def __repr__(self): raise RuntimeError('bad repr')\nA()\n")
errors = [r for r in recs or () if r.get("type") == "error"]
t.ok(rc == 1 and errors and errors[0]["name"] == "RuntimeError" and "line 2, in __repr__" in errors[0]["traceback"]
     and "_warmbox" not in errors[0]["traceback"], "a failing __repr__ is the cell's error, no sandbox frame", recs)

rc, out, err, recs, d = run("x = (\n")
errors = [r for r in recs or () if r.get("type") == "error"]
t.ok(rc == 1 and err == "" and errors and errors[0]["name"] == "SyntaxError"
     and 'File "main.py", line 1' in errors[0]["traceback"], "a compile error is an error record", (rc, err, recs))

rc, out, err, recs, d = run("print('before')\nimport sys\nsys.exit(3)\n")
t.ok(rc == 3 and out == "before\n" and recs == [], "sys.exit keeps its status; the display is still written",
     (rc, out, recs))

rc, out, err, recs, d = run("import os\nos.environ['WB_A'] + '|' + os.environ.get('WB_BAD', '-')\n",
                            env={"WB_A": "one", "": "empty", "WB=BAD": "x", "WB_BAD": "a\u0000b"})
t.is_eq([r["text"] for r in main_results(recs)], ["one|-"], "env: applied; bad names and NUL values ignored")

rc, out, err, recs, d = run("import os\nos.environ.get('WB_A', 'unset')\n",
                            files=[(NOTEBOOK, b"not json")], notebook=False)
t.ok(rc == 0 and [r["text"] for r in main_results(recs)] == ["unset"], "a malformed notebook file: still a cell",
     (rc, err, recs))

rc, out, err, recs, d = run("x = 21\nx * 2\n", files=[(SESSION, b"")])
t.ok(rc == 0 and [r["text"] for r in main_results(recs)] == ["42"] and os.path.exists(os.path.join(d, ".warmbox-state"))
     and not os.path.exists(os.path.join(d, ".warmbox-session")), "a session's cell: result and state saved",
     (rc, err, recs))
rc, out, err, recs, d = run("y = 1\n1/0\n", files=[(SESSION, b"")])
t.ok(rc == 1 and err == "" and os.path.exists(os.path.join(d, ".warmbox-state")),
     "a session's failing cell: its state still saved", (rc, err))

rc, out, err, recs, d = run("x = 1\nx\n", notebook=False)
t.ok(rc == 0 and recs is None, "without the notebook file: no display file, nothing shown", (rc, recs))
rc, out, err, recs, d = run("1/0\n", notebook=False)
t.ok(rc == 1 and "ZeroDivisionError" in err and recs is None, "without it: the traceback on stderr as ever", err)

rc, out, err, recs, d = run("print('x' * (5 * 1024 * 1024))\n"
                            "class Big:\n    def __repr__(self): return 'b' * (9 * 1024 * 1024)\nBig()\n")
size = os.path.getsize(os.path.join(d, ".warmbox-display")) if recs is not None else -1
t.ok(rc == 0 and recs == [{"type": "result", "is_main_result": False, "text": "[display output past 8 MiB dropped]"}]
     and size <= 8 * 1024 * 1024, "a display past 8 MiB: dropped, with a note", (rc, size, recs and recs[-1]))
t.ok(not [n for n in os.listdir(d) if n.endswith(".part")], "no partial display file left")

# matplotlib, where the host has it (the bootstrap adds Debian's packages).
rc, _, _, _, _ = run("import matplotlib\n", notebook=False)
MPL = rc == 0
PLOT = "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()\n"
checks = []
if MPL:
    rc, out, err, recs, d = run(PLOT)
    pngs = [r for r in recs or () if r.get("png")]
    checks.append((rc == 0 and len(recs) == 1 and len(pngs) == 1 and pngs[0]["is_main_result"] is False
                   and pngs[0]["text"] == "<Figure size 640x480 with 1 Axes>"
                   and pngs[0]["png"].startswith("iVBORw0KGgo") and not os.path.exists(os.path.join(d, "figure-1.png")),
                   "plt.show() in a cell: one PNG record, no figure-1.png", (rc, err, [dict(r, png=None) for r in recs or ()])))
    rc, out, err, recs, d = run(PLOT, notebook=False)
    checks.append((rc == 0 and recs is None and os.path.exists(os.path.join(d, "figure-1.png")),
                   "plt.show() outside a cell: figure-1.png as ever", (rc, err, os.listdir(d))))
    rc, out, err, recs, d = run("import matplotlib.pyplot as plt\nplt.figure()\nplt.plot([1, 2])\n"
                                "plt.show()\nplt.figure()\nplt.bar([1], [2])\nplt.plot([3, 1])\n")
    kinds = [(r["is_main_result"], "png" in r, r["text"][:26]) for r in recs or ()]
    checks.append((rc == 0 and kinds == [(False, True, "<Figure size 640x480 with "), (True, False, "[<matplotlib.lines.Line2D "),
                                         (False, True, "<Figure size 640x480 with ")]
                   and " at 0x" in recs[1]["text"] and "object" not in recs[1]["text"]
                   and not [n for n in os.listdir(d) if n.endswith(".png")],
                   "a figure shown, then the last value (its Line2D list), then the figure left open",
                   (rc, err, kinds)))
    rc, out, err, recs, d = run("import matplotlib.pyplot as plt\nplt.plot([1, 2])\n1/0\n")
    kinds = [(r["type"], "png" in r) for r in recs or ()]
    checks.append((rc == 1 and kinds == [("error", False), ("result", True)],
                   "a failing cell still shows its open figures", (rc, kinds)))
    rc, out, err, recs, d = run("import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
                                "plt.plot([1])\nplt.savefig('a.png')\n")
    checks.append((rc == 0 and recs == [] and os.path.exists(os.path.join(d, "a.png")),
                   "a cell on Agg shows nothing of its own", (rc, err, recs)))
    rc, out, err, recs, d = run("import matplotlib.pyplot as plt\nplt.plot([1, 2]);\n")
    checks.append((rc == 0 and len(recs) == 1 and recs[0]["is_main_result"] is False and "png" in recs[0],
                   "plt.plot(...); shows the figure, not its value", (rc, err, recs and [r["text"] for r in recs])))
    rc, out, err, recs, d = run("import matplotlib.pyplot as plt\nfig = plt.figure()\nplt.close(fig)\nfig\n")
    checks.append((rc == 0 and len(recs) == 1 and recs[0]["is_main_result"] and "png" not in recs[0]
                   and recs[0]["text"] == "<Figure size 640x480 with 0 Axes>", "an empty Figure as the value: its text alone",
                   (rc, err, recs)))
    rc, out, err, recs, d = run("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1])\n"
                                "plt.close(fig)\nfig\n")
    checks.append((rc == 0 and len(recs) == 1 and recs[0]["is_main_result"] and recs[0].get("png", "").startswith("iVBOR"),
                   "a Figure as the value: its PNG in the main result", (rc, err, recs and [r["text"] for r in recs])))
else:
    checks = [(None, name, None) for name in (
        "plt.show() in a cell: one PNG record, no figure-1.png", "plt.show() outside a cell: figure-1.png as ever",
        "a figure shown, then the last value (its Line2D list), then the figure left open",
        "a failing cell still shows its open figures", "a cell on Agg shows nothing of its own",
        "plt.plot(...); shows the figure, not its value", "an empty Figure as the value: its text alone",
        "a Figure as the value: its PNG in the main result")]
for cond, name, diag in checks:
    if cond is None:
        t.n += 1
        print("ok %d # skip %s: no matplotlib for %s" % (t.n, name, IMAGE or sys.executable), flush=True)
    else:
        t.ok(cond, name, diag)

# A plain call imports nothing of the notebook's.
rc, out, err, recs, d = run("import sys\nprint(sorted(m for m in ('ast', 'json', 'base64', '_warmbox_notebook')"
                            " if m in sys.modules))\n", notebook=False)
t.is_eq(out, "[]\n", "a plain call imports neither ast, json, base64 nor _warmbox_notebook")

shutil.rmtree(work, ignore_errors=True)
t.done()
