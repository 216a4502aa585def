// JSON: parse/stringify with reviver/replacer, typed data, dates, deep structures, errors.
interface Order { id: number; customer: { name: string; vip?: boolean }; items: Item[]; placed: Date }
interface Item { sku: string; qty: number; price: number }

const raw = `{
  "orders": [
    {"id": 1, "customer": {"name": "Ann", "vip": true}, "placed": "2024-01-02T03:04:05.000Z",
     "items": [{"sku": "A-1", "qty": 2, "price": 9.5}, {"sku": "B-2", "qty": 1, "price": 20}]},
    {"id": 2, "customer": {"name": "Bob"}, "placed": "2024-02-03T00:00:00.000Z",
     "items": [{"sku": "C-3", "qty": 10, "price": 0.99}]}
  ],
  "unicode": "caf\\u00e9 \\ud83d\\ude00",
  "nested": {"a": [1, [2, [3, [4]]]]}
}`;

const iso = /^\d{4}-\d{2}-\d{2}T/;
const data = JSON.parse(raw, (key, value) => (typeof value === "string" && iso.test(value) ? new Date(value) : value)) as {
  orders: Order[]; unicode: string; nested: { a: unknown[] };
};
const totals = data.orders.map((o) => o.items.reduce((s, i) => s + i.qty * i.price, 0));
if (totals[0] !== 39 || Math.abs(totals[1] - 9.9) > 1e-9) throw new Error("totals " + totals);
if (!(data.orders[0].placed instanceof Date) || data.orders[0].placed.getUTCHours() !== 3) throw new Error("reviver");
if (data.unicode !== "café 😀") throw new Error("unicode");
if (data.orders[1].customer.vip !== undefined) throw new Error("optional field");
if (JSON.stringify(data.nested) !== '{"a":[1,[2,[3,[4]]]]}') throw new Error("nested");

const out = JSON.stringify(data.orders[0], ["id", "customer", "name"]);
if (out !== '{"id":1,"customer":{"name":"Ann"}}') throw new Error("replacer array " + out);
const pretty = JSON.stringify({ b: 1, a: [1, 2] }, null, 2);
if (pretty !== '{\n  "b": 1,\n  "a": [\n    1,\n    2\n  ]\n}') throw new Error("pretty");
const skipped = JSON.stringify({ u: undefined, f: () => 1, s: Symbol("x"), n: null, nan: NaN, d: new Date(0) });
if (skipped !== '{"n":null,"nan":null,"d":"1970-01-01T00:00:00.000Z"}') throw new Error("skipped " + skipped);
class Money {
  constructor(private cents: number) {}
  toJSON(): string { return (this.cents / 100).toFixed(2); }
}
if (JSON.stringify({ price: new Money(1999) }) !== '{"price":"19.99"}') throw new Error("toJSON");

for (const bad of ["{a:1}", "[1,]", "", "{\"a\":1", "'x'"]) {
  try {
    JSON.parse(bad);
    throw new Error("parsed " + bad);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
  }
}
const cyclic: any = { name: "loop" };
cyclic.self = cyclic;
try { JSON.stringify(cyclic); throw new Error("cyclic"); } catch (e) { if (!(e instanceof TypeError)) throw e; }

const bigList = Array.from({ length: 20000 }, (_, i) => ({ i, s: "item" + i, even: i % 2 === 0, sub: { v: i * 1.5 } }));
const text = JSON.stringify(bigList);
const again = JSON.parse(text) as typeof bigList;
if (again.length !== 20000 || again[12345].sub.v !== 18517.5 || text.length < 500000) throw new Error("large");
console.log("json bytes", text.length);
console.log("OK");
