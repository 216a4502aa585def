// node:path, node:util (format, inspect, promisify, types, TextEncoder, deprecate, parseArgs), node:url, node:querystring.
import * as path from "node:path";
import * as util from "node:util";
import { URL, URLSearchParams, fileURLToPath, pathToFileURL } from "node:url";
import * as qs from "node:querystring";
import { strict as assert } from "node:assert";

assert.equal(path.join("/a/b", "../c", "./d.txt"), "/a/c/d.txt");
assert.equal(path.resolve("/root", "x", "..", "y"), "/root/y");
assert.equal(path.basename("/x/y/file.tar.gz", ".gz"), "file.tar");
assert.equal(path.extname("archive.tar.gz"), ".gz");
assert.equal(path.dirname("/x/y/z"), "/x/y");
assert.deepEqual(path.parse("/home/u/f.txt"), { root: "/", dir: "/home/u", base: "f.txt", ext: ".txt", name: "f" });
assert.equal(path.format({ dir: "/tmp", name: "out", ext: ".log" }), "/tmp/out.log");
assert.equal(path.relative("/data/a/b", "/data/c"), "../../c");
assert.equal(path.normalize("a//b/../c/."), "a/c");
assert.equal(path.isAbsolute("rel/x"), false);
assert.equal(path.posix.sep, "/");
assert.equal(path.win32.join("C:\\x", "y"), "C:\\x\\y");
assert.ok(path.isAbsolute(path.resolve("x")));

assert.equal(util.format("%s has %d items costing %f: %j", "cart", 3, 1.5, { a: 1 }), 'cart has 3 items costing 1.5: {"a":1}');
assert.equal(util.format("%o", [1]).startsWith("[ 1"), true);
const inspected = util.inspect({ a: { b: { c: { d: 1 } } }, arr: [1, 2, 3], m: new Map([["k", 1]]) }, { depth: 1, compact: true });
assert.ok(inspected.includes("[Object]") && inspected.includes("arr: [ 1, 2, 3 ]"), inspected);
assert.ok(util.isDeepStrictEqual({ x: [1, { y: 2 }] }, { x: [1, { y: 2 }] }));
assert.ok(util.types.isPromise(Promise.resolve()) && util.types.isRegExp(/x/) && util.types.isDate(new Date()));
assert.equal(util.inspect("str"), "'str'");
const old = util.deprecate(() => 1, "old() is deprecated", "DEP_WB");
assert.equal(typeof old, "function");
const { values, positionals } = util.parseArgs({ args: ["-v", "--name", "x", "pos"], allowPositionals: true,
  options: { v: { type: "boolean", short: "v" }, name: { type: "string" } } });
assert.deepEqual([values.v, values.name, positionals[0]], [true, "x", "pos"]);
class Custom { [util.inspect.custom](): string { return "Custom<>"; } }
assert.equal(util.inspect(new Custom()), "Custom<>");

const u = new URL("https://user:pw@example.com:8080/p/a/t/h?query=string&x=1&x=2#hash");
assert.equal(u.hostname, "example.com");
assert.equal(u.port, "8080");
assert.deepEqual(u.searchParams.getAll("x"), ["1", "2"]);
u.searchParams.append("new", "a b&c");
assert.ok(u.href.endsWith("new=a+b%26c#hash"));
assert.equal(new URL("../up", "http://h/a/b/c").href, "http://h/a/up");
assert.equal(fileURLToPath("file:///tmp/x%20y"), "/tmp/x y");
assert.equal(pathToFileURL("/tmp/a b").href, "file:///tmp/a%20b");
assert.equal(new URLSearchParams({ a: "1", b: "two words" }).toString(), "a=1&b=two+words");
assert.deepEqual({ ...qs.parse("a=1&b=2&b=3") }, { a: "1", b: ["2", "3"] });
assert.equal(qs.stringify({ q: "x y", n: 1 }), "q=x%20y&n=1");
assert.throws(() => assert.equal(1, 2), assert.AssertionError);

async function main(): Promise<void> {
  const wait = util.promisify((ms: number, cb: (err: Error | null, v?: string) => void) => setTimeout(() => cb(null, "waited"), ms));
  assert.equal(await wait(5), "waited");
  const cbStyle = util.callbackify(async (x: number) => x * 2);
  const v = await new Promise((res, rej) => cbStyle(21, (e: Error | null, r: number) => (e ? rej(e) : res(r))));
  assert.equal(v, 42);
  console.log(util.format("%s %i", "parsed", 42.9));
}
main().then(() => console.log("OK"), (e) => { console.error(e); process.exitCode = 1; });
declare const process: any;
