// warmbox bootstrap for JavaScript: reads the input frame
// "<length>\n<code><stdin...>" from fd 0, byte-exact and without reading
// ahead, then runs the code as a CommonJS module named main.js.  The rest of
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
  if (header.length > 20) fail('malformed input frame');
}
if (!/^[0-9]+$/.test(header)) fail('malformed input frame');
const n = Number(header);
const code = readExact(n);
if (code.length !== n) fail('input frame ended early');

process.argv = [process.argv[0], 'main.js'].concat(process.argv.slice(2));
const main = new Module('main.js', null);
main.filename = 'main.js';
main.paths = [];
process.mainModule = main;
main._compile(code.toString('utf8'), 'main.js');
