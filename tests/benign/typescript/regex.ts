// Regular expressions: named groups, flags (g, i, m, s, u, y, d), lookarounds, replace callbacks, matchAll.
const log = `2024-01-15 10:22:01 ERROR [db] connection lost
2024-01-15 10:22:05 INFO  [db] reconnected
2024-01-16 08:00:00 WARN  [api] slow response: 1532ms
2024-01-16 09:13:37 ERROR [api] timeout after 30000ms`;

interface Entry { date: string; level: string; comp: string; msg: string }
const line = /^(?<date>\d{4}-\d{2}-\d{2}) [\d:]{8} (?<level>[A-Z]+)\s+\[(?<comp>\w+)\] (?<msg>.*)$/gm;
const entries: Entry[] = [...log.matchAll(line)].map((m) => m.groups as unknown as Entry);
if (entries.length !== 4) throw new Error("entries " + entries.length);
const errors = entries.filter((e) => e.level === "ERROR").map((e) => e.comp);
if (errors.join() !== "db,api") throw new Error("errors");
const ms = [...log.matchAll(/(\d+)ms/g)].map((m) => Number(m[1]));
if (ms.join() !== "1532,30000") throw new Error("ms");

const swapped = "2024-03-09".replace(/(?<y>\d+)-(?<m>\d+)-(?<d>\d+)/, "$<d>/$<m>/$<y>");
if (swapped !== "09/03/2024") throw new Error("named replace");
const camel = "some_long_variable_name".replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
if (camel !== "someLongVariableName") throw new Error("callback replace");
const snake = "someLongVariableName".replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
if (snake !== "some_long_variable_name") throw new Error("snake");
if ("a-b_c d".replaceAll(/[-_ ]/g, "") !== "abcd") throw new Error("replaceAll");

const price = /(?<=\$)\d+(\.\d\d)?/;
if (price.exec("cost: $42.50 total")?.[0] !== "42.50") throw new Error("lookbehind");
if (!/^(?!.*password).*$/i.test("my secret") || /^(?!.*password).*$/i.test("my PASSWORD")) throw new Error("negative lookahead");
if (!/a.b/s.test("a\nb") || /a.b/.test("a\nb")) throw new Error("dotAll");
if (!/^\p{Lu}\p{Ll}+$/u.test("Émile") || "😀".match(/./gu)!.length !== 1) throw new Error("unicode");
const sticky = /\d/y;
sticky.lastIndex = 1;
if (!sticky.test("a1") || sticky.test("a1b")) throw new Error("sticky");
const withIdx = /b(c)/d.exec("abcd") as RegExpExecArray & { indices: [number, number][] };
if (withIdx.indices[1][0] !== 2) throw new Error("indices");

const email = /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/;
const emails = ["a@b.co", "x.y+z@mail.example.org", "bad@", "@bad.com", "no space@x.com"].filter((e) => email.test(e));
if (emails.length !== 2) throw new Error("emails " + emails);
if ("a1b2c3".split(/\d/).join("|") !== "a|b|c|" || "a, b;c".split(/[,;]\s*/).length !== 3) throw new Error("split");
const re = new RegExp("\\b" + "word".replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "\\b", "gi");
if (("Word word sword WORD".match(re) ?? []).length !== 3) throw new Error("dynamic regex");
let m: RegExpExecArray | null;
const g = /o/g;
let count = 0;
while ((m = g.exec("foo boo")) !== null) count += m.index > 0 ? 1 : 0;
if (count !== 4) throw new Error("exec loop");
const slow = /^(a+)+$/;
if (slow.test("aaaaaaaaaaaaaaaaaaab".slice(0, 18))) {} // short enough not to backtrack badly
console.log("levels", entries.map((e) => e.level).join(","));
console.log("OK");
