from decimal import Decimal, getcontext
getcontext().prec=50
assert str(Decimal(1)/Decimal(7))[:10]=='0.14285714'
print('OK')
