import math
assert abs(math.sqrt(2)**2-2)<1e-12 and math.gcd(12,18)==6 and math.isclose(math.pi,3.14159,rel_tol=1e-5)
print('OK')
