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
// Piston's documented example: the file keeps its name (process.argv[1]).
out('example', await client.execute({ language: 'js',
  files: [{ name: 'my_cool_code.js', content: 'console.log(process.argv)' }] }));
// Java runs whatever its public class is called.
out('java_solution', await client.execute('java',
  'public class Solution {\n  public static void main(String[] a) { System.out.println("solved " + a.length); }\n}\n'));
// stdout and stderr alternating 100 times, each write flushed, a pause
// (argv[3], seconds) between them: run.output in the order written.
const pause = process.argv[3] || '0.05';
out('order', await client.execute('python',
  'import sys, time\nfor i in range(100):\n' +
  `    sys.stdout.write("o%d\\n" % i); sys.stdout.flush(); time.sleep(${pause})\n` +
  `    sys.stderr.write("e%d\\n" % i); sys.stderr.flush(); time.sleep(${pause})\n`,
  { args: [], runTimeout: 60000 }));
