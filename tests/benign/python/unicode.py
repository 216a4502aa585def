s='naïve café 日本 😀'
assert len(s)==15 and s.encode('utf-8').decode('utf-8')==s and s.upper().startswith('NAÏVE')
print('OK')
