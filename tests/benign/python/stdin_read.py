import sys
data=sys.stdin.read()
assert data=='', repr(data)
print('OK')
