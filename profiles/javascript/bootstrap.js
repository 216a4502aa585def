// warmbox bootstrap for JavaScript: reads the input frame
// "[n<program name length> ]<code length>[ <arg length>...][ f<name length>:<size>...]\n"
// "[<program name>]<code><args...><name><content>...<stdin...>" from fd 0,
// byte-exact and without reading ahead, writes the files into the working
// directory, then runs the code as a CommonJS module named after the
// program name the client gave, else main.js (process.argv[1],
// __filename and stack traces say it), with the arguments in
// process.argv.  The rest of stdin is left to the program (process.stdin,
// fs.readFileSync(0)).  Exit 125 means a broken frame, or a file that
// could not be written.
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
if (!/^(n[0-9]+ )?[0-9]+( [0-9]+){0,256}( f[0-9]+:[0-9]+){0,64}$/.test(header)) fail('malformed input frame');
const fields = header.split(' ');
function readField(n) {
  const b = readExact(n);
  if (b.length !== n) fail('input frame ended early');
  return b;
}
let name = 'main.js';
let named = false;
if (fields[0][0] === 'n') {
  // The program's own file name, first (checked by the daemon; again
  // here: a plain name, never a path).
  const len = Number(fields.shift().slice(1));
  if (len < 1 || len > 255) fail('malformed input frame');
  const raw = readField(len);
  const s = raw.toString('latin1');
  if (s === '.' || s === '..' || s.includes('/') || s.includes('\0') || s[0] === '.' || s[0] === '-')
    fail("the program's file name in the frame is not a plain name");
  name = raw.toString('utf8');
  named = true;
}
const code = readField(Number(fields[0]));
const args = [];
const files = [];
for (const f of fields.slice(1)) {
  if (f[0] !== 'f') {
    args.push(readField(Number(f)).toString('utf8'));
    continue;
  }
  const [nameLen, size] = f.slice(1).split(':').map(Number);
  const name = readField(nameLen);
  files.push([name, readField(size)]);
}
// Names were checked by the daemon; checked again here, so that nothing
// but a new file in the working directory can come of one.
for (const [name, content] of files) {
  const s = name.toString('latin1');
  if (s === '' || s === '.' || s === '..' || s.includes('/') || s.includes('\0'))
    fail('a file name in the frame is not a plain name');
  try {
    const fd = fs.openSync(name, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL
      | fs.constants.O_NOFOLLOW, 0o644);
    for (let off = 0; off < content.length;) off += fs.writeSync(fd, content, off);
    fs.closeSync(fd);
  } catch (e) {
    fail('writing a given file: ' + (e.code || e.message));
  }
}
files.length = 0;
// The code as a file too, under its own name in the working directory:
// child_process.fork(__filename) and a program reading its own file find
// it.  The daemon lists it to the init as an input, so it is not sent back
// unless the program changed it.  The code that runs is still the frame's.
// Only for a name the frame carries (without one a given file has the
// default name).
if (named) try {
  const fd = fs.openSync(name, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL
    | fs.constants.O_NOFOLLOW, 0o644);
  for (let off = 0; off < code.length;) off += fs.writeSync(fd, code, off);
  fs.closeSync(fd);
} catch (e) {
  fail("writing the program's file: " + (e.code || e.message));
}

process.argv = [process.argv[0], name].concat(args);
const main = new Module(name, null);
main.filename = name;
main.paths = [];
process.mainModule = main;
main._compile(code.toString('utf8'), name);
