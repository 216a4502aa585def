# CPython's own regression tests of multiprocessing_fork (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# A part of it (-m): pools, queues, locks, semaphores, events, conditions, shared values and arrays
#     (the whole module takes over a minute).
import sys
from test.libregrtest.main import main
sys.argv[1:] = [
    "-u", "none",
    "test_multiprocessing_fork",
    "-m", "*WithProcessesTestPool.*",
    "-m", "*WithProcessesTestQueue.*",
    "-m", "*WithProcessesTestLock.*",
    "-m", "*WithProcessesTestSemaphore.*",
    "-m", "*WithProcessesTestEvent.*",
    "-m", "*WithProcessesTestValue.*",
    "-m", "*WithProcessesTestArray.*",
    "-m", "*WithProcessesTestCondition.*",
]
main()
