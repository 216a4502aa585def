// Map, Set, WeakMap, WeakSet, WeakRef, iteration order, and set algebra.
interface User { id: number; name: string; tags: string[] }

const users: User[] = [
  { id: 1, name: "ann", tags: ["admin", "dev"] },
  { id: 2, name: "bob", tags: ["dev"] },
  { id: 3, name: "cy", tags: ["ops", "dev"] },
];
const byId = new Map<number, User>(users.map((u) => [u.id, u]));
if (byId.get(2)?.name !== "bob" || byId.size !== 3 || byId.has(4)) throw new Error("map");

const tagIndex = new Map<string, Set<number>>();
for (const u of users) for (const t of u.tags) {
  if (!tagIndex.has(t)) tagIndex.set(t, new Set());
  tagIndex.get(t)!.add(u.id);
}
if ([...tagIndex.keys()].join() !== "admin,dev,ops") throw new Error("insertion order");
if ([...tagIndex.get("dev")!].join() !== "1,2,3") throw new Error("tag index");

const a = new Set([1, 2, 3, 4]);
const b = new Set([3, 4, 5]);
const union = new Set([...a, ...b]);
const inter = new Set([...a].filter((x) => b.has(x)));
const diff = new Set([...a].filter((x) => !b.has(x)));
if ([...union].join() !== "1,2,3,4,5" || [...inter].join() !== "3,4" || [...diff].join() !== "1,2") throw new Error("set ops");
a.delete(1);
a.add(2);
if (a.size !== 3) throw new Error("set size");

const counts = new Map<string, number>();
for (const w of "the cat and the hat and the bat".split(" ")) counts.set(w, (counts.get(w) ?? 0) + 1);
const top = [...counts.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
if (top[0][0] !== "the" || top[0][1] !== 3 || top[1][0] !== "and") throw new Error("counts");
const obj = Object.fromEntries(counts);
if (obj.cat !== 1) throw new Error("fromEntries");
const back = new Map(Object.entries(obj));
if (back.get("the") !== 3) throw new Error("entries");

const keyObj = { k: 1 };
const objMap = new Map<object, string>([[keyObj, "object key"]]);
if (objMap.get(keyObj) !== "object key" || objMap.get({ k: 1 }) !== undefined) throw new Error("object keys");
const nanMap = new Map([[NaN, "nan"]]);
if (nanMap.get(NaN) !== "nan") throw new Error("NaN key");

const meta = new WeakMap<object, number>();
const seen = new WeakSet<object>();
const o1 = {}, o2 = {};
meta.set(o1, 42);
seen.add(o2);
if (meta.get(o1) !== 42 || !seen.has(o2) || seen.has(o1)) throw new Error("weak");
const ref = new WeakRef(o1);
if (ref.deref() !== o1) throw new Error("weakref");
const registry = new FinalizationRegistry<string>(() => {});
registry.register({}, "token");

let sum = 0;
byId.forEach((u, id) => { sum += id + u.name.length; });
if (sum !== 14) throw new Error("forEach " + sum);
const grouped = users.reduce((m, u) => m.set(u.tags.length, [...(m.get(u.tags.length) ?? []), u.name]), new Map<number, string[]>());
if (JSON.stringify([...grouped]) !== '[[2,["ann","cy"]],[1,["bob"]]]') throw new Error("grouped");
byId.clear();
console.log("top", top.slice(0, 2).map(([w, n]) => `${w}=${n}`).join(" "));
console.log("OK");
