# CPython's own regression tests of io (Debian's libpython3.11-testsuite),
# as `python3 -m test` runs them, with no resources (network, big files).
# Left out (-i), because no sandbox can give what they need:
#   *test_large_file_ops: a 2 GiB file: past the sandbox's file size limit (fsize_mb, 64 MiB by
#     default)
# A part of it (-m): the C implementation's raw, buffered and text files (the whole module takes 30
#     s).
import sys
from test.libregrtest.main import main
sys.argv[1:] = [
    "-u", "none",
    "test_io",
    "-m", "*CIOTest.*",
    "-m", "*CBufferedReaderTest.*",
    "-m", "*CTextIOWrapperTest.*",
    "-i", "*test_large_file_ops",
]
main()
