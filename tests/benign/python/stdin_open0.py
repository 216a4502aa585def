# open(0) and sys.stdin.read().split(), as a tokenizer.
data = open(0).read().split()
assert data == ["5", "1", "2", "3", "4", "5"], data
n = int(data[0])
assert sum(map(int, data[1:1 + n])) == 15
print("OK")
