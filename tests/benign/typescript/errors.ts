// Errors: custom error hierarchies, cause, stack traces, finally, AggregateError, unhandled-rejection handling.
class AppError extends Error {
  constructor(message: string, readonly code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}
class NotFound extends AppError {
  constructor(what: string) { super(`${what} not found`, "E_NOT_FOUND"); }
}
class Validation extends AppError {
  constructor(readonly fields: Record<string, string>) { super("invalid input", "E_INVALID"); }
}

type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

function lookup(db: Map<string, number>, key: string): number {
  const v = db.get(key);
  if (v === undefined) throw new NotFound(key);
  return v;
}

function safe<T>(f: () => T): Result<T> {
  try { return { ok: true, value: f() }; } catch (e) {
    if (e instanceof AppError) return { ok: false, error: e };
    throw e;
  }
}

const db = new Map([["a", 1]]);
const r1 = safe(() => lookup(db, "a"));
const r2 = safe(() => lookup(db, "zz"));
if (!r1.ok || r1.value !== 1) throw new Error("r1");
if (r2.ok || !(r2.error instanceof NotFound) || r2.error.code !== "E_NOT_FOUND" || r2.error.name !== "NotFound") throw new Error("r2");
if (r2.ok === false && !(r2.error.stack ?? "").includes("lookup")) throw new Error("stack");

const v = new Validation({ email: "missing" });
if (!(v instanceof AppError) || !(v instanceof Error) || v.fields.email !== "missing") throw new Error("hierarchy");
const wrapped = new AppError("outer", "E_WRAP", { cause: new TypeError("inner") });
if (!(wrapped.cause instanceof TypeError)) throw new Error("cause");

const trail: string[] = [];
function nested(): number {
  try {
    trail.push("try");
    throw new RangeError("r");
  } catch (e) {
    trail.push("catch " + (e as Error).name);
    return 1;
  } finally {
    trail.push("finally");
  }
}
if (nested() !== 1 || trail.join() !== "try,catch RangeError,finally") throw new Error(trail.join());

const builtins: Array<[() => unknown, Function]> = [
  [() => (null as any).x, TypeError],
  [() => (undefined as any)(), TypeError],
  [() => new Array(-1), RangeError],
  [() => (1).toFixed(200), RangeError],
  [() => decodeURIComponent("%"), URIError],
  [() => JSON.parse("{"), SyntaxError],
  [() => { function r(): number { return r() + 1; } return r(); }, RangeError],
];
for (const [f, kind] of builtins) {
  try { f(); throw new Error("no throw"); } catch (e) { if (!(e instanceof (kind as any))) throw e; }
}
const agg = new AggregateError([new Error("a"), new Error("b")], "two");
if (agg.errors.length !== 2) throw new Error("aggregate");
Error.captureStackTrace?.(v);
Error.stackTraceLimit = 5;

let unhandled = "";
process.on("unhandledRejection", (reason: unknown) => { unhandled = (reason as Error).message; });
Promise.reject(new Error("nobody caught me"));
process.on("exit", (code: number) => {
  if (unhandled !== "nobody caught me" || code !== 0) { console.log("FAILED", unhandled, code); process.exitCode = 1; return; }
  console.log("OK");
});
console.error("an expected line on stderr");
console.log("errors checked:", builtins.length);
declare const process: any;
