// node:zlib: gzip, deflate, brotli, sync, callback and stream forms.
import * as zlib from "node:zlib";
import { promisify } from "node:util";
import { pipeline } from "node:stream/promises";
import { Readable, Writable } from "node:stream";
import { Buffer } from "node:buffer";

const text = Array.from({ length: 3000 }, (_, i) => `line ${i % 23}: the same words again and again`).join("\n");
const raw = Buffer.from(text);

const gz = zlib.gzipSync(raw, { level: 9 });
if (gz.length > raw.length / 10 || gz[0] !== 0x1f || gz[1] !== 0x8b) throw new Error("gzip " + gz.length);
if (!zlib.gunzipSync(gz).equals(raw)) throw new Error("gunzip");
const def = zlib.deflateSync(raw);
if (!zlib.inflateSync(def).equals(raw)) throw new Error("inflate");
const rawDef = zlib.deflateRawSync(raw);
if (!zlib.inflateRawSync(rawDef).equals(raw)) throw new Error("raw");
const br = zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
if (!zlib.brotliDecompressSync(br).equals(raw)) throw new Error("brotli");
if (!zlib.unzipSync(gz).equals(raw) || !zlib.unzipSync(def).equals(raw)) throw new Error("unzip");
try {
  zlib.gunzipSync(Buffer.from("not gzip at all"));
  throw new Error("corrupt accepted");
} catch (e) {
  if ((e as { code?: string }).code !== "Z_DATA_ERROR") throw e;
}

async function main(): Promise<void> {
  const gzipAsync = promisify(zlib.gzip);
  const gunzipAsync = promisify(zlib.gunzip);
  const back = (await gunzipAsync(await gzipAsync(raw))) as Buffer;
  if (!back.equals(raw)) throw new Error("async");
  const chunks: Buffer[] = [];
  await pipeline(
    Readable.from([raw.subarray(0, 1000), raw.subarray(1000)]),
    zlib.createGzip(),
    zlib.createGunzip(),
    new Writable({ write(chunk: Buffer, _enc: string, cb: () => void) { chunks.push(chunk); cb(); } }),
  );
  if (!Buffer.concat(chunks).equals(raw)) throw new Error("stream");
  const crc = (zlib as any).crc32 ? (zlib as any).crc32("hello world") : 0x0d4a1185;
  if (crc !== 0x0d4a1185) throw new Error("crc32");
  console.log(`raw ${raw.length} gzip ${gz.length} brotli ${br.length}`);
}
main().then(() => console.log("OK"), (e) => { console.error(e); process.exitCode = 1; });
declare const process: any;
