// BigInt arithmetic, conversion, typed BigInt arrays.
function factorial(n: bigint): bigint {
  let r = 1n;
  for (let i = 2n; i <= n; i++) r *= i;
  return r;
}

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  base %= mod;
  while (exp > 0n) {
    if (exp & 1n) result = (result * base) % mod;
    base = (base * base) % mod;
    exp >>= 1n;
  }
  return result;
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n, y = (x + 1n) / 2n;
  while (y < x) { x = y; y = (x + n / x) / 2n; }
  return x;
}

function fib(n: number): bigint {
  let a = 0n, b = 1n;
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return a;
}

const f50 = factorial(50n);
if (f50.toString() !== "30414093201713378043612608166064768844377641568960512000000000000") throw new Error("50!");
if (modPow(2n, 10000n, 1000000007n) !== 905611805n) throw new Error("modpow " + modPow(2n, 10000n, 1000000007n));
if (isqrt(10n ** 40n) !== 10n ** 20n) throw new Error("isqrt");
if (fib(100) !== 354224848179261915075n) throw new Error("fib");
if (2n ** 64n - 1n !== BigInt("18446744073709551615") || BigInt.asUintN(64, -1n) !== 2n ** 64n - 1n) throw new Error("u64");
if (BigInt.asIntN(8, 255n) !== -1n) throw new Error("asIntN");
if ((-7n) / 2n !== -3n || (-7n) % 2n !== -1n) throw new Error("truncation");
if (BigInt(Number.MAX_SAFE_INTEGER) + 2n !== 9007199254740993n) throw new Error("beyond safe");
if (Number(123n) !== 123 || typeof 1n !== "bigint" || 0x1fn !== 31n) throw new Error("conversions");
if ((255n).toString(16) !== "ff" || BigInt("0b1010") !== 10n) throw new Error("radix");
try {
  // @ts-ignore mixing types throws at run time
  const bad = 1n + (1 as any);
  throw new Error("mixing allowed " + bad);
} catch (e) {
  if (!(e instanceof TypeError)) throw e;
}
const arr = new BigInt64Array([1n, -2n, 3n]);
const u = new BigUint64Array(2);
u[0] = 2n ** 64n - 1n;
if (arr.reduce((a, b) => a + b, 0n) !== 2n || u[0] !== 18446744073709551615n) throw new Error("bigint arrays");
const view = new DataView(new ArrayBuffer(8));
view.setBigUint64(0, 0x0102030405060708n);
if (view.getUint8(0) !== 1 || view.getBigUint64(0, false) !== 0x0102030405060708n) throw new Error("dataview");
if (JSON.stringify({ v: 10n }, (_, v) => (typeof v === "bigint" ? v.toString() : v)) !== '{"v":"10"}') throw new Error("json");
console.log("50! digits", f50.toString().length);
console.log("OK");
