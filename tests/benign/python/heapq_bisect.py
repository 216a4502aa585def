import heapq,bisect
h=[5,1,3];heapq.heapify(h)
assert heapq.heappop(h)==1 and bisect.bisect([1,2,4],3)==2
print('OK')
