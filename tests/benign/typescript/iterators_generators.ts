// Iterators, generators, the iterator protocol on classes, spread/destructuring, async generators.
class Range implements Iterable<number> {
  constructor(private start: number, private end: number, private step = 1) {}
  *[Symbol.iterator](): Iterator<number> {
    for (let i = this.start; i < this.end; i += this.step) yield i;
  }
}

class LinkedList<T> implements Iterable<T> {
  private head: { v: T; next?: LinkedList<T>["head"] } | undefined;
  private size = 0;
  push(v: T): this { this.head = { v, next: this.head }; this.size++; return this; }
  [Symbol.iterator](): Iterator<T> {
    let node = this.head;
    return {
      next(): IteratorResult<T> {
        if (!node) return { done: true, value: undefined };
        const v = node.v;
        node = node.next;
        return { done: false, value: v };
      },
    };
  }
  get length(): number { return this.size; }
}

function* fib(): Generator<number, never, void> {
  let [a, b] = [0, 1];
  for (;;) { yield a; [a, b] = [b, a + b]; }
}

function* take<T>(it: Iterable<T>, n: number): Generator<T> {
  if (n <= 0) return;
  for (const x of it) { yield x; if (--n === 0) return; }
}

function* map<T, U>(it: Iterable<T>, f: (x: T) => U): Generator<U> { for (const x of it) yield f(x); }
function* filter<T>(it: Iterable<T>, p: (x: T) => boolean): Generator<T> { for (const x of it) if (p(x)) yield x; }
function* flatten(xs: unknown[]): Generator<unknown> {
  for (const x of xs) if (Array.isArray(x)) yield* flatten(x); else yield x;
}

function* accumulator(): Generator<number, string, number> {
  let total = 0;
  for (;;) {
    const v = yield total;
    if (v < 0) return "closed at " + total;
    total += v;
  }
}

function* permutations<T>(xs: T[]): Generator<T[]> {
  if (xs.length <= 1) { yield xs.slice(); return; }
  for (let i = 0; i < xs.length; i++) {
    const rest = [...xs.slice(0, i), ...xs.slice(i + 1)];
    for (const p of permutations(rest)) yield [xs[i], ...p];
  }
}

async function* paginate(pages: number): AsyncGenerator<string[]> {
  for (let p = 0; p < pages; p++) {
    await new Promise((r) => setTimeout(r, 1));
    yield [`item${p * 2}`, `item${p * 2 + 1}`];
  }
}

if ([...new Range(0, 10, 3)].join() !== "0,3,6,9") throw new Error("range");
const list = new LinkedList<string>().push("c").push("b").push("a");
if ([...list].join("") !== "abc" || list.length !== 3) throw new Error("linked list");
const [first, , third, ...others] = new Range(1, 6);
if (first !== 1 || third !== 3 || others.join() !== "4,5") throw new Error("destructuring");
if ([...take(fib(), 10)].join() !== "0,1,1,2,3,5,8,13,21,34") throw new Error("fib");
const evenSquares = [...take(filter(map(new Range(0, 1000), (x) => x * x), (x) => x % 2 === 0), 4)];
if (evenSquares.join() !== "0,4,16,36") throw new Error("pipeline");
if ([...flatten([1, [2, [3, [4, [5]]]], 6])].join() !== "1,2,3,4,5,6") throw new Error("flatten");
const acc = accumulator();
acc.next();
acc.next(5);
const mid = acc.next(10);
const end = acc.next(-1);
if (mid.value !== 15 || end.value !== "closed at 15" || !end.done) throw new Error("two-way generator");
if ([...permutations([1, 2, 3])].map((p) => p.join("")).join() !== "123,132,213,231,312,321") throw new Error("permutations");
const it = [10, 20][Symbol.iterator]();
if (it.next().value !== 10 || it.next().value !== 20 || !it.next().done) throw new Error("array iterator");
const entries = [...new Map([["k", 1]]).entries()];
if (entries[0][0] !== "k" || Array.from("héllo").length !== 5 || Object.entries({ a: 1 })[0][1] !== 1) throw new Error("builtins");
const g = fib();
g.return?.(undefined as never);
if (!g.next().done) throw new Error("return()");

async function main(): Promise<void> {
  const all: string[] = [];
  for await (const page of paginate(3)) all.push(...page);
  if (all.length !== 6 || all[5] !== "item5") throw new Error("async generator");
  const results = await Promise.all([...take(new Range(1, 100), 3)].map(async (x) => x * 2));
  if (results.join() !== "2,4,6") throw new Error("async map");
  console.log("permutations of 4:", [...permutations([1, 2, 3, 4])].length);
}
main().then(() => console.log("OK"), (e) => { console.error(e); process.exitCode = 1; });
declare const process: any;
