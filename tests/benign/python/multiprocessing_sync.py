# multiprocessing's synchronisation and sharing: Lock, RLock, Semaphore,
# Event, Queue, Pipe, Value and Array in shared memory, between processes.
import multiprocessing as mp


def worker(lock, counter, q, arr, ev, i):
    for _ in range(50):
        with lock:
            counter.value += 1
    arr[i] = i * 10
    q.put(("done", i))
    ev.wait(10)


if __name__ == "__main__":
    lock = mp.Lock()
    assert lock.acquire(timeout=1)
    lock.release()
    rl = mp.RLock()
    with rl, rl:
        pass
    sem = mp.Semaphore(2)
    sem.acquire()
    sem.release()
    counter = mp.Value("i", 0)
    arr = mp.Array("d", 3)
    q = mp.Queue()
    ev = mp.Event()
    ps = [mp.Process(target=worker, args=(lock, counter, q, arr, ev, i)) for i in range(3)]
    for p in ps:
        p.start()
    msgs = sorted(q.get(timeout=20) for _ in ps)
    ev.set()
    for p in ps:
        p.join(20)
        assert p.exitcode == 0, p.exitcode
    assert msgs == [("done", 0), ("done", 1), ("done", 2)], msgs
    assert counter.value == 150 and list(arr) == [0.0, 10.0, 20.0], (counter.value, list(arr))
    a, b = mp.Pipe()
    a.send({"x": 1})
    assert b.recv() == {"x": 1}
    r, w = mp.Pipe(duplex=False)
    w.send_bytes(b"abc")
    assert r.recv_bytes() == b"abc"
    print("OK")
