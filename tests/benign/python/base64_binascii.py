import base64,binascii
assert base64.b64decode(base64.b64encode(b'\x00\xff'))==b'\x00\xff' and binascii.hexlify(b'ab')==b'6162'
print('OK')
