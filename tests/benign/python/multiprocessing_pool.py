# multiprocessing as agents use it: a Pool's map, imap_unordered and
# starmap, apply_async with a callback, and the pool closed and joined.
import multiprocessing as mp


def square(x):
    return x * x


def add(a, b):
    return a + b


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        assert pool.map(square, range(20)) == [x * x for x in range(20)]
        assert sorted(pool.imap_unordered(square, range(10))) == [x * x for x in range(10)]
        assert pool.starmap(add, [(1, 2), (3, 4)]) == [3, 7]
        got = []
        r = pool.apply_async(square, (9,), callback=got.append)
        r.wait(10)
        assert r.get() == 81
    pool.join()
    assert got == [81]
    print("OK")
