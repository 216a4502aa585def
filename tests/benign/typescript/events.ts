// node:events: typed emitter wrapper, once, error events, listener bookkeeping, EventTarget.
import { EventEmitter, once, on } from "node:events";

interface JobEvents {
  start: [id: number];
  progress: [id: number, pct: number];
  done: [id: number, result: string];
}

class TypedEmitter<E extends Record<string, unknown[]>> {
  private ee = new EventEmitter();
  on<K extends keyof E & string>(ev: K, fn: (...args: E[K]) => void): this { this.ee.on(ev, fn as any); return this; }
  once<K extends keyof E & string>(ev: K, fn: (...args: E[K]) => void): this { this.ee.once(ev, fn as any); return this; }
  off<K extends keyof E & string>(ev: K, fn: (...args: E[K]) => void): this { this.ee.off(ev, fn as any); return this; }
  emit<K extends keyof E & string>(ev: K, ...args: E[K]): boolean { return this.ee.emit(ev, ...args); }
  count(ev: keyof E & string): number { return this.ee.listenerCount(ev); }
  raw(): EventEmitter { return this.ee; }
}

class Job extends TypedEmitter<JobEvents> {
  constructor(readonly id: number) { super(); }
  run(): void {
    this.emit("start", this.id);
    for (const pct of [25, 50, 75, 100]) this.emit("progress", this.id, pct);
    setImmediate(() => this.emit("done", this.id, "result-" + this.id));
  }
}

async function main(): Promise<void> {
  const seen: string[] = [];
  const job = new Job(7);
  const onProgress = (id: number, pct: number) => seen.push(`${id}:${pct}`);
  job.on("start", (id) => seen.push("start " + id)).on("progress", onProgress);
  job.once("progress", () => seen.push("first progress"));
  const done = once(job.raw(), "done");
  job.run();
  const [id, result] = (await done) as [number, string];
  if (id !== 7 || result !== "result-7") throw new Error("done");
  if (seen.join("|") !== "start 7|7:25|first progress|7:50|7:75|7:100") throw new Error(seen.join("|"));
  job.off("progress", onProgress);
  if (job.count("progress") !== 0 || job.count("start") !== 1) throw new Error("counts");

  const e = new EventEmitter();
  let caught: Error | null = null;
  e.on("error", (err: Error) => { caught = err; });
  e.emit("error", new Error("bad"));
  if ((caught as Error | null)?.message !== "bad") throw new Error("error event");
  const bare = new EventEmitter();
  try { bare.emit("error", new Error("unhandled")); throw new Error("not thrown"); } catch (err) {
    if ((err as Error).message !== "unhandled") throw err;
  }
  const order: string[] = [];
  e.on("x", () => order.push("b"));
  e.prependListener("x", () => order.push("a"));
  e.emit("x");
  if (order.join() !== "a,b" || e.eventNames().join() !== "error,x") throw new Error("prepend");
  e.setMaxListeners(50);
  for (let i = 0; i < 30; i++) e.on("many", () => {});
  if (e.listenerCount("many") !== 30) throw new Error("many");
  e.removeAllListeners("many");

  const ticker = new EventEmitter();
  setTimeout(() => { ticker.emit("tick", 1); ticker.emit("tick", 2); ticker.emit("tick", 3); }, 1);
  const got: number[] = [];
  for await (const [n] of on(ticker, "tick")) {
    got.push(n as number);
    if (got.length === 3) break;
  }
  if (got.join() !== "1,2,3") throw new Error("on()");

  const target = new EventTarget();
  let detail = "";
  target.addEventListener("ping", (ev) => { detail = (ev as CustomEvent<string>).detail; }, { once: true });
  target.dispatchEvent(new CustomEvent("ping", { detail: "pong" }));
  if (detail !== "pong") throw new Error("EventTarget");
  console.log(seen.join(" "));
}
main().then(() => console.log("OK"), (e) => { console.error(e); process.exitCode = 1; });
declare const process: any;
