#!/usr/bin/env python3
"""The layer check in make test: the tree passes it, and it refuses an
include that goes up or reaches a private header (scripts/layers.py)."""
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
r = subprocess.run([sys.executable, os.path.join(root, "scripts", "layers.py"), "--self-test"])
sys.exit(r.returncode)
