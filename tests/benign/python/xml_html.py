import xml.etree.ElementTree as ET, html
r=ET.fromstring('<a><b x="1">t</b></a>')
assert r.find('b').get('x')=='1' and html.escape('<')=='&lt;'
print('OK')
