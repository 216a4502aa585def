// Regular, string, heterogeneous-free const enums, and enum reverse mapping.
enum Color { Red, Green = 5, Blue }
enum Level { Debug = "DEBUG", Info = "INFO", Warn = "WARN" }
const enum Flags { None = 0, Read = 1 << 0, Write = 1 << 1, Exec = 1 << 2, All = Read | Write | Exec }
const enum Answer { Yes = "y", No = "n" }
enum Computed { A = "abc".length, B = A * 2 }

enum Status { Active = 1, Inactive }
namespace Status {
  export function label(s: Status): string { return Status[s].toLowerCase(); }
}

function can(perms: Flags, f: Flags): boolean { return (perms & f) === f; }

if (Color.Red !== 0 || Color.Green !== 5 || Color.Blue !== 6) throw new Error("numeric enum");
if (Color[6] !== "Blue" || Color["Green"] !== 5) throw new Error("reverse mapping");
const names = Object.keys(Color).filter((k) => isNaN(Number(k)));
if (names.join() !== "Red,Green,Blue") throw new Error("keys " + names);
if (Level.Warn !== "WARN" || (Level as any)["WARN"] !== undefined) throw new Error("string enum");
const levels = Object.values(Level);
if (levels.join("|") !== "DEBUG|INFO|WARN") throw new Error("values");
const rw = Flags.Read | Flags.Write;
if (!can(rw, Flags.Write) || can(rw, Flags.Exec) || Flags.All !== 7) throw new Error("const enum flags");
const a: Answer = Answer.Yes;
if (a !== "y") throw new Error("const string enum");
if (Computed.B !== 6) throw new Error("computed");
if (Status.label(Status.Inactive) !== "inactive") throw new Error("enum namespace merge");

function levelFor(verbose: boolean): Level { return verbose ? Level.Debug : Level.Info; }
const counts = new Map<Level, number>();
for (const v of [true, false, false]) counts.set(levelFor(v), (counts.get(levelFor(v)) ?? 0) + 1);
if (counts.get(Level.Info) !== 2) throw new Error("map by enum");
const sw = (c: Color): string => {
  switch (c) {
    case Color.Red: return "r";
    case Color.Green: return "g";
    case Color.Blue: return "b";
  }
};
if ([Color.Blue, Color.Red].map(sw).join("") !== "br") throw new Error("switch");
console.log("colors", names.join(","), "flags", Flags.All);
console.log("OK");
