// node:fs (sync, callback and promise APIs) in the working directory.
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import * as os from "node:os";

async function main(): Promise<void> {
  const dir = path.join(".", "work", "nested", "deeper");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync("work/a.txt", "alpha\nbeta\ngamma\n");
  fs.appendFileSync("work/a.txt", "delta\n");
  const lines = fs.readFileSync("work/a.txt", "utf8").trimEnd().split("\n");
  if (lines.join() !== "alpha,beta,gamma,delta") throw new Error("lines");
  if (fs.statSync("work/a.txt").size !== 23 || !fs.existsSync(dir)) throw new Error("stat");

  await fsp.writeFile(path.join(dir, "b.json"), JSON.stringify({ n: 1 }));
  const parsed = JSON.parse(await fsp.readFile(path.join(dir, "b.json"), "utf8")) as { n: number };
  if (parsed.n !== 1) throw new Error("promises");
  await fsp.copyFile("work/a.txt", "work/copy.txt");
  await fsp.rename("work/copy.txt", "work/nested/moved.txt");

  const fd = fs.openSync("work/bin.dat", "w+");
  const buf = Buffer.alloc(1024, 7);
  fs.writeSync(fd, buf, 0, buf.length, 0);
  fs.fsyncSync(fd);
  const back = Buffer.alloc(4);
  fs.readSync(fd, back, 0, 4, 1020);
  fs.closeSync(fd);
  if (back.toString("hex") !== "07070707") throw new Error("fd io");
  const fh = await fsp.open("work/bin.dat", "r");
  const { bytesRead } = await fh.read(Buffer.alloc(10), 0, 10, 0);
  await fh.close();
  if (bytesRead !== 10) throw new Error("filehandle");
  fs.truncateSync("work/bin.dat", 100);

  const walk = (d: string): string[] =>
    fs.readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]);
  const files = walk("work").sort();
  if (files.join() !== "work/a.txt,work/bin.dat,work/nested/deeper/b.json,work/nested/moved.txt") throw new Error("walk " + files);

  await new Promise<void>((resolve, reject) =>
    fs.readFile("work/a.txt", (err, data) => (err ? reject(err) : data.length === 23 ? resolve() : reject(new Error("cb")))));
  const ws = fs.createWriteStream("work/stream.txt");
  for (let i = 0; i < 1000; i++) ws.write(`row ${i}\n`);
  await new Promise<void>((resolve) => ws.end(resolve));
  let streamed = 0;
  for await (const chunk of fs.createReadStream("work/stream.txt", { highWaterMark: 1024 })) streamed += (chunk as Buffer).length;
  if (streamed !== fs.statSync("work/stream.txt").size) throw new Error("streams");

  try {
    fs.readFileSync("work/missing.txt");
    throw new Error("missing");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  fs.accessSync("work/a.txt", fs.constants.R_OK | fs.constants.W_OK);
  fs.chmodSync("work/a.txt", 0o600);
  if ((fs.statSync("work/a.txt").mode & 0o777) !== 0o600) throw new Error("chmod");
  fs.symlinkSync("a.txt", "work/link");
  if (fs.readlinkSync("work/link") !== "a.txt" || fs.readFileSync("work/link", "utf8").length !== 23) throw new Error("symlink");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-"));
  fs.writeFileSync(path.join(tmp, "t"), "t");
  const watcherless = fs.realpathSync(".");
  fs.rmSync("work", { recursive: true, force: true });
  fs.rmSync(tmp, { recursive: true });
  if (fs.existsSync("work")) throw new Error("rm");
  console.log("cwd absolute", path.isAbsolute(watcherless));
}

declare namespace NodeJS { interface ErrnoException extends Error { code?: string } }
main().then(() => console.log("OK"), (e) => { console.error(e); process.exitCode = 1; });
declare const process: any;
declare const Buffer: any;
