from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(4) as ex: r=list(ex.map(lambda x:x+1,range(100)))
assert r==list(range(1,101))
print('OK')
