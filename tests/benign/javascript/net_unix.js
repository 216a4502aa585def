// A Unix socket server and client inside the sandbox, in /tmp.
const net = require('net'), path = '/tmp/wb-' + process.pid + '.sock';
const srv = net.createServer((s) => s.end('pong')).listen(path, () => {
  const c = net.connect(path); let buf = '';
  c.on('data', (d) => buf += d);
  c.on('end', () => { srv.close(); if (buf !== 'pong') throw new Error(buf); console.log('OK'); });
});
