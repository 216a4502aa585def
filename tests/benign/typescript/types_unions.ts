// Interfaces, type aliases, unions, discriminated unions, tuples, literal types, `as` casts.
interface Point { readonly x: number; readonly y: number }
interface Point3 extends Point { z: number }
type Shape =
  | { kind: "circle"; radius: number }
  | { kind: "rect"; w: number; h: number }
  | { kind: "tri"; a: number; b: number; c: number };
type Direction = "north" | "south" | "east" | "west";
type Pair<T> = [T, T];
type Labeled = [label: string, value: number, note?: string];
type Handler = (ev: string, ...args: number[]) => string;
type Dict = Record<string, number>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function area(s: Shape): number {
  switch (s.kind) {
    case "circle": return Math.PI * s.radius ** 2;
    case "rect": return s.w * s.h;
    case "tri": {
      const p = (s.a + s.b + s.c) / 2;
      return Math.sqrt(p * (p - s.a) * (p - s.b) * (p - s.c));
    }
    default: {
      const never: never = s;
      throw new Error("unreachable " + never);
    }
  }
}

function turn(d: Direction): Direction {
  const next: Record<Direction, Direction> = { north: "east", east: "south", south: "west", west: "north" };
  return next[d];
}

function isPoint3(p: Point | Point3): p is Point3 {
  return (p as Point3).z !== undefined;
}

function fmt(v: string | number | boolean | null): string {
  if (v === null) return "null";
  if (typeof v === "string") return `s:${v.toUpperCase()}`;
  if (typeof v === "number") return `n:${v.toFixed(1)}`;
  return `b:${v}`;
}

function check(cond: boolean, msg: string): asserts cond {
  if (!cond) throw new Error("check failed: " + msg);
}

const shapes: Shape[] = [
  { kind: "circle", radius: 1 },
  { kind: "rect", w: 2, h: 3 },
  { kind: "tri", a: 3, b: 4, c: 5 },
];
const total = shapes.map(area).reduce((a, b) => a + b, 0);
check(Math.abs(total - (Math.PI + 12)) < 1e-9, "area " + total);
check(turn(turn("north")) === "south", "turn");
check(isPoint3({ x: 1, y: 2, z: 3 } as Point3) && !isPoint3({ x: 1, y: 2 }), "type guard");
check([fmt("a"), fmt(2), fmt(true), fmt(null)].join(",") === "s:A,n:2.0,b:true,null", "fmt");

const pair: Pair<string> = ["a", "b"];
const [first, second] = pair;
const lab: Labeled = ["width", 10];
check(first + second === "ab" && lab.length === 2 && lab[2] === undefined, "tuples");
const h: Handler = (ev, ...args) => `${ev}:${args.reduce((a, b) => a + b, 0)}`;
check(h("sum", 1, 2, 3) === "sum:6", "rest args");
const d: Dict = { a: 1, b: 2 };
d["c"] = 3;
check(Object.values(d).reduce((a, b) => a + b, 0) === 6, "record");
const frozen: Point = { x: 1, y: 2 };
const m = { ...frozen } as Mutable<Point>;
m.x = 5;
check(m.x === 5 && frozen.x === 1, "mapped type");
const unknownValue: unknown = JSON.parse('{"name":"w","n":3}');
const typed = unknownValue as { name: string; n: number };
check(typed.name === "w" && typed.n === 3, "unknown cast");
const keys: (keyof Point)[] = ["x", "y"];
check(keys.map((k) => frozen[k]).join() === "1,2", "keyof");
const literal = { mode: "fast", level: 3 } as const;
check(literal.mode === "fast", "as const");
let maybe: number | undefined = undefined;
maybe ??= 7;
check(maybe === 7, "nullish assignment");
const big = <T,>(x: T): T[] => [x, x];
check(big(1).length === 2, "generic arrow");
console.log("total area", total.toFixed(4));
console.log("OK");
