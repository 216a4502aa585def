// Generic functions, classes, constraints, defaults, conditional and mapped types.
interface Comparable<T> { compareTo(other: T): number }

class Version implements Comparable<Version> {
  constructor(readonly major: number, readonly minor: number) {}
  compareTo(o: Version): number { return this.major - o.major || this.minor - o.minor; }
  toString(): string { return `${this.major}.${this.minor}`; }
}

function maxOf<T extends Comparable<T>>(items: T[]): T {
  return items.reduce((best, x) => (x.compareTo(best) > 0 ? x : best));
}

class TypedEventLog<Events extends Record<string, unknown>> {
  private entries: Array<{ [K in keyof Events]: [K, Events[K]] }[keyof Events]> = [];
  push<K extends keyof Events>(name: K, payload: Events[K]): this {
    this.entries.push([name, payload] as any);
    return this;
  }
  names(): string[] { return this.entries.map((e) => String(e[0])); }
}

class LRU<K, V = string> {
  private map = new Map<K, V>();
  constructor(private readonly cap: number) {}
  get(k: K): V | undefined {
    const v = this.map.get(k);
    if (v !== undefined) { this.map.delete(k); this.map.set(k, v); }
    return v;
  }
  set(k: K, v: V): void {
    this.map.delete(k);
    this.map.set(k, v);
    if (this.map.size > this.cap) this.map.delete(this.map.keys().next().value as K);
  }
  keys(): K[] { return [...this.map.keys()]; }
}

type Result<T, E = Error> = { ok: true; value: T } | { ok: false; error: E };
type ElementOf<A> = A extends readonly (infer E)[] ? E : never;
type Nullable<T> = { [K in keyof T]: T[K] | null };

function tryParse<T>(s: string): Result<T> {
  try { return { ok: true, value: JSON.parse(s) as T }; } catch (e) { return { ok: false, error: e as Error }; }
}

function groupBy<T, K extends PropertyKey>(xs: readonly T[], key: (x: T) => K): Record<K, T[]> {
  const out = {} as Record<K, T[]>;
  for (const x of xs) (out[key(x)] ||= []).push(x);
  return out;
}

function pipe<A, B, C>(f: (a: A) => B, g: (b: B) => C): (a: A) => C {
  return (a) => g(f(a));
}

function zip<A, B>(a: A[], b: B[]): Array<[A, B]> {
  return a.slice(0, Math.min(a.length, b.length)).map((x, i) => [x, b[i]]);
}

const v = maxOf([new Version(1, 2), new Version(2, 0), new Version(1, 9)]);
if (v.toString() !== "2.0") throw new Error("maxOf " + v);

const log = new TypedEventLog<{ login: { user: string }; logout: number }>();
log.push("login", { user: "ann" }).push("logout", 3);
if (log.names().join() !== "login,logout") throw new Error("event log");

const cache = new LRU<number>(2);
cache.set(1, "a"); cache.set(2, "b"); cache.get(1); cache.set(3, "c");
if (cache.keys().join() !== "1,3") throw new Error("lru " + cache.keys());

const good = tryParse<{ a: number }>('{"a": 1}');
const bad = tryParse<number>("{nope");
if (!good.ok || good.value.a !== 1) throw new Error("good parse");
if (bad.ok || !(bad.error instanceof SyntaxError)) throw new Error("bad parse");

const nums = [1, 2, 3, 4, 5, 6] as const;
const el: ElementOf<typeof nums> = 3;
const byParity = groupBy(nums, (n) => (n % 2 ? "odd" : "even"));
if (byParity.odd.join() !== "1,3,5" || byParity.even.length !== 3 || el !== 3) throw new Error("groupBy");
const n: Nullable<{ a: number }> = { a: null };
if (n.a !== null) throw new Error("nullable");
const lenThenDouble = pipe((s: string) => s.length, (x: number) => x * 2);
if (lenThenDouble("abc") !== 6) throw new Error("pipe");
if (JSON.stringify(zip([1, 2, 3], ["a", "b"])) !== '[[1,"a"],[2,"b"]]') throw new Error("zip");
const identity = <T>(x: T) => x;
if (identity<string>("id") !== "id") throw new Error("explicit type argument");
console.log("max version", v.toString());
console.log("OK");
