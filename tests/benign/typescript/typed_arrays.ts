// Typed arrays, ArrayBuffer, DataView, Buffer interop, endianness.
import { Buffer } from "node:buffer";

const f32 = new Float32Array([1.5, 2.5, 3.5]);
const f64 = Float64Array.from(f32, (x) => x * 2);
if (f64.join() !== "3,5,7") throw new Error("from");
const u8 = new Uint8Array(f32.buffer);
if (u8.length !== 12) throw new Error("shared buffer");

const clamped = new Uint8ClampedArray([300, -5, 127.6]);
if (clamped.join() !== "255,0,128") throw new Error("clamped " + clamped.join());
const i16 = new Int16Array([40000]);
if (i16[0] !== -25536) throw new Error("wrap");

const buf = new ArrayBuffer(16);
const dv = new DataView(buf);
dv.setUint32(0, 0xdeadbeef);
dv.setUint32(4, 0xdeadbeef, true);
dv.setFloat64(8, Math.PI);
const bytes = new Uint8Array(buf);
if (bytes[0] !== 0xde || bytes[4] !== 0xef || dv.getFloat64(8) !== Math.PI) throw new Error("dataview");
const le = new Uint32Array(buf, 0, 1)[0] === 0xefbeadde;
if (!le) throw new Error("expected a little-endian host");

const sub = bytes.subarray(4, 8);
sub[0] = 0;
if (bytes[4] !== 0) throw new Error("subarray shares");
const sliced = bytes.slice(0, 4);
sliced[0] = 1;
if (bytes[0] !== 0xde) throw new Error("slice copies");

const big = new Int32Array(1_000_000);
for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 1000 - 500;
big.sort();
if (big[0] !== -500 || big[big.length - 1] !== 499) throw new Error("sort");
let s = 0;
for (const v of big) s += v;
if (s !== -500000) throw new Error("sum " + s);
const idx = big.findIndex((v) => v === 0);
if (idx !== 500000) throw new Error("findIndex " + idx);

const b = Buffer.from(bytes.buffer, 0, 4);
if (b.toString("hex") !== "deadbeef") throw new Error("Buffer view " + b.toString("hex"));
const copy = Uint8Array.from(Buffer.from("héllo", "utf8"));
if (copy.length !== 6 || new TextDecoder().decode(copy) !== "héllo") throw new Error("TextDecoder");
const enc = new TextEncoder().encode("€");
if (enc.length !== 3 || enc[0] !== 0xe2) throw new Error("TextEncoder");
const structured = structuredClone({ arr: new Uint16Array([1, 2]) });
if (!(structured.arr instanceof Uint16Array) || structured.arr[1] !== 2) throw new Error("structuredClone");
const sab = new SharedArrayBuffer(8);
const ia = new Int32Array(sab);
Atomics.add(ia, 0, 5);
Atomics.store(ia, 1, 9);
if (Atomics.load(ia, 0) !== 5 || Atomics.exchange(ia, 1, 1) !== 9) throw new Error("atomics");
console.log("bytes", Buffer.from(bytes.subarray(0, 8)).toString("hex"));
console.log("OK");
