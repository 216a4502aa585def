# CPython's own regression tests of threading (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# A part of it (-m): threads, locks and events (the whole module takes 10 s).
import sys
from test.libregrtest.main import main
sys.argv[1:] = [
    "-u", "none",
    "test_threading",
    "-m", "*ThreadTests.*",
    "-m", "*LockTests.*",
    "-m", "*EventTests.*",
]
main()
