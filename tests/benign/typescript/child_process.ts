// node:child_process: spawnSync / execFileSync / spawn / fork of Node itself (no shell).
import { spawnSync, spawn, execFileSync, execFile, fork } from "node:child_process";
import { promisify } from "node:util";
import * as fs from "node:fs";

declare const process: any;
declare const __filename: string;

if (process.argv[2] === "forked") {
  process.on("message", (m: { n: number }) => {
    process.send({ doubled: m.n * 2 }, () => process.disconnect());
  });
} else {
  main().then(() => console.log("OK"), (e) => { console.error(e); process.exitCode = 1; });
}

async function main(): Promise<void> {
  const r = spawnSync(process.execPath, ["-e", "process.stdin.pipe(process.stdout); console.error('err line')"], { input: "piped in" });
  if (r.status !== 0 || r.stdout.toString() !== "piped in" || r.stderr.toString() !== "err line\n") throw new Error("spawnSync " + JSON.stringify(r));
  const code = spawnSync(process.execPath, ["-e", "process.exit(3)"]);
  if (code.status !== 3) throw new Error("exit status " + code.status);
  const env = spawnSync(process.execPath, ["-e", "console.log(process.env.CHILD_VAR, process.argv.slice(1).join('+'))", "a", "b"], {
    env: { ...process.env, CHILD_VAR: "set" }, encoding: "utf8" });
  if (env.stdout !== "set a+b\n") throw new Error("env/argv " + env.stdout);
  const version = execFileSync(process.execPath, ["--version"], { encoding: "utf8" });
  if (!/^v20\./.test(version)) throw new Error("version " + version);
  const viaFile = await promisify(execFile)(process.execPath, ["-p", "6*7"]);
  if (viaFile.stdout.trim() !== "42") throw new Error("execFile");
  const killed = spawnSync(process.execPath, ["-e", "setTimeout(()=>{}, 10000)"], { timeout: 200 });
  if (killed.signal !== "SIGTERM") throw new Error("timeout kill " + killed.signal);

  const child = spawn(process.execPath, ["-e", "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{console.log(s.toUpperCase());process.exit(5)})"],
    { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  child.stdout!.on("data", (d: unknown) => (out += d));
  child.stdin!.end("streamed");
  const exitCode = await new Promise<number>((resolve) => child.on("close", (c: number) => resolve(c)));
  if (exitCode !== 5 || out !== "STREAMED\n") throw new Error("spawn " + exitCode + " " + out);

  if (!fs.existsSync(__filename)) throw new Error("script file");
  const f = fork(__filename, ["forked"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const reply = await new Promise<{ doubled: number }>((resolve) => { f.on("message", (m: any) => resolve(m)); f.send({ n: 21 }); });
  await new Promise((resolve) => f.on("exit", resolve));
  if (reply.doubled !== 42) throw new Error("fork ipc");

  console.log("children ran:", r.status, code.status, exitCode);
}
