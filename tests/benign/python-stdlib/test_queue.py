# CPython's own regression tests of queue (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# Left out (-i), because no sandbox can give what they need:
#   *test_many_threads*: 50 threads and more: past the sandbox's pids limit (64 by default)
import sys
from test.libregrtest.main import main
sys.argv[1:] = ["-u", "none", "test_queue", "-i", "*test_many_threads*"]
main()
