// Drives warmboxd's E2B-compatible API with the official E2B SDK
// (npm @e2b/code-interpreter, on e2b), pointed at warmboxd by the three
// environment variables E2B users set.  Each step runs in its own
// try/catch and prints one {"name", "value"} JSON line (an error is
// {"thrown": {...}}), so one failing step hides none of the others; the
// last line is "summary".  For tests/integration/test_e2b.py.
//
//   node e2b_client.mjs URL ALICE_KEY BOB_KEY
//   node e2b_client.mjs URL KEY --bench N      (tests/bench/bench_e2b.py)
//
// URL is warmboxd's TCP address, http://127.0.0.1:PORT (no trailing slash);
// the keys are warmbox API tokens (E2B_API_KEY).
import { Sandbox, CommandExitError, SandboxNotFoundError } from '@e2b/code-interpreter';

const [url, aliceKey, third, fourth] = process.argv.slice(2);
if (!url || !aliceKey) {
  console.error('usage: node e2b_client.mjs URL ALICE_KEY BOB_KEY | URL KEY --bench N');
  process.exit(2);
}
process.env.E2B_API_URL = url;
process.env.E2B_SANDBOX_URL = url;
process.env.E2B_API_KEY = aliceKey;
delete process.env.E2B_DEBUG;
delete process.env.E2B_DOMAIN;

const out = (name, value) => console.log(JSON.stringify({ name, value }));
const STEP_MS = 120_000; // a step that hangs is reported, and the next one runs
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ENVD = '49983'; // E2b-Sandbox-Port of envd (files, commands)
const JUPYTER = '49999'; // of the code interpreter (/execute)

function describe(e) {
  if (!(e instanceof Error)) return { class: typeof e, message: String(e) };
  const d = { class: e.constructor?.name, name: e.name, message: String(e.message).slice(0, 600) };
  for (const k of ['exitCode', 'stdout', 'stderr', 'error', 'statusCode']) {
    try {
      if (e[k] !== undefined) d[k] = typeof e[k] === 'string' ? e[k].slice(0, 600) : e[k];
    } catch { /* a getter over a missing result */ }
  }
  if (e instanceof CommandExitError) d.commandExitError = true;
  if (e instanceof SandboxNotFoundError) d.sandboxNotFound = true;
  return d;
}

async function step(name, fn) {
  let timer;
  try {
    const value = await Promise.race([
      fn(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`step timed out after ${STEP_MS} ms`)), STEP_MS);
      }),
    ]);
    out(name, value === undefined ? null : value);
    return value;
  } catch (e) {
    out(name, { thrown: describe(e) });
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

// Every runCode and commands.run goes through these, so that the test can
// compare the number of calls with the containers the engine started.
const calls = { runCode: 0, commands: 0, completed: 0 };
function need(s) {
  if (!s) throw new Error('no sandbox: Sandbox.create failed');
  return s;
}
async function run(sbx, code, opts) {
  need(sbx);
  calls.runCode++;
  const e = await sbx.runCode(code, opts);
  calls.completed++;
  return e;
}
async function cmd(sbx, command, opts) {
  need(sbx);
  calls.commands++;
  try {
    const r = await sbx.commands.run(command, opts);
    calls.completed++;
    return r;
  } catch (e) {
    if (e instanceof CommandExitError) calls.completed++; // it ran, and exited non-zero
    throw e;
  }
}

function png(b64) {
  if (!b64) return null;
  const bytes = Buffer.from(b64, 'base64');
  return { head: b64.slice(0, 16), length: b64.length, bytes: bytes.length, magic: bytes.subarray(0, 8).equals(PNG) };
}

function exe(e) {
  return {
    text: e.text ?? null,
    results: e.results.map((r) => ({
      isMainResult: r.isMainResult, text: r.text ?? null, formats: r.formats(), png: png(r.png),
    })),
    stdout: e.logs.stdout,
    stderr: e.logs.stderr,
    error: e.error ? { name: e.error.name, value: e.error.value, traceback: e.error.traceback } : null,
    executionCount: e.executionCount ?? null,
  };
}

function cmdResult(r) {
  return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, error: r.error ?? null };
}

async function listed(apiKey) {
  const p = Sandbox.list({ apiKey });
  const ids = [];
  for (let pages = 0; p.hasNext && pages < 20; pages++) {
    for (const s of await p.nextItems()) ids.push(s.sandboxId);
  }
  return ids;
}

