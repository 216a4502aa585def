// warmbox bootstrap for JavaScript: reads the input frame
// "<code length>[ <arg length>...]\n<code><args...><stdin...>" from fd 0,
// byte-exact and without reading ahead, then runs the code as a CommonJS
// module named main.js with the arguments in process.argv.  The rest of
// stdin is left to the program (process.stdin, fs.readFileSync(0)).
// Exit 125 means a broken frame.
'use strict';
const fs = require('fs');
const Module = require('module');

function readExact(n) {
  const buf = Buffer.alloc(n);
  let off = 0;
  while (off < n) {
    let r;
    try {
      r = fs.readSync(0, buf, off, n - off, null);
    } catch (e) {
      if (e.code === 'EAGAIN' || e.code === 'EINTR') continue;
      throw e;
    }
    if (r === 0) break;
    off += r;
  }
  return off === n ? buf : buf.subarray(0, off);
}

function fail(msg) {
  fs.writeSync(2, 'warmbox: ' + msg + '\n');
  process.exit(125);
}

let header = '';
for (;;) {
  const b = readExact(1);
  if (b.length === 0) fail('input frame ended early');
  if (b[0] === 10) break;
  header += String.fromCharCode(b[0]);
  if (header.length > 4096) fail('malformed input frame');
}
if (!/^[0-9]+( [0-9]+){0,256}$/.test(header)) fail('malformed input frame');
const sizes = header.split(' ').map(Number);
const code = readExact(sizes[0]);
if (code.length !== sizes[0]) fail('input frame ended early');
const args = sizes.slice(1).map((n) => {
  const a = readExact(n);
  if (a.length !== n) fail('input frame ended early');
  return a.toString('utf8');
});

process.argv = [process.argv[0], 'main.js'].concat(args);
const main = new Module('main.js', null);
main.filename = 'main.js';
main.paths = [];
process.mainModule = main;
main._compile(code.toString('utf8'), 'main.js');
