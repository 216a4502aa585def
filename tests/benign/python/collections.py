from collections import Counter, deque, defaultdict, OrderedDict
assert Counter('abca')['a']==2
d=deque([1,2]);d.appendleft(0)
assert list(d)==[0,1,2]
print('OK')
