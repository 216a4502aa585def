# CPython's own regression tests of shutil (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# Left out (-i), because no sandbox can give what they need:
#   *TestWhich*: makes executables in /tmp, which is noexec
import sys
from test.libregrtest.main import main
sys.argv[1:] = ["-u", "none", "test_shutil", "-i", "*TestWhich*"]
main()
