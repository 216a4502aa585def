# CPython's own regression tests of os (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# Left out (-i), because no sandbox can give what they need:
#   *MemfdCreateTests*: memfd_create is denied (an executable file outside the noexec /tmp)
#   *test_setregid_neg1: changing ids is denied, even to the same ones
#   *test_setreuid_neg1: changing ids is denied, even to the same ones
import sys
from test.libregrtest.main import main
sys.argv[1:] = [
    "-u", "none",
    "test_os",
    "-i", "*MemfdCreateTests*",
    "-i", "*test_setregid_neg1",
    "-i", "*test_setreuid_neg1",
]
main()
