import os, signal, selectors, socket, time
got = []
signal.signal(signal.SIGUSR1, lambda s, f: got.append(s))
os.kill(os.getpid(), signal.SIGUSR1)
assert got == [signal.SIGUSR1]
a, b = socket.socketpair()
sel = selectors.DefaultSelector()
sel.register(a, selectors.EVENT_READ)
b.sendall(b'ping')
assert sel.select(timeout=5)[0][0].fileobj is a and a.recv(4) == b'ping'
r, w = os.pipe()
os.write(w, b'x'); assert os.read(r, 1) == b'x'
signal.setitimer(signal.ITIMER_REAL, 0.01)
signal.signal(signal.SIGALRM, lambda s, f: got.append(s))
time.sleep(0.2)
assert signal.SIGALRM in got
print('OK')
