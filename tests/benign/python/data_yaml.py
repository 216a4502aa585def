import yaml
doc = {'name': 'svc', 'ports': [80, 443], 'env': {'DEBUG': False}}
text = yaml.safe_dump(doc, sort_keys=True)
assert yaml.safe_load(text) == doc
assert yaml.safe_load('a: [1, 2]\nb: {c: x}\n') == {'a': [1, 2], 'b': {'c': 'x'}}
print('OK')
