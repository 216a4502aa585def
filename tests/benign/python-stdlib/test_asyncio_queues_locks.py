# CPython's own regression tests of asyncio (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# A part of it (-m): three of test_asyncio's modules (queues, locks, timeouts): the whole package
#     takes 80 s.
import sys
from test.libregrtest.main import main
sys.argv[1:] = [
    "-u", "none",
    "test_asyncio.test_queues",
    "test_asyncio.test_locks",
    "test_asyncio.test_timeouts",
]
main()
