# Other usual ways to read stdin: sys.stdin.readline, iterating over
# sys.stdin up to a marker, then sys.stdin.read() for the rest.
import sys

first = sys.stdin.readline()
assert first == "header,1\n", repr(first)
lines = []
for line in sys.stdin:
    if line.strip() == "--":
        break
    lines.append(line.rstrip("\n"))
assert lines == ["x,1", "y,2", "ünï,3"], lines
tail = sys.stdin.read()
assert tail == "the rest\n", repr(tail)
print("OK")
