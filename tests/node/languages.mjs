// Runs each case of a JSON file through a third-party client, unchanged:
// piston-client (Piston's API) or the official MCP TypeScript SDK (which
// spawns `warmbox mcp`).  Prints one {"name", "value"} JSON line per case
// for tests/integration/test_languages.py.
//   node languages.mjs piston URL CASES.json
//   node languages.mjs mcp WARMBOX DAEMON_URL CASES.json
import fs from 'node:fs';
import piston from 'piston-client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const out = (name, value) => console.log(JSON.stringify({ name, value }));
const mode = process.argv[2];

// A few at a time: the daemon and the host's two cores bound the rest.
async function each(cases, fn, width = 4) {
  let next = 0;
  async function worker() {
    while (next < cases.length) {
      const c = cases[next++];
      out(c.name, await fn(c));
    }
  }
  await Promise.all(Array.from({ length: width }, worker));
}

if (mode === 'piston') {
  const [server, file] = process.argv.slice(3);
  const client = piston({ server });
  out('runtimes', await client.runtimes());
  await each(JSON.parse(fs.readFileSync(file, 'utf8')), (c) =>
    client.execute(c.language, c.code, { stdin: c.stdin || '', args: c.args || [], runTimeout: 20000 }));
} else if (mode === 'mcp') {
  const [warmbox, url, file] = process.argv.slice(3);
  const transport = new StdioClientTransport({
    command: warmbox, args: ['--url', url, 'mcp'], env: { ...process.env }, stderr: 'inherit',
  });
  const client = new Client({ name: 'warmbox-languages-test', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  out('tools', tools);
  await each(JSON.parse(fs.readFileSync(file, 'utf8')), (c) => client.callTool({
    name: 'execute_code',
    arguments: { language: c.language, code: c.code, stdin: c.stdin, args: c.args, timeout_ms: 20000 },
  }, undefined, { timeout: 120000 }));
  await client.close();
} else {
  console.error('usage: languages.mjs piston URL CASES | mcp WARMBOX URL CASES');
  process.exit(2);
}
