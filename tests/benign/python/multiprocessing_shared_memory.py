# multiprocessing.shared_memory (numpy arrays shared between processes,
# in /dev/shm) and a ProcessPoolExecutor from concurrent.futures.
import concurrent.futures as cf
from multiprocessing import shared_memory, Process

import numpy as np


def fill(name, n):
    shm = shared_memory.SharedMemory(name=name)
    a = np.ndarray((n,), dtype=np.int64, buffer=shm.buf)
    a[:] = np.arange(n)
    del a
    shm.close()


def cube(x):
    return x ** 3


if __name__ == "__main__":
    n = 1000
    shm = shared_memory.SharedMemory(create=True, size=n * 8)
    p = Process(target=fill, args=(shm.name, n))
    p.start()
    p.join(20)
    a = np.ndarray((n,), dtype=np.int64, buffer=shm.buf)
    assert p.exitcode == 0 and int(a.sum()) == n * (n - 1) // 2
    del a
    shm.close()
    shm.unlink()
    with cf.ProcessPoolExecutor(max_workers=2) as ex:
        assert list(ex.map(cube, range(8))) == [x ** 3 for x in range(8)]
    print("OK")
