// Drives warmbox's Piston endpoints with the npm package piston-client,
// unchanged: prints one JSON line per call for tests/integration/test_piston.py.
import piston from 'piston-client';

const server = process.argv[2];
const client = piston({ server });
const out = (name, value) => console.log(JSON.stringify({ name, value }));

out('runtimes', await client.runtimes());
out('python', await client.execute('python', 'import sys\nprint("hi", sys.argv[1:])'));
out('js_stdin', await client.execute('javascript',
  'let d="";process.stdin.on("data",c=>d+=c).on("end",()=>{console.log(d.toUpperCase());process.exit(3)})',
  { stdin: 'from piston', args: [] }));
out('alias', await client.execute('py', 'print(6*7)', { args: [] }));
out('timeout', await client.execute('python', 'while True: pass', { runTimeout: 500, args: [] }));
out('unknown', await client.execute('cobol', 'DISPLAY "HI".'));
