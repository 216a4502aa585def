# CPython's own regression tests of concurrent_futures (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# A part of it (-m): the thread pool and the fork process pool (the whole module takes over 2
#     minutes).
import sys
from test.libregrtest.main import main
sys.argv[1:] = [
    "-u", "none",
    "test_concurrent_futures",
    "-m", "*ThreadPoolExecutorTest.*",
    "-m", "*ProcessPoolForkProcessPoolExecutorTest.*",
]
main()
