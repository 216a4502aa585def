import numpy as np
from scipy import integrate, interpolate
v, err = integrate.quad(lambda x: np.exp(-x ** 2), -np.inf, np.inf)
assert abs(v - np.sqrt(np.pi)) < 1e-8
sol = integrate.solve_ivp(lambda t, y: -0.5 * y, (0, 2), [4.0], rtol=1e-8)
assert abs(sol.y[0, -1] - 4 * np.exp(-1)) < 1e-5
f = interpolate.interp1d([0, 1, 2], [0, 10, 20])
assert abs(f(1.5) - 15) < 1e-12
print('OK')
