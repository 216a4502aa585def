import hashlib
assert hashlib.sha256(b'abc').hexdigest().startswith('ba7816bf') and hashlib.md5(b'').hexdigest().startswith('d41d8')
print('OK')
