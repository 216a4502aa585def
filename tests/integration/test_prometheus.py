#!/usr/bin/env python3
"""Prometheus: the alerting rules in dist/ are valid and fire when they
should (promtool check rules / test rules), and a live /metrics passes
promtool check metrics, with what the planner and the limiter use in it.
Skipped where promtool is missing (scripts/setup.sh installs Debian's
prometheus package for it)."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wbtest import ROOT, Daemon, Tap  # noqa: E402

if shutil.which("promtool") is None:
    print("1..0 # SKIP promtool is not installed")
    sys.exit(0)
t = Tap()
rules = os.path.join(ROOT, "dist", "warmbox-alerts.yml")
p = subprocess.run(["promtool", "check", "rules", rules], capture_output=True, text=True)
t.ok(p.returncode == 0, "promtool check rules dist/warmbox-alerts.yml", p.stdout + p.stderr)
p = subprocess.run(["promtool", "test", "rules", os.path.join(ROOT, "tests", "prometheus", "alerts_test.yml")],
                   capture_output=True, text=True)
t.ok(p.returncode == 0, "promtool test rules: the alerts fire on their series, and only then", p.stdout + p.stderr)

d = Daemon()
for i in range(4):
    d.run("python", "print(%d)" % i)
d.run("python", "print(1)", memory_mb=300)
st, body = d.request("GET", "/metrics")
raw = body.get("_raw", b"")
t.ok(st == 200 and raw, "/metrics answers")
p = subprocess.run(["promtool", "check", "metrics"], input=raw, capture_output=True)
t.ok(p.returncode == 0, "promtool check metrics finds nothing wrong with a live /metrics",
     (p.stdout + p.stderr).decode())
text = raw.decode()
for name in ('warmbox_engine_up{engine="default"} 1', "warmbox_engines_up 1", "warmbox_start_limit", "warmbox_start_latency_seconds",
             "warmbox_start_cost_seconds", "warmbox_starts_in_flight", "warmbox_executions_queued",
             "warmbox_admission_wait_seconds_bucket", "warmbox_pool_hits_total", "warmbox_pool_replenish_seconds",
             "warmbox_pool_arrival_rate", "warmbox_history_failing 0"):
    t.ok(name in text, "/metrics has %s" % name)
t.is_eq(d.stop(), 0, "exits 0")
t.done()
