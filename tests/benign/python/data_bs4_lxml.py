from bs4 import BeautifulSoup
from lxml import etree
html = '<html><body><ul><li class="x">a</li><li>b</li></ul><a href="/p">link</a></body></html>'
soup = BeautifulSoup(html, 'lxml')
assert [li.text for li in soup.find_all('li')] == ['a', 'b'] and soup.a['href'] == '/p'
assert soup.select_one('li.x').text == 'a'
root = etree.fromstring('<r><i n="1"/><i n="2"/></r>')
assert root.xpath('sum(//i/@n)') == 3.0
print('OK')
