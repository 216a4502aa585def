import numpy as np
from scipy import optimize
x = np.linspace(0, 4, 50)
y = 2.5 * np.exp(-1.3 * x) + 0.5
p, _ = optimize.curve_fit(lambda x, a, b, c: a * np.exp(-b * x) + c, x, y, p0=(1, 1, 1))
assert np.allclose(p, [2.5, 1.3, 0.5], atol=1e-6)
r = optimize.minimize(lambda v: (v[0] - 1) ** 2 + (v[1] + 2) ** 2, [0, 0])
assert np.allclose(r.x, [1, -2], atol=1e-5)
assert abs(optimize.brentq(lambda z: z ** 3 - 8, 0, 5) - 2) < 1e-9
print('OK')
