import time
t=time.monotonic();time.sleep(0.05)
assert time.monotonic()-t>=0.04
print('OK')
