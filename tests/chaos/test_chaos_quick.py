#!/usr/bin/env python3
"""make test's share of the chaos run: chaos.py --quick (warmboxd kill -9
and restart, clients that leave, SIGTERM under load; small loads, well under
a minute).  The full run is make chaos."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
os.execv(sys.executable, [sys.executable, os.path.join(here, "chaos.py"), "--quick"] + sys.argv[1:])
