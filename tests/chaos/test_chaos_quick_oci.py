#!/usr/bin/env python3
"""make test's share of the chaos run on the OCI engine: chaos.py --quick
with WARMBOX_ENGINE=oci (warmboxd, its keeper and server kill -9 and a
restart on the same root; the server alone killed under load; clients
that leave; SIGTERM under load).  The full run is make chaos."""
import os
import shutil
import sys

if os.geteuid() != 0 or not shutil.which("runc"):
    print("1..0 # SKIP the OCI engine needs root and runc")
    sys.exit(0)
here = os.path.dirname(os.path.abspath(__file__))
os.environ["WARMBOX_ENGINE"] = "oci"
os.execv(sys.executable, [sys.executable, os.path.join(here, "chaos.py"), "--quick"] + sys.argv[1:])
