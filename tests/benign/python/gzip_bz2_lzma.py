import gzip,bz2,lzma
d=b'warmbox'*1000
assert gzip.decompress(gzip.compress(d))==d and bz2.decompress(bz2.compress(d))==d and lzma.decompress(lzma.compress(d))==d
print('OK')
