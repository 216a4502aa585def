# CPython's own regression tests of xml_etree (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
import sys
from test.libregrtest.main import main
sys.argv[1:] = ["-u", "none", "test_xml_etree"]
main()
