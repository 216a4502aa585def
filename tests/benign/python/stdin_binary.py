# Binary stdin through sys.stdin.buffer, read in chunks.
import hashlib
import sys

h = hashlib.sha256()
n = 0
while True:
    chunk = sys.stdin.buffer.read(7)
    if not chunk:
        break
    h.update(chunk)
    n += len(chunk)
assert n == 256 * 3, n
assert h.hexdigest() == hashlib.sha256(bytes(range(256)) * 3).hexdigest()
print("OK")
