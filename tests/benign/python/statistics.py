import statistics as s
assert s.median([1,3,2])==2 and s.mean([1,2,3,4])==2.5
print('OK')
