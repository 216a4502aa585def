# Reading stdin the way competitive-programming and agent code does:
# input() for the first lines, then input() until EOFError.
n = int(input())
nums = list(map(int, input().split()))
assert n == 3 and nums == [4, 5, 6], (n, nums)
rest = []
while True:
    try:
        rest.append(input())
    except EOFError:
        break
assert rest == ["alpha", "beta gamma", ""], rest
print("OK")
