// Drives `warmbox mcp` with the official MCP TypeScript SDK client, which
// spawns it over stdio.  Prints one JSON line per step for
// tests/integration/test_mcp.py.   usage: node mcp_client.mjs WARMBOX URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [warmbox, url, mode] = process.argv.slice(2);
const out = (name, value) => console.log(JSON.stringify({ name, value }));

const transport = new StdioClientTransport({
  command: warmbox,
  args: ['--url', url, 'mcp', '--max-output', '1000'],
  env: { ...process.env },
  stderr: 'inherit',
});
const client = new Client({ name: 'warmbox-test', version: '1.0.0' });
await client.connect(transport);
out('server', { info: client.getServerVersion(), caps: client.getServerCapabilities() });
out('ping', await client.ping());
const { tools } = await client.listTools();
out('tools', tools);

const call = (args) => client.callTool({ name: 'execute_code', arguments: args });
if (mode === '--data-stack') {
  // tests/integration/test_data_stack.py: pandas reads a CSV, plt.show() draws.
  const code = ['import pandas as pd', 'import matplotlib.pyplot as plt', "df = pd.read_csv('sales.csv')",
    "df.plot(x='month', y='sales', kind='bar', legend=False, figsize=(4, 3))", 'plt.show()'].join('\n');
  out('data_chart', await call({ language: 'python', code, timeout_ms: 30000,
    files: [{ name: 'sales.csv', content: 'month,sales\n1,10\n2,14\n' }] }));
  await client.close();
  process.exit(0);
}
out('python', await call({ language: 'python', code: 'import sys\nprint(sys.stdin.read()[::-1])', stdin: 'olleh' }));
// State across two tool calls: the server keeps a session per client.
out('state_set', await call({ language: 'python', code: 'x = 21\nimport threading\nlk = threading.Lock()' }));
out('state_use', await call({ language: 'python', code: 'print(x * 2)' }));
// Output while the run lasts: progress notifications (the SDK sends a
// progressToken when onprogress is given).
{
  const progress = [];
  const result = await client.callTool({ name: 'execute_code', arguments: { language: 'python',
    code: 'import time\nprint("tick 1", flush=True)\ntime.sleep(1.5)\nprint("tick 2")' } }, undefined,
  { onprogress: (p) => progress.push({ ...p, at: Date.now() }) });
  out('progress', { result, progress, done: Date.now() });
}
out('exit', await call({ language: 'javascript', code: 'console.error("bad"); process.exit(4)' }));
out('files', await call({ language: 'python', code: 'import csv\nprint(sum(int(r["n"]) for r in csv.DictReader(open("d.csv"))))',
  files: [{ name: 'd.csv', content: 'n\n20\n22\n' }] }));
// A CSV in, a chart out: a PNG drawn with the standard library only (zlib),
// one bar per row, and a text file; the SDK sees an image content block.
const pngCode = [
  'import csv, struct, zlib',
  'rows = [int(r["n"]) for r in csv.DictReader(open("d.csv"))]',
  'w, h = 8 * len(rows), max(rows)',
  'pix = b"".join(b"\\x00" + bytes(255 if (x // 8 < len(rows) and h - y <= rows[x // 8]) else 0 for x in range(w)) for y in range(h))',
  'def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))',
  'png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(pix)) + chunk(b"IEND", b"")',
  'open("chart.png", "wb").write(png)',
  'open("summary.txt", "w").write("total %d\\n" % sum(rows))',
].join('\n');
out('chart', await call({ language: 'python', code: pngCode, files: [{ name: 'd.csv', content: 'n\n20\n22\n' }] }));
out('bad_file', await call({ language: 'python', code: 'print(1)', files: [{ name: '../d', content: '' }] }));
out('timeout', await call({ language: 'python', code: 'while True: pass', timeout_ms: 500 }));
out('big', await call({ language: 'python', code: 'print("x" * 5000)' }));
out('unknown_lang', await call({ language: 'cobol', code: 'x' }));
out('missing', await call({ language: 'python' }));
// Two at once, and a ping answered while they run.
const [a, b, p] = await Promise.all([
  call({ language: 'python', code: 'import time; time.sleep(1); print("a")' }),
  call({ language: 'javascript', code: 'setTimeout(() => console.log("b"), 1000)' }),
  client.ping(),
]);
out('parallel', [a, b, p]);
try {
  await client.callTool({ name: 'no_such_tool', arguments: {} });
  out('unknown_tool', 'no error');
} catch (e) {
  out('unknown_tool', { code: e.code, message: e.message });
}
// Cancel a long run: the SDK sends notifications/cancelled on abort.
const ac = new AbortController();
const long = client.callTool({ name: 'execute_code', arguments: { language: 'python', code: 'import time; time.sleep(30)' } },
  undefined, { signal: ac.signal });
setTimeout(() => ac.abort('test'), 1500);
const t0 = Date.now();
try { await long; out('cancel', 'finished'); } catch (e) { out('cancel', { aborted: true, ms: Date.now() - t0 }); }
await new Promise((r) => setTimeout(r, 1500));
await client.close();
out('closed', true);
