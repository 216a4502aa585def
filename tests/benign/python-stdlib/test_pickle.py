# CPython's own regression tests of pickle (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# Left out (-i), because no sandbox can give what they need:
#   *test_unpickle_module_race: writes modules beside the standard library: the root is read-only
import sys
from test.libregrtest.main import main
sys.argv[1:] = ["-u", "none", "test_pickle", "-i", "*test_unpickle_module_race"]
main()
