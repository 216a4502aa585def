import struct,array
assert struct.unpack('<I',struct.pack('<I',1234))==(1234,) and array.array('i',[1,2]).tobytes()
print('OK')
