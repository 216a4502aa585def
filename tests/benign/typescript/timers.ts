// Timers: setTimeout/setInterval/setImmediate, clear*, node:timers/promises, ordering, unref, performance.
import { setTimeout as delay, setImmediate as immediate, setInterval as every } from "node:timers/promises";
import { performance } from "node:perf_hooks";

declare const process: any;

async function main(): Promise<void> {
  const t0 = performance.now();
  await delay(30);
  const waited = performance.now() - t0;
  if (waited < 25) throw new Error("delay " + waited);
  if ((await delay(1, "value")) !== "value" || (await immediate("imm")) !== "imm") throw new Error("values");

  let ticks = 0;
  await new Promise<void>((resolve) => {
    const h = setInterval(() => { if (++ticks === 5) { clearInterval(h); resolve(); } }, 2);
  });
  if (ticks !== 5) throw new Error("interval");
  let n = 0;
  for await (const _ of every(2)) if (++n === 3) break;

  let cancelled = false;
  const h = setTimeout(() => { cancelled = true; }, 5);
  clearTimeout(h);
  const im = setImmediate(() => { cancelled = true; });
  clearImmediate(im);
  await delay(15);
  if (cancelled) throw new Error("clear");

  const order: number[] = [];
  setTimeout(() => order.push(3), 20);
  setTimeout(() => order.push(1), 1);
  setTimeout(() => order.push(2), 10);
  await delay(40);
  if (order.join() !== "1,2,3") throw new Error("order " + order);

  const unrefd = setTimeout(() => { throw new Error("should not fire"); }, 60_000);
  unrefd.unref();
  if (unrefd.hasRef()) throw new Error("unref");
  const r = setTimeout(() => {}, 1);
  r.refresh();

  const ac = new AbortController();
  const p = delay(10_000, null, { signal: ac.signal });
  ac.abort();
  try { await p; throw new Error("not aborted"); } catch (e) { if ((e as Error).name !== "AbortError") throw e; }

  performance.mark("a");
  let x = 0;
  for (let i = 0; i < 1e6; i++) x += i;
  performance.mark("b");
  const m = performance.measure("loop", "a", "b");
  if (m.duration < 0 || x !== 499999500000) throw new Error("measure");
  const hr = process.hrtime.bigint();
  if (typeof hr !== "bigint" || Date.now() < 1.6e12) throw new Error("clocks");
  console.log("waited >= 25ms:", waited >= 25);
}
main().then(() => console.log("OK"), (e) => { console.error(e); process.exitCode = 1; });
