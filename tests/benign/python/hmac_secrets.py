import hmac, hashlib, secrets
k=secrets.token_bytes(16)
assert hmac.compare_digest(hmac.new(k,b'x',hashlib.sha256).digest(),hmac.new(k,b'x',hashlib.sha256).digest())
print('OK')
