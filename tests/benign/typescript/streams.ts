// node:stream: Readable/Writable/Transform/Duplex subclasses, pipeline, object mode, backpressure, async iteration.
import { Readable, Writable, Transform, PassThrough, Duplex, TransformCallback } from "node:stream";
import { pipeline, finished } from "node:stream/promises";
import { Buffer } from "node:buffer";
import { StringDecoder } from "node:string_decoder";

class Counter extends Readable {
  private n = 0;
  constructor(private readonly max: number) { super({ objectMode: true }); }
  _read(): void {
    this.n++;
    this.push(this.n > this.max ? null : { n: this.n });
  }
}

class LineSplitter extends Transform {
  private rest = "";
  private dec = new StringDecoder("utf8");
  _transform(chunk: Buffer, _enc: string, cb: TransformCallback): void {
    const lines = (this.rest + this.dec.write(chunk)).split("\n");
    this.rest = lines.pop() ?? "";
    for (const l of lines) this.push(l);
    cb();
  }
  _flush(cb: TransformCallback): void {
    if (this.rest) this.push(this.rest);
    cb();
  }
}

class Collect<T> extends Writable {
  readonly items: T[] = [];
  constructor(objectMode = true) { super({ objectMode, highWaterMark: 2 }); }
  _write(chunk: T, _enc: string, cb: (e?: Error | null) => void): void {
    this.items.push(chunk);
    setImmediate(cb);
  }
}

async function main(): Promise<void> {
  const sink = new Collect<number>();
  await pipeline(
    new Counter(100),
    new Transform({ objectMode: true, transform(o: { n: number }, _e, cb) { cb(null, o.n % 3 === 0 ? o.n * 10 : undefined); } }),
    sink,
  );
  if (sink.items.length !== 33 || sink.items[0] !== 30 || sink.items[32] !== 990) throw new Error("pipeline " + sink.items.length);

  const lines = new Collect<Buffer>();
  const text = Buffer.from("héllo\nwörld\n✓ done");
  await pipeline(Readable.from([text.subarray(0, 2), text.subarray(2, 9), text.subarray(9)]), new LineSplitter(), lines);
  if (lines.items.map(String).join("|") !== "héllo|wörld|✓ done") throw new Error("lines " + lines.items.map(String));

  const upper: string[] = [];
  for await (const chunk of Readable.from(["a", "b", "c"]).map((s: string) => s.toUpperCase())) upper.push(chunk);
  if (upper.join("") !== "ABC") throw new Error("map");
  const arr = await Readable.from([1, 2, 3, 4, 5]).filter((x: number) => x % 2 === 1).toArray();
  if (arr.join() !== "1,3,5") throw new Error("toArray");

  const pt = new PassThrough();
  const parts: string[] = [];
  pt.on("data", (c: Buffer) => parts.push(c.toString()));
  pt.write("x");
  pt.end("y");
  await finished(pt);
  if (parts.join("") !== "xy") throw new Error("passthrough");

  const echo = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) { this.push(chunk.toString().split("").reverse().join("")); cb(); },
    final(cb) { this.push(null); cb(); },
  });
  let reversed = "";
  echo.on("data", (c: Buffer) => (reversed += c));
  echo.end("stressed");
  await finished(echo);
  if (reversed !== "desserts") throw new Error("duplex");

  const slow = new Collect<string>(false);
  let refused = 0;
  for (let i = 0; i < 10; i++) if (!slow.write("chunk" + i)) refused++;
  slow.end();
  await finished(slow);
  if (refused === 0 || slow.items.length !== 10) throw new Error("backpressure");

  try {
    await pipeline(Readable.from(["a"]), new Transform({ transform(_c, _e, cb) { cb(new Error("broken")); } }), new Collect());
    throw new Error("no error");
  } catch (e) {
    if ((e as Error).message !== "broken") throw e;
  }
  const web = new ReadableStream<string>({ start(c) { c.enqueue("w1"); c.enqueue("w2"); c.close(); } });
  // Readable.fromWeb yields Buffers unless told to use object mode
  const fromWeb: string[] = [];
  for await (const x of Readable.fromWeb(web as any, { objectMode: true })) fromWeb.push(x as string);
  if (fromWeb.join() !== "w1,w2") throw new Error("web streams");
  process.stdout.write(`multiples ${sink.items.length}\n`);
}
main().then(() => console.log("OK"), (e) => { console.error(e); process.exitCode = 1; });
declare const process: any;
