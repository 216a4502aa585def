import sympy as sp
x, y = sp.symbols('x y')
assert set(sp.solve(x ** 2 - 5 * x + 6, x)) == {2, 3}
assert sp.integrate(sp.sin(x) ** 2, (x, 0, sp.pi)) == sp.pi / 2
assert sp.diff(sp.exp(x) * x, x) == sp.exp(x) * x + sp.exp(x)
sol = sp.solve([x + y - 3, x - y - 1], [x, y])
assert sol == {x: 2, y: 1}
assert sp.simplify(sp.sin(x) ** 2 + sp.cos(x) ** 2) == 1
assert sp.Matrix([[1, 2], [3, 4]]).det() == -2
print('OK')
