import threading
res=[]
lock=threading.Lock()
def w(i):
    with lock: res.append(i*i)
ts=[threading.Thread(target=w,args=(i,)) for i in range(8)]
[t.start() for t in ts];[t.join() for t in ts]
assert sorted(res)==[i*i for i in range(8)]
print('OK')
