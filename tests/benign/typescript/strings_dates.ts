// Strings (template literals, unicode, padding, normalize, localeCompare), Date arithmetic, Math.
type Greeting<N extends string> = `hello ${N}`;
const g: Greeting<"world"> = "hello world";

function tag(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce((acc, s, i) => acc + s + (i < values.length ? `[${String(values[i])}]` : ""), "");
}
function dedent(s: string): string {
  const lines = s.replace(/^\n/, "").split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)![0].length));
  return lines.map((l) => l.slice(indent)).join("\n");
}
function table(rows: Array<[string, number]>): string {
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)} | ${v.toFixed(2).padStart(8)}`).join("\n");
}

if (g.toUpperCase() !== "HELLO WORLD") throw new Error("template type");
if (tag`a${1}b${"x"}c` !== "a[1]b[x]c") throw new Error("tagged");
if (String.raw`\n${1}` !== "\\n1") throw new Error("raw");
if (dedent(`
    first
      second
    third`) !== "first\n  second\nthird") throw new Error("dedent");
if (table([["apples", 1.5], ["kiwi", 120]]) !== "apples |     1.50\nkiwi   |   120.00") throw new Error("table\n" + table([["apples", 1.5], ["kiwi", 120]]));

const s = "héllo wörld ✓ 😀";
if (s.length !== 16 || [...s].length !== 15 || s.codePointAt(14) !== 0x1f600) throw new Error("unicode lengths");
if ("e\u0301".normalize("NFC") !== "é" || "é".normalize("NFD").length !== 2) throw new Error("normalize");
if ("Straße".toUpperCase() !== "STRASSE" || "İ".toLowerCase().length !== 2) throw new Error("case mapping");
if ("a-b-c".split("-", 2).join() !== "a,b" || "abc".at(-1) !== "c" || "  x ".trim() !== "x") throw new Error("basics");
if (["b", "a", "C"].sort((x, y) => x.localeCompare(y, "en", { sensitivity: "base" })).join("") !== "abC") throw new Error("localeCompare");
if ("ab".repeat(3) !== "ababab" || !"warmbox".startsWith("warm") || "warmbox".indexOf("box") !== 4) throw new Error("search");
if (String.fromCharCode(72, 105) !== "Hi" || encodeURIComponent("a b/ü") !== "a%20b%2F%C3%BC") throw new Error("encode");
if (btoa("hello") !== "aGVsbG8=" || atob("aGVsbG8=") !== "hello") throw new Error("base64");

const d = new Date(Date.UTC(2024, 0, 31, 12));
const next = new Date(d);
next.setUTCMonth(next.getUTCMonth() + 1);
if (next.toISOString() !== "2024-03-02T12:00:00.000Z") throw new Error("month overflow " + next.toISOString());
const days = (Date.UTC(2024, 11, 25) - Date.UTC(2024, 0, 1)) / 86_400_000;
if (days !== 359) throw new Error("days");
if (new Date("2024-02-29T00:00:00Z").getUTCDay() !== 4) throw new Error("weekday");
if (new Date(0).toISOString() !== "1970-01-01T00:00:00.000Z" || isNaN(Date.parse("2024-05-06"))) throw new Error("epoch");
if (!isNaN(new Date("not a date").getTime())) throw new Error("invalid date");
if (new Date(Date.UTC(2024, 5, 1)).toUTCString() !== "Sat, 01 Jun 2024 00:00:00 GMT") throw new Error("toUTCString");

if (Math.hypot(3, 4) !== 5 || Math.trunc(-4.7) !== -4 || Math.sign(-3) !== -1 || Math.cbrt(27) !== 3) throw new Error("math");
if ((0.1 + 0.2).toFixed(10) !== "0.3000000000" || Number.EPSILON <= 0 || !Number.isSafeInteger(2 ** 53 - 1)) throw new Error("float");
if (parseInt("ff", 16) !== 255 || (255).toString(2) !== "11111111" || Number("1e3") !== 1000 || (1234.5678).toPrecision(6) !== "1234.57") throw new Error("numbers");
if (Math.max(...[3, 9, 1]) !== 9 || Math.clz32(1) !== 31 || Math.fround(5.5) !== 5.5) throw new Error("more math");
console.log(g, s);
console.log("OK");
