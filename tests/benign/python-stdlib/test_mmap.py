# CPython's own regression tests of mmap (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# Left out (-i), because no sandbox can give what they need:
#   *test_access_parameter: maps a file of /tmp executable, and /tmp is noexec
import sys
from test.libregrtest.main import main
sys.argv[1:] = ["-u", "none", "test_mmap", "-i", "*test_access_parameter"]
main()
