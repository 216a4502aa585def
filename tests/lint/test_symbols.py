#!/usr/bin/env python3
"""The symbol check in make test: no object built from exec/ calls the
engine or takes a node's engine (a container's life is sandbox/'s), and
the check refuses an object that does (scripts/symbols.py)."""
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
r = subprocess.run([sys.executable, os.path.join(root, "scripts", "symbols.py"), "--self-test"])
sys.exit(r.returncode)
