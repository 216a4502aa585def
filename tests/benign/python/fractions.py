from fractions import Fraction as F
assert F(1,3)+F(1,6)==F(1,2)
print('OK')
