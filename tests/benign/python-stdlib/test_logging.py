# CPython's own regression tests of logging (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# A part of it (-m): configuration, formatters and levels (the handlers' cases take 20 s: sockets,
#     rotation).
import sys
from test.libregrtest.main import main
sys.argv[1:] = [
    "-u", "none",
    "test_logging",
    "-m", "*BasicConfigTest.*",
    "-m", "*FormatterTest.*",
    "-m", "*BuiltinLevelsTest.*",
]
main()
