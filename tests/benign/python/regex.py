import re
m=re.findall(r'(\w+)@(\w+)\.com','a@x.com b@y.com')
assert m==[('a','x'),('b','y')]
print('OK')
