// node:worker_threads: workers from this file and from eval, messages, transfer, SharedArrayBuffer + Atomics, MessageChannel.
import { Worker, isMainThread, parentPort, workerData, MessageChannel } from "node:worker_threads";

declare const __filename: string;
declare const process: any;

interface Task { from: number; to: number; shared: SharedArrayBuffer }

function sumPrimes(from: number, to: number): number {
  let s = 0;
  for (let n = Math.max(2, from); n < to; n++) {
    let p = true;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) { p = false; break; }
    if (p) s += n;
  }
  return s;
}

if (!isMainThread) {
  const t = workerData as Task;
  const s = sumPrimes(t.from, t.to);
  Atomics.add(new Int32Array(t.shared), 0, 1);
  parentPort!.postMessage({ s });
} else {
  main().then(() => console.log("OK"), (e) => { console.error(e); process.exitCode = 1; });
}

function run(task: Task): Promise<number> {
  return new Promise((resolve, reject) => {
    const w = new Worker(__filename, { workerData: task });
    w.once("message", (m: { s: number }) => resolve(m.s));
    w.once("error", reject);
    w.once("exit", (code: number) => { if (code !== 0) reject(new Error("worker exit " + code)); });
  });
}

async function main(): Promise<void> {
  const shared = new SharedArrayBuffer(4);
  const ranges = [[0, 25000], [25000, 50000], [50000, 75000], [75000, 100000]];
  const parts = await Promise.all(ranges.map(([from, to]) => run({ from, to, shared })));
  const total = parts.reduce((a, b) => a + b, 0);
  if (total !== sumPrimes(0, 100000) || total !== 454396537) throw new Error("sum " + total);
  if (Atomics.load(new Int32Array(shared), 0) !== 4) throw new Error("atomics");

  const echo = new Worker(`
    const { parentPort } = require("node:worker_threads");
    parentPort.on("message", (m) => {
      if (m === "bye") { parentPort.close(); return; }
      const view = new Uint8Array(m.buf);
      parentPort.postMessage({ len: view.length, first: view[0] });
    });`, { eval: true });
  const buf = new Uint8Array(1 << 20).fill(9).buffer;
  const reply = await new Promise<{ len: number; first: number }>((resolve) => {
    echo.once("message", resolve);
    echo.postMessage({ buf }, [buf]);
  });
  if (reply.len !== 1 << 20 || reply.first !== 9 || buf.byteLength !== 0) throw new Error("transfer");
  echo.postMessage("bye");
  await new Promise((r) => echo.once("exit", r));

  const { port1, port2 } = new MessageChannel();
  const got = new Promise((resolve) => port2.once("message", resolve));
  port1.postMessage({ via: "channel" });
  if (((await got) as { via: string }).via !== "channel") throw new Error("channel");
  port1.close();

  const failing = new Worker("throw new Error('worker failure')", { eval: true });
  const err = await new Promise<Error>((resolve) => failing.once("error", resolve));
  if (err.message !== "worker failure") throw new Error("error propagation");
  console.log("sum of primes below 100000:", total);
}
