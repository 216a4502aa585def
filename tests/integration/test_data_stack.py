#!/usr/bin/env python3
"""The python profile's data stack, as an agent uses it: a CSV sent in
`files` is read with pandas, a chart the program shows with plt.show()
comes back as a PNG that decodes, through /v1, the Piston endpoint and MCP
(the official SDK client sees an image content block); the whole stack
imports under the default limits (memory, pids, nofile), with OpenBLAS's
threads as the profile sets them and as a program may raise them; the
import times are printed."""
import base64
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import WARMBOX, Daemon, Tap, node_client_ready, node_steps  # noqa: E402

t = Tap()
d = Daemon()

CSV = "month,sales\n1,10\n2,14\n3,9\n4,21\n"
CHART = """import pandas as pd
import matplotlib.pyplot as plt
df = pd.read_csv('sales.csv')
print(int(df.sales.sum()), round(float(df.sales.mean()), 2))
df.plot(x='month', y='sales', kind='bar', legend=False, figsize=(4, 3))
plt.title('sales')
plt.show()
"""


def png_size(data):
    """(width, height) of a PNG, or None when data is not one."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


st, r = d.run("python", CHART, files=[{"name": "sales.csv", "content": CSV}], timeout_ms=30000)
figs = [f for f in (r.get("files") or []) if f["name"] == "figure-1.png"]
png = base64.b64decode(figs[0]["content"]) if figs and figs[0]["encoding"] == "base64" else b""
t.ok(st == 200 and r.get("status") == "ok" and r.get("stdout") == "54 13.5\n",
     "/v1: pandas reads the CSV sent in files", (st, r.get("status"), r.get("stdout"), r.get("stderr", "")[-600:]))
t.ok(png_size(png) == (400, 300) and [f["name"] for f in r.get("files") or []] == ["figure-1.png"],
     "/v1: plt.show() comes back as figure-1.png, a 400x300 PNG, the only file (the CSV is unchanged)",
     (png_size(png), [f["name"] for f in r.get("files") or []]))

st, r = d.request("POST", "/api/v2/execute", {"language": "python", "version": "*", "run_timeout": 30000,
                                               "files": [{"name": "main.py", "content": CHART},
                                                         {"name": "sales.csv", "content": CSV}]})
figs = [f for f in (r.get("files") or []) if f["name"] == "figure-1.png"]
png = base64.b64decode(figs[0]["content"]) if figs else b""
t.ok(st == 200 and r.get("run", {}).get("stdout") == "54 13.5\n" and png_size(png) == (400, 300),
     "Piston: the same program as files[0] with the CSV as files[1]; the PNG in the answer's files",
     (st, r.get("run", {}).get("stdout"), png_size(png)))

if node_client_ready("@modelcontextprotocol"):
    rc, res, stderr = node_steps("mcp_client.mjs", WARMBOX, "unix:" + d.sock, "--data-stack")
    r = res.get("data_chart") or {}
    imgs = [c for c in r.get("content", []) if c.get("type") == "image"]
    png = base64.b64decode(imgs[0]["data"]) if imgs else b""
    t.ok(rc == 0 and r.get("isError") is False and imgs and imgs[0].get("mimeType") == "image/png"
         and png_size(png) == (400, 300),
         "MCP: the SDK client gets the chart as an image content block (PNG, 400x300)", (rc, stderr[-500:], r))
else:
    t.ok(False, "@modelcontextprotocol/sdk is installed (scripts/setup.sh runs npm ci in tests/node)")

# The whole stack under the default limits, each import timed inside the
# sandbox; OpenBLAS's threads as the profile sets them (1), then as a
# program that asks for 8 gets them, within the pids limit.
IMPORTS = """import os, time
times = {}
for m in ('numpy', 'pandas', 'scipy.stats', 'scipy.optimize', 'matplotlib.pyplot', 'sympy', 'PIL.Image',
          'openpyxl', 'yaml', 'bs4', 'lxml.etree', 'networkx'):
    t0 = time.perf_counter()
    __import__(m)
    times[m] = round((time.perf_counter() - t0) * 1000, 1)
import numpy as np
a = np.random.default_rng(0).standard_normal((400, 400))
assert np.allclose(np.linalg.inv(a) @ a, np.eye(400), atol=1e-6)
import json
print(json.dumps({'times': times, 'blas': os.environ.get('OPENBLAS_NUM_THREADS'),
                  'threads': len(os.listdir('/proc/self/task'))}))
"""
st, r = d.run("python", IMPORTS, timeout_ms=30000)
try:
    out = json.loads(r.get("stdout") or "{}")
except ValueError:
    out = {}
t.ok(st == 200 and r.get("status") == "ok" and out.get("blas") == "1" and out.get("threads") == 1,
     "the whole stack imports under the default limits (256 MB, 64 pids, 256 files); OpenBLAS runs 1 thread",
     (st, r.get("status"), r.get("stderr", "")[-800:], out))
t.diag("import times in the sandbox (ms): %s" % out.get("times"))
t.diag("peak memory with everything imported: %.0f MB"
       % ((r.get("usage") or {}).get("peak_memory_bytes", 0) / 2 ** 20))
st, r = d.run("python", "import os\nos.environ['OPENBLAS_NUM_THREADS'] = '8'\n" + IMPORTS.replace("import os, time",
                                                                                               "import time"),
              timeout_ms=30000)
try:
    out = json.loads(r.get("stdout") or "{}")
except ValueError:
    out = {}
t.ok(st == 200 and r.get("status") == "ok" and out.get("threads", 0) >= 2 and "failed to map" not in r.get("stderr", ""),
     "a program asking OpenBLAS for 8 threads gets them under the pids limit, no 'failed to map segment'",
     (st, r.get("status"), r.get("stderr", "")[-800:], out.get("threads")))
# A figure that can't be saved (the file size limit) leaves nothing half
# written; a child python finds the backend too.
st, r = d.run("python", "import resource\nimport matplotlib.pyplot as plt\nplt.plot(range(100))\n"
                        "resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))\n"
                        "try:\n    plt.show()\nexcept OSError as e:\n    print('not saved', e.errno)\n"
                        "print(plt.get_fignums())", timeout_ms=30000)
t.ok(r.get("stdout") == "not saved 27\n[]\n" and (r.get("files") or []) == [],
     "a figure past the file size limit: an error to the program, no partial PNG, no temp file left",
     (r.get("stdout"), r.get("stderr", "")[-300:], r.get("files")))
st, r = d.run("python", "import subprocess, sys\nsubprocess.run([sys.executable, '-c', "
                        "'import matplotlib.pyplot as plt; plt.plot([1, 2]); plt.show()'], check=True)",
              timeout_ms=30000)
t.ok(r.get("status") == "ok" and r.get("exit_code") == 0
     and [f["name"] for f in r.get("files") or []] == ["figure-1.png"],
     "a child python's plt.show() finds the backend (PYTHONPATH) and its figure comes back",
     (r.get("stderr", "")[-300:], r.get("files")))
t.is_eq(d.stop(), 0, "daemon exits 0")
t.done()
