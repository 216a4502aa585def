import traceback
try:
    1/0
except ZeroDivisionError:
    tb=traceback.format_exc()
assert 'ZeroDivisionError' in tb
print('OK')
