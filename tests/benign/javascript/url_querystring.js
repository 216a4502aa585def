const u=new URL('https://x.test/p?a=1&b=2');if(u.searchParams.get('b')!=='2'||require('querystring').parse('x=1').x!=='1') throw new Error('url');
console.log('OK');
