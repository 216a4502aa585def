#!/usr/bin/env python3
"""examples/agent_loop.py against a real warmboxd, in both message styles,
and docs/agents.md's tool definitions are the example's."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import ROOT, Daemon, Tap  # noqa: E402

t = Tap()
d = Daemon()
EXAMPLE = os.path.join(ROOT, "examples", "agent_loop.py")
for style in ("openai", "anthropic"):
    p = subprocess.run([sys.executable, EXAMPLE, "--style", style, "--url", "unix:" + d.sock],
                       capture_output=True, text=True, timeout=120)
    t.ok(p.returncode == 0 and "answer: The median is 3.5." in p.stdout and "NameError" in p.stdout,
         "%s style: the scripted model sees the traceback, fixes the program, answers 3.5" % style,
         p.stdout[-1500:] + p.stderr[-500:])
    t.ok("answer: The median is 3.5. (chart: chart.png)" in p.stdout and "images shown to the model: 1" in p.stdout,
         "%s style: the chart the program drew from the CSV reaches the model as an image" % style,
         p.stdout[-800:])

with open(os.path.join(ROOT, "docs", "agents.md")) as f:
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", f.read(), re.S)]
for style in ("openai", "anthropic"):
    p = subprocess.run([sys.executable, EXAMPLE, "--style", style, "--print-tool"], capture_output=True, text=True)
    t.ok(json.loads(p.stdout) in blocks, "docs/agents.md shows the %s tool definition the example uses" % style)
t.is_eq(d.stop(), 0, "daemon exits 0")
t.done()
