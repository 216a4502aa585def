#!/usr/bin/env python3
"""The hostile corpus again, under gVisor (runsc), when the engine has it."""
import os
import sys

os.environ["WARMBOX_RUNTIME"] = "runsc"
here = os.path.dirname(os.path.abspath(__file__))
os.execv(sys.executable, [sys.executable, os.path.join(here, "test_hostile.py")])
