# fileinput over stdin, and open(0) as a file.
import fileinput

total = 0
for line in fileinput.input():
    total += sum(int(x) for x in line.split())
assert total == 21, total
print("OK")