// A request of our own on the sandbox plane (what the SDK sends, with the
// headers we choose).
async function raw(path, { method = 'GET', sandboxId, port = ENVD, token, apiKey, body, type } = {}) {
  const headers = {};
  if (sandboxId !== undefined) headers['E2b-Sandbox-Id'] = sandboxId;
  if (port) headers['E2b-Sandbox-Port'] = port;
  if (token !== undefined) headers['X-Access-Token'] = token;
  if (apiKey !== undefined) headers['X-API-Key'] = apiKey;
  if (type) headers['Content-Type'] = type;
  const res = await fetch(url + path, { method, headers, body, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  return { status: res.status, body: text.slice(0, 400) };
}

// ---- bench: N sequential runCode round trips on one sandbox ---------------

if (third === '--bench') {
  const n = Number(fourth) || 10;
  const auth = { Authorization: 'Bearer ' + aliceKey };
  // As the /v1 rounds do: wait until the python pool is full again and the
  // engine quiet, so that every round is a pool hit.
  let pools = true; // false once /v1/pools cannot be read: then only the pause
  const poolReady = async () => {
    for (let i = 0; pools && i < 3000; i++) {
      try {
        const r = await fetch(url + '/v1/pools', { headers: auth });
        if (!r.ok) { pools = false; break; }
        const b = await r.json();
        if ((b.pools || []).some((p) => p.language === 'python' && !p.draining && p.ready >= 2)) break;
      } catch { pools = false; break; }
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 250));
  };
  const res = { n, times_ms: [], errors: [] };
  let sbx;
  try {
    const t0 = performance.now();
    sbx = await Sandbox.create({ apiKey: aliceKey, timeoutMs: 600_000 });
    res.create_ms = performance.now() - t0;
    await poolReady();
    const w = await sbx.runCode('print(6*7)'); // warm-up, not timed
    if (w.logs.stdout.join('') !== '42\n') throw new Error('warm-up: ' + JSON.stringify(exe(w)));
    for (let i = 0; i < n; i++) {
      await poolReady();
      const t = performance.now();
      const e = await sbx.runCode('print(6*7)');
      const ms = performance.now() - t;
      if (e.logs.stdout.join('') !== '42\n' || e.error) res.errors.push(exe(e));
      else res.times_ms.push(ms);
    }
  } catch (e) {
    res.thrown = describe(e);
  }
  if (sbx) await sbx.kill().catch(() => {});
  const v = [...res.times_ms].sort((a, b) => a - b);
  const pct = (p) => {
    if (!v.length) return null;
    const k = (v.length - 1) * p / 100, lo = Math.floor(k), hi = Math.min(lo + 1, v.length - 1);
    return v[lo] + (v[hi] - v[lo]) * (k - lo);
  };
  res.p50_ms = pct(50);
  res.p90_ms = pct(90);
  out('bench', res);
  process.exit(res.thrown || res.errors.length ? 1 : 0);
}

// ---- the test's steps -----------------------------------------------------

const bobKey = third;
let sbx;
let sid;

// 1. create
await step('create', async () => {
  sbx = await Sandbox.create({ apiKey: aliceKey, timeoutMs: 300_000 });
  sid = sbx.sandboxId;
  return { sandboxId: sid, hasAccessToken: !!sbx.envdAccessToken };
});

// 2. state between two runCode calls
await step('state_set', async () => exe(await run(sbx, 'x = 21')));
await step('state_use', async () => exe(await run(sbx, 'x * 2')));

// 3. stdout while the run lasts.  The order of events proves it: when
// "tick 1" reaches onStdout, a probe starts (an HTTP round trip to the
// daemon's /healthz, which needs no session); if the output were held
// back to the end, "tick 2" would come in the same read, before any
// network reply could, so the probe would finish after it.
await step('stream', async () => {
  const events = [];
  let settled = false;
  const probes = [];
  const code = 'import time\nprint("tick 1", flush=True)\ntime.sleep(2)\nprint("tick 2")';
  const p = run(sbx, code, {
    onStdout: (m) => {
      events.push({ ev: 'stdout', line: m.line, settled });
      if (m.line.includes('tick 1')) {
        probes.push(fetch(url + '/healthz').then(
          (r) => r.text().then(() => events.push({ ev: 'probe', status: r.status, settled })),
          (e) => events.push({ ev: 'probe', error: String(e), settled })));
      }
    },
  });
  p.then(() => { settled = true; events.push({ ev: 'settled' }); },
    () => { settled = true; events.push({ ev: 'rejected' }); });
  const e = await p;
  await Promise.allSettled(probes);
  await new Promise((r) => setTimeout(r, 0));
  return { events, execution: exe(e) };
});

// 4. an exception
await step('error', async () => exe(await run(sbx, '1/0')));

// 5. files.write, then code reads it (absolute and relative paths)
await step('write', async () => {
  const info = await need(sbx).files.write('/home/user/data.txt', 'hello e2b');
  return { name: info?.name, path: info?.path, type: info?.type };
});
await step('read_abs', async () => exe(await run(sbx, 'print(open("/home/user/data.txt").read())')));
await step('read_rel', async () => exe(await run(sbx, 'print(open("data.txt").read())')));

// 6, 7. commands
await step('ls', async () => cmdResult(await cmd(sbx, 'ls')));
await step('exit3', async () => {
  const r = await cmd(sbx, 'echo oops >&2; exit 3');
  return { notThrown: cmdResult(r) };
});

// 8. matplotlib: plt.show(), and a figure left open at the cell's end
await step('chart_show', async () => exe(await run(sbx,
  'import matplotlib.pyplot as plt\nplt.plot([1,2,3],[4,1,9])\nplt.show()')));
await step('chart_open', async () => exe(await run(sbx,
  'import matplotlib.pyplot as plt\nfig = plt.figure()\nplt.plot([3,1,2])\nprint("drawn")')));

// 9 (first half). files.list, read, exists
await step('dataframe', async () => exe(await run(sbx,
  'import pandas as pd\npd.DataFrame({"a": [1, 2], "b": [3, 4]})')));
await step('quoted', async () => exe(await run(sbx, "'hi'")));
await step('unicode', async () => exe(await run(sbx, 'print("h\u00e9llo \u2603")\nraise ValueError("na\u00efve caf\u00e9")')));
await step('main_py', async () => {
  await need(sbx).files.write('/home/user/main.py', 'print("mine")');
  await run(sbx, '1');
  await cmd(sbx, 'true');
  const kept = await need(sbx).files.read('/home/user/main.py');
  await need(sbx).files.remove('/home/user/main.py');
  return kept;
});
await step('list', async () => (await need(sbx).files.list('/home/user'))
  .map((e) => ({ name: e.name, type: e.type, path: e.path, size: e.size })));
await step('files_read', async () => await need(sbx).files.read('/home/user/data.txt'));
await step('exists', async () => await need(sbx).files.exists('/home/user/data.txt'));
await step('exists_nope', async () => await need(sbx).files.exists('/home/user/nope'));

// 13. isolation: bob (another key) against alice's sandbox
await step('bob_connect', async () => {
  const s = await Sandbox.connect(need(sid), { apiKey: bobKey });
  return { connected: s.sandboxId };
});
await step('bob_list', async () => ({ ids: await listed(bobKey), target: sid }));
await step('bob_get_info', async () => ({ info: await Sandbox.getInfo(need(sid), { apiKey: bobKey }) }));
await step('bob_kill', async () => ({ killed: await Sandbox.kill(need(sid), { apiKey: bobKey }) }));
await step('alice_list', async () => ({ ids: await listed(aliceKey), target: sid }));
await step('alice_still_running', async () => await need(sbx).isRunning());
// The sandbox plane authenticates by the sandbox's access token, which
// bob does not have.  First the control: the same request with the right
// one reads the file (so the refusals below are about the token).
await step('raw_read_right_token', async () => raw('/files?path=' + encodeURIComponent('/home/user/data.txt'),
  { sandboxId: sid, token: need(sbx).envdAccessToken, apiKey: aliceKey }));
await step('bob_read_wrong_token', async () => raw('/files?path=' + encodeURIComponent('/home/user/data.txt'),
  { sandboxId: sid, token: 'not-' + (need(sbx).envdAccessToken || 'a-token'), apiKey: bobKey }));
await step('bob_read_no_token', async () => raw('/files?path=' + encodeURIComponent('/home/user/data.txt'),
  { sandboxId: sid, apiKey: bobKey }));
await step('bob_execute_wrong_token', async () => raw('/execute', {
  method: 'POST', sandboxId: sid, port: JUPYTER, apiKey: bobKey,
  token: 'not-' + (need(sbx).envdAccessToken || 'a-token'),
  type: 'application/json', body: JSON.stringify({ code: 'print(x)' }),
}));

// 9 (second half). remove, and then code and commands see it gone
await step('remove', async () => { await need(sbx).files.remove('/home/user/data.txt'); return true; });
await step('exists_after_remove', async () => await need(sbx).files.exists('/home/user/data.txt'));
await step('gone_code', async () => exe(await run(sbx,
  'import os\nprint(os.path.exists("data.txt"), os.path.exists("/home/user/data.txt"))')));
await step('gone_ls', async () => cmdResult(await cmd(sbx, 'ls -a')));

// 10. setTimeout, connect, getInfo
await step('set_timeout', async () => { await need(sbx).setTimeout(60_000); return true; });
await step('connect', async () => {
  const s = await Sandbox.connect(need(sid), { apiKey: aliceKey });
  return { sandboxId: s.sandboxId, x: exe(await run(s, 'x')) };
});
await step('get_info', async () => {
  const i = await need(sbx).getInfo();
  return { sandboxId: i.sandboxId, templateId: i.templateId, state: i.state, envdVersion: i.envdVersion,
    startedAt: String(i.startedAt), endAt: String(i.endAt) };
});

// 11. kill, and then it is gone
await step('kill', async () => ({ killed: await need(sbx).kill() }));
await step('connect_after_kill', async () => {
  const s = await Sandbox.connect(need(sid), { apiKey: aliceKey });
  return { connected: s.sandboxId };
});
await step('running_after_kill', async () => await need(sbx).isRunning());
await step('list_after_kill', async () => ({ ids: await listed(aliceKey), target: sid }));

out('summary', { sandboxId: sid ?? null, calls });
process.exit(0);
