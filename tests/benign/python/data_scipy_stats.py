import numpy as np
from scipy import stats
rng = np.random.default_rng(0)
a, b = rng.normal(0, 1, 500), rng.normal(0.5, 1, 500)
t, p = stats.ttest_ind(a, b)
assert p < 1e-6
assert abs(stats.norm.cdf(1.96) - 0.975) < 1e-3
r = stats.linregress(np.arange(10), 3 * np.arange(10) + 1)
assert abs(r.slope - 3) < 1e-9 and abs(r.intercept - 1) < 1e-9
print('OK')
