import numpy as np
a = np.array([[3.0, 1.0], [1.0, 2.0]])
x = np.linalg.solve(a, np.array([9.0, 8.0]))
assert np.allclose(x, [2.0, 3.0])
w, v = np.linalg.eigh(a)
assert np.allclose(a @ v, v * w)
m = np.random.default_rng(1).standard_normal((200, 200))
u, s, vt = np.linalg.svd(m)
assert np.allclose((u * s) @ vt, m)
assert abs(np.linalg.det(np.eye(3) * 2) - 8) < 1e-9
print('OK')
