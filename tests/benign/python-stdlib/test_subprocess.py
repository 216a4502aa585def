# CPython's own regression tests of subprocess (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# Left out (-i), because no sandbox can give what they need:
#   *test_args_string: runs a script it wrote in /tmp, which is noexec
#   *test_call_string: runs a script it wrote in /tmp, which is noexec
# A part of it (-m): the process cases (the whole module takes 25 s).
import sys
from test.libregrtest.main import main
sys.argv[1:] = [
    "-u", "none",
    "test_subprocess",
    "-m", "*ProcessTestCase.*",
    "-i", "*test_args_string",
    "-i", "*test_call_string",
]
main()
