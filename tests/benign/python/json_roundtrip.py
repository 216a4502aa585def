import json
d={'a':[1,2,{'b':None}],'c':'é'}
assert json.loads(json.dumps(d))==d
print('OK')
