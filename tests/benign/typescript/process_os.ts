// process and node:os: argv, env, cwd, memory, resource usage, uid, platform; node:readline over a stream.
import * as os from "node:os";
import * as readline from "node:readline";
import { Readable } from "node:stream";

declare const process: any;

async function main(): Promise<void> {
  if (process.argv.length !== 2 || !process.argv[1].endsWith("main.js")) throw new Error("argv " + process.argv);
  if (typeof process.env.HOME !== "string" || process.env.WARMBOX_SURELY_UNSET !== undefined) throw new Error("env");
  process.env.MY_VAR = "42";
  if (process.env.MY_VAR !== "42") throw new Error("env set");
  if (process.cwd() !== process.env.PWD && !process.cwd().startsWith("/")) throw new Error("cwd");
  if (process.platform !== "linux" || !["x64", "arm64"].includes(process.arch)) throw new Error("platform");
  if (!process.version.startsWith("v20.") || !process.versions.v8) throw new Error("version " + process.version);
  if (typeof process.pid !== "number" || typeof process.ppid !== "number") throw new Error("pid");
  const mu = process.memoryUsage();
  if (mu.heapUsed <= 0 || mu.rss <= 0) throw new Error("memoryUsage");
  const ru = process.resourceUsage();
  if (typeof ru.userCPUTime !== "number") throw new Error("resourceUsage");
  const cpu = process.cpuUsage();
  if (cpu.user < 0) throw new Error("cpuUsage");
  if (typeof process.getuid() !== "number" || typeof process.getgid() !== "number") throw new Error("uid");
  if (process.uptime() < 0 || process.umask() < 0) throw new Error("uptime");
  if (typeof process.stdout.write !== "function" || process.exitCode !== undefined) throw new Error("process misc");

  if (os.EOL !== "\n" || os.platform() !== "linux" || os.endianness() !== "LE") throw new Error("os basics");
  if (os.cpus().length < 1 && os.availableParallelism() < 1) throw new Error("cpus");
  if (os.totalmem() <= 0 || os.freemem() <= 0 || typeof os.hostname() !== "string") throw new Error("memory");
  if (typeof os.tmpdir() !== "string" || typeof os.homedir() !== "string" || typeof os.release() !== "string") throw new Error("dirs");
  const load = os.loadavg();
  if (load.length !== 3 || os.uptime() <= 0) throw new Error("load");
  let user = "?";
  try { user = os.userInfo().username; } catch { user = "(no passwd entry)"; }
  // (os.networkInterfaces() asks a netlink socket, which the sandbox refuses:
  // there is no network to list.)

  const rl = readline.createInterface({ input: Readable.from(["alpha 1\nbeta 2\n", "gamma 3\n", "delta 4"]), crlfDelay: Infinity });
  let total = 0;
  const names: string[] = [];
  for await (const line of rl) {
    const [name, num] = (line as string).split(" ");
    names.push(name);
    total += Number(num);
  }
  if (total !== 10 || names.join() !== "alpha,beta,gamma,delta") throw new Error("readline");
  console.log(`user ${user}, ${os.availableParallelism()} cpus`);
}
main().then(() => console.log("OK"), (e) => { console.error(e); process.exitCode = 1; });
