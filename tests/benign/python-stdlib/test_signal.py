# CPython's own regression tests of signal (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# A part of it (-m): the POSIX cases and wake-up fds (the whole module takes 47 s).
import sys
from test.libregrtest.main import main
sys.argv[1:] = ["-u", "none", "test_signal", "-m", "*PosixTests.*", "-m", "*WakeupSignalTests.*"]
main()
