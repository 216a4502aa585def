// async/await, Promise combinators, async errors, microtask ordering, async iteration.
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function fetchValue<T>(value: T, ms: number): Promise<T> {
  await sleep(ms);
  return value;
}

async function failing(ms: number): Promise<never> {
  await sleep(ms);
  throw new Error("failed after " + ms);
}

async function* ticker(n: number): AsyncGenerator<number, void, undefined> {
  for (let i = 0; i < n; i++) {
    await sleep(1);
    yield i;
  }
}

class Semaphore {
  private waiting: Array<() => void> = [];
  constructor(private free: number) {}
  async acquire(): Promise<void> {
    if (this.free > 0) { this.free--; return; }
    await new Promise<void>((r) => this.waiting.push(r));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next(); else this.free++;
  }
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const all = await Promise.all([fetchValue(1, 30), fetchValue("two", 20), fetchValue(true, 10)]);
  if (JSON.stringify(all) !== '[1,"two",true]') throw new Error("all");
  if (Date.now() - t0 > 1000) throw new Error("not concurrent");

  const race = await Promise.race([fetchValue("slow", 50), fetchValue("fast", 5)]);
  if (race !== "fast") throw new Error("race");
  const settled = await Promise.allSettled([fetchValue(1, 1), failing(2)]);
  if (settled[0].status !== "fulfilled" || settled[1].status !== "rejected") throw new Error("allSettled");
  const any = await Promise.any([failing(1), fetchValue("any", 3)]);
  if (any !== "any") throw new Error("any");
  try {
    await Promise.any([failing(1), failing(2)]);
    throw new Error("no AggregateError");
  } catch (e) {
    if (!(e instanceof AggregateError) || e.errors.length !== 2) throw e;
  }
  try {
    await failing(1);
  } catch (e) {
    if ((e as Error).message !== "failed after 1") throw e;
  }

  const order: string[] = [];
  setTimeout(() => order.push("timeout"), 0);
  setImmediate(() => order.push("immediate"));
  Promise.resolve().then(() => order.push("micro1"));
  queueMicrotask(() => order.push("micro2"));
  process.nextTick(() => order.push("tick"));
  order.push("sync");
  await sleep(20);
  // inside an async function (already in a microtask) promise jobs run before nextTick callbacks
  if (order.slice(0, 4).join() !== "sync,micro1,micro2,tick" || order.length !== 6) throw new Error("order " + order);

  const seen: number[] = [];
  for await (const n of ticker(5)) seen.push(n);
  if (seen.join() !== "0,1,2,3,4") throw new Error("for await");

  const sem = new Semaphore(2);
  let running = 0, peak = 0;
  await Promise.all(Array.from({ length: 8 }, async (_, i) => {
    await sem.acquire();
    running++;
    peak = Math.max(peak, running);
    await sleep(2 + (i % 3));
    running--;
    sem.release();
  }));
  if (peak !== 2) throw new Error("semaphore peak " + peak);

  const ac = new AbortController();
  const aborted = new Promise<string>((resolve) => ac.signal.addEventListener("abort", () => resolve(String(ac.signal.reason))));
  ac.abort("stop");
  if ((await aborted) !== "stop") throw new Error("abort");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => { timer = setTimeout(() => resolve("late"), 1000); });
  const withTimeout = await Promise.race([late, sleep(5).then(() => "timeout")]);
  clearTimeout(timer);
  if (withTimeout !== "timeout") throw new Error("timeout race");
  console.log("results", all.join(","));
}

declare const process: any;
main().then(() => console.log("OK"), (e) => { console.error(e); process.exitCode = 1; });
