// node:crypto: hashes, HMAC, random, UUID, ciphers, KDFs, key pairs and signatures.
import { createHash, createHmac, randomBytes, randomUUID, randomInt, createCipheriv, createDecipheriv,
  scryptSync, pbkdf2Sync, generateKeyPairSync, sign, verify, timingSafeEqual, getHashes, webcrypto } from "node:crypto";
import { Buffer } from "node:buffer";

const msg = "The quick brown fox jumps over the lazy dog";
const expect: Record<string, string> = {
  md5: "9e107d9d372bb6826bd81d3542a419d6",
  sha1: "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12",
  sha256: "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592",
};
for (const [alg, hex] of Object.entries(expect)) {
  const got = createHash(alg).update(msg).digest("hex");
  if (got !== hex) throw new Error(`${alg} ${got}`);
}
const inc = createHash("sha512");
inc.update("The quick ");
inc.update(Buffer.from("brown fox jumps over the lazy dog"));
if (inc.digest("base64") !== createHash("sha512").update(msg).digest("base64")) throw new Error("incremental");
if (!getHashes().includes("sha3-256")) throw new Error("sha3 missing");
const hmac = createHmac("sha256", "key").update(msg).digest("hex");
if (hmac !== "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8") throw new Error("hmac " + hmac);

const r1 = randomBytes(32), r2 = randomBytes(32);
if (r1.length !== 32 || r1.equals(r2)) throw new Error("randomBytes");
const id = randomUUID();
if (!/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)) throw new Error("uuid " + id);
for (let i = 0; i < 100; i++) { const n = randomInt(10, 20); if (n < 10 || n >= 20) throw new Error("randomInt"); }
const wc = new Uint32Array(4);
webcrypto.getRandomValues(wc);

const key = randomBytes(32), iv = randomBytes(12);
const c = createCipheriv("aes-256-gcm", key, iv);
c.setAAD(Buffer.from("hdr"));
const ct = Buffer.concat([c.update(msg, "utf8"), c.final()]);
const tag = c.getAuthTag();
const d = createDecipheriv("aes-256-gcm", key, iv);
d.setAAD(Buffer.from("hdr"));
d.setAuthTag(tag);
if (Buffer.concat([d.update(ct), d.final()]).toString("utf8") !== msg) throw new Error("gcm");
const cbc = createCipheriv("aes-128-cbc", Buffer.alloc(16), Buffer.alloc(16));
if (Buffer.concat([cbc.update(Buffer.alloc(0)), cbc.final()]).toString("hex") !== "0143db63ee66b0cdff9f69917680151e") throw new Error("cbc");

const pb = pbkdf2Sync("password", "salt", 1, 32, "sha256").toString("hex");
if (pb !== "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b") throw new Error("pbkdf2 " + pb);
const sc = scryptSync("password", "salt", 16, { N: 1024 });
if (sc.length !== 16) throw new Error("scrypt");
if (!timingSafeEqual(Buffer.from("abc"), Buffer.from("abc"))) throw new Error("timingSafeEqual");

const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const sig = sign(null, Buffer.from(msg), privateKey);
if (!verify(null, Buffer.from(msg), publicKey, sig) || verify(null, Buffer.from(msg + "!"), publicKey, sig)) throw new Error("ed25519");
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
const ecSig = sign("sha256", Buffer.from(msg), ec.privateKey);
if (!verify("sha256", Buffer.from(msg), ec.publicKey, ecSig)) throw new Error("ecdsa");

async function subtle(): Promise<void> {
  const digest = await webcrypto.subtle.digest("SHA-256", new TextEncoder().encode(msg));
  if (Buffer.from(digest).toString("hex") !== expect.sha256) throw new Error("subtle digest");
}
subtle().then(() => {
  console.log("sha256", expect.sha256.slice(0, 16));
  console.log("OK");
}, (e) => { console.error(e); process.exitCode = 1; });
declare const process: any;
