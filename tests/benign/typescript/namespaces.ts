// Namespaces (nested, merged, with exported values and types), declaration merging.
namespace Geometry {
  export const EPS = 1e-9;
  export interface Vec { x: number; y: number }
  export function add(a: Vec, b: Vec): Vec { return { x: a.x + b.x, y: a.y + b.y }; }
  export namespace Polygon {
    export function area(pts: Vec[]): number {
      let s = 0;
      for (let i = 0; i < pts.length; i++) {
        const a = pts[i], b = pts[(i + 1) % pts.length];
        s += a.x * b.y - b.x * a.y;
      }
      return Math.abs(s) / 2;
    }
  }
  const hidden = "not exported";
  export function peek(): string { return hidden; }
}

namespace Geometry {
  export function len(v: Vec): number { return Math.hypot(v.x, v.y); }
}

namespace Validation {
  export interface Validator { ok(s: string): boolean }
  const letters = /^[A-Za-z]+$/;
  export class Letters implements Validator { ok(s: string) { return letters.test(s); } }
  export class Zip implements Validator { ok(s: string) { return /^\d{5}$/.test(s) } }
}

import Poly = Geometry.Polygon;

function greet(name: string): string { return greet.prefix + name; }
namespace greet { export const prefix = "hello "; }

class Album { constructor(public title: string) {} }
namespace Album { export class Label { constructor(public name: string) {} } }

const sq: Geometry.Vec[] = [{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 2, y: 2 }, { x: 0, y: 2 }];
if (Math.abs(Poly.area(sq) - 4) > Geometry.EPS) throw new Error("area");
if (Geometry.len(Geometry.add({ x: 1, y: 2 }, { x: 2, y: 2 })) !== 5) throw new Error("len");
if (Geometry.peek() !== "not exported" || (Geometry as any).hidden !== undefined) throw new Error("hidden");
const validators: { [name: string]: Validation.Validator } = { letters: new Validation.Letters(), zip: new Validation.Zip() };
const results = ["Hello", "12345", "x1"].map((s) => Object.keys(validators).filter((k) => validators[k].ok(s)).join("+") || "none");
if (results.join() !== "letters,zip,none") throw new Error(results.join());
if (greet("ts") !== "hello ts") throw new Error("function merge");
if (new Album.Label("indie").name !== "indie" || new Album("x").title !== "x") throw new Error("class merge");
console.log(results.join(" "));
console.log("OK");
