// Optional chaining, nullish coalescing, optional parameters and properties, definite assignment, tuples.
interface Address { street?: string; city: string; geo?: { lat: number; lng: number } }
interface Person { name: string; age?: number; address?: Address; tags?: string[]; greet?: (p: string) => string }
type Range = readonly [start: number, end: number];
type Row = [id: number, name: string, ...scores: number[]];

const people: Person[] = [
  { name: "ann", age: 0, address: { city: "Oslo", geo: { lat: 59.9, lng: 10.7 } }, tags: ["a"], greet: (p) => p + " ann" },
  { name: "bob", address: { city: "Rome" } },
  { name: "cy" },
];

const cities = people.map((p) => p.address?.city ?? "unknown");
if (cities.join() !== "Oslo,Rome,unknown") throw new Error("cities");
const lats = people.map((p) => p.address?.geo?.lat);
if (lats[0] !== 59.9 || lats[1] !== undefined || lats[2] !== undefined) throw new Error("lats");
const ages = people.map((p) => p.age ?? -1);
const agesOr = people.map((p) => p.age || -1);
if (ages.join() !== "0,-1,-1" || agesOr.join() !== "-1,-1,-1") throw new Error("?? vs ||");
const greetings = people.map((p) => p.greet?.("hi") ?? "(no greeting)");
if (greetings[0] !== "hi ann" || greetings[1] !== "(no greeting)") throw new Error("optional call");
if (people[2].tags?.[0] !== undefined || people[0].tags?.[0] !== "a") throw new Error("optional index");

const config: { retries?: number | null; name?: string } = { retries: null };
config.retries ??= 3;
config.name ||= "default";
let counter: number | undefined;
counter &&= counter + 1;
if (config.retries !== 3 || config.name !== "default" || counter !== undefined) throw new Error("logical assignment");

function describe(name: string, title?: string, ...rest: string[]): string {
  return `${title ? title + " " : ""}${name}${rest.length ? " (" + rest.join(", ") + ")" : ""}`;
}
if (describe("x") !== "x" || describe("x", "Dr") !== "Dr x" || describe("x", undefined, "a", "b") !== "x (a, b)") throw new Error("optional params");
function withDefault(n: number = 10, { scale = 2 }: { scale?: number } = {}): number { return n * scale; }
if (withDefault() !== 20 || withDefault(3, { scale: 3 }) !== 9) throw new Error("defaults");

const r: Range = [3, 8];
const [start, end] = r;
const rows: Row[] = [[1, "a", 90, 80], [2, "b"]];
const avg = rows.map(([, , ...scores]) => (scores.length ? scores.reduce((a, b) => a + b) / scores.length : null));
if (end - start !== 5 || avg[0] !== 85 || avg[1] !== null) throw new Error("tuples");
function minMax(xs: number[]): [min: number, max: number] | undefined {
  return xs.length ? [Math.min(...xs), Math.max(...xs)] : undefined;
}
const mm = minMax([4, 1, 9]);
if (mm?.[0] !== 1 || mm?.[1] !== 9 || minMax([])?.[0] !== undefined) throw new Error("tuple return");
class Lazy {
  value!: string;
  init(): this { this.value = "ready"; return this; }
}
if (new Lazy().init().value !== "ready") throw new Error("definite assignment");
const nested = { a: { b: { c: null as null | { d: number } } } };
if ((nested.a.b.c?.d ?? "none") !== "none") throw new Error("deep");
const nonNull = document_title() ?? "untitled";
function document_title(): string | null { return null; }
console.log(cities.join(" "), nonNull);
console.log("OK");
