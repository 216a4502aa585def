import zlib
d=b'abc'*10000
assert zlib.decompress(zlib.compress(d,9))==d
print('OK')
