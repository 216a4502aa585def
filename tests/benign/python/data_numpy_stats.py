import numpy as np
rng = np.random.default_rng(42)
x = rng.normal(10, 2, 100000)
assert abs(x.mean() - 10) < 0.05 and abs(x.std() - 2) < 0.05
h, edges = np.histogram(x, bins=20)
assert h.sum() == 100000 and len(edges) == 21
assert np.percentile(np.arange(101), 90) == 90
c = np.corrcoef(x[:-1], x[1:])[0, 1]
assert abs(c) < 0.02
print('OK')
