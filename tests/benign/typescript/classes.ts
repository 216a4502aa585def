// Classes: abstract, private/protected/readonly, parameter properties, static, #private, getters, accessors.
abstract class Account {
  private static nextId = 1;
  static readonly bank = "WB";
  readonly id: number;
  protected balance = 0;
  #audit: string[] = [];

  constructor(public readonly owner: string) {
    this.id = Account.nextId++;
  }

  abstract fee(amount: number): number;

  deposit(amount: number): this {
    if (amount <= 0) throw new RangeError("amount must be positive");
    this.balance += amount;
    this.#audit.push(`+${amount}`);
    return this;
  }

  withdraw(amount: number): this {
    const total = amount + this.fee(amount);
    if (total > this.balance) throw new InsufficientFunds(total - this.balance);
    this.balance -= total;
    this.#audit.push(`-${total}`);
    return this;
  }

  get current(): number { return this.balance; }
  get history(): readonly string[] { return [...this.#audit]; }
  static describe(a: Account): string { return `${Account.bank}-${a.id}:${a.owner}`; }
}

class InsufficientFunds extends Error {
  constructor(public readonly missing: number) {
    super(`missing ${missing}`);
    this.name = "InsufficientFunds";
  }
}

class Checking extends Account {
  fee(): number { return 1; }
}

class Savings extends Account {
  private _rate = 0.02;
  fee(amount: number): number { return Math.ceil(amount * 0.01); }
  set rate(r: number) { if (r < 0) throw new RangeError("rate"); this._rate = r; }
  get rate(): number { return this._rate; }
  addInterest(): void { this.balance = Math.round(this.balance * (1 + this._rate)); }
}

interface Serializable { serialize(): string }
class Point implements Serializable {
  static #count = 0;
  constructor(private x: number, protected y: number) { Point.#count++; }
  serialize(): string { return JSON.stringify({ x: this.x, y: this.y }); }
  static get count(): number { return Point.#count; }
  static { Point.#count = 100; }
}

const c = new Checking("ann").deposit(100).withdraw(10);
if (c.current !== 89 || c.history.join() !== "+100,-11") throw new Error("checking " + c.current);
const s = new Savings("bob").deposit(1000);
s.rate = 0.05;
s.addInterest();
s.withdraw(100);
if (s.current !== 949 || s.rate !== 0.05) throw new Error("savings " + s.current);
try {
  c.withdraw(1000);
  throw new Error("no throw");
} catch (e) {
  if (!(e instanceof InsufficientFunds) || e.missing !== 912 || e.name !== "InsufficientFunds") throw e;
}
try { s.rate = -1; throw new Error("setter"); } catch (e) { if (!(e instanceof RangeError)) throw e; }
if (Account.describe(s) !== "WB-2:bob" || !(s instanceof Account)) throw new Error(Account.describe(s));
const p = new Point(1, 2);
if (p.serialize() !== '{"x":1,"y":2}' || Point.count !== 101) throw new Error("point " + Point.count);
if (Object.keys(c).includes("#audit")) throw new Error("#private leaked");
class Mixed extends Point { get doubledY(): number { return this.y * 2; } }
if (new Mixed(0, 21).doubledY !== 42) throw new Error("protected");
console.log(Account.describe(c), c.current);
console.log("OK");
