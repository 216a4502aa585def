# CPython's own regression tests of zipfile (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# Left out (-i), because no sandbox can give what they need:
#   *ZipInfoTests.test_from_*: zips the test suite's own files, whose times in the (reproducible)
#     image are 1970, before ZIP's 1980
import sys
from test.libregrtest.main import main
sys.argv[1:] = ["-u", "none", "test_zipfile", "-i", "*ZipInfoTests.test_from_*"]
main()
