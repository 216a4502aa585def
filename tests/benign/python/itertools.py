import itertools as it
assert list(it.permutations([1,2,3],2))[:2]==[(1,2),(1,3)] and sum(1 for _ in it.combinations(range(5),2))==10
print('OK')
