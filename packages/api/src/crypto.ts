import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

function encodeTime(milliseconds: number, length: number): string {
  let out = "";
  let value = milliseconds;
  for (let index = 0; index < length; index++) {
    out = CROCKFORD[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

let lastTime = 0;
let lastTail: number[] = [];

/**
 * A prefixed, time-sortable identifier such as `usr_01j9...`. Within one millisecond the random
 * tail counts up, so ids made one after another in this process also sort in creation order.
 */
export function newId(prefix: string): string {
  const now = Date.now();
  let tail: number[];
  if (now > lastTime) {
    lastTime = now;
    tail = [...randomBytes(10)].map((byte) => byte % 32);
  } else {
    tail = [...lastTail];
    let index = tail.length - 1;
    while (index >= 0 && tail[index] === 31) tail[index--] = 0;
    if (index >= 0) tail[index]! += 1;
    else lastTime += 1;
  }
  lastTail = tail;
  return `${prefix}_${encodeTime(lastTime, 10)}${tail.map((digit) => CROCKFORD[digit]).join("")}`;
}

/** A random secret with a readable prefix, e.g. `pst_…` (sessions) or `pk_…` (API keys). */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString("base64url")}`;
}

/** SHA-256 of a high-entropy secret; how tokens and keys are stored. */
export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** A numeric one-time code. */
export function newNumericCode(digits = 6): string {
  return randomInt(0, 10 ** digits)
    .toString()
    .padStart(digits, "0");
}

/** A short code for humans (space codes): uppercase letters and digits without look-alikes. */
export function newShortCode(length = 8): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  let out = "";
  for (let index = 0; index < length; index++) out += alphabet[randomInt(0, alphabet.length)];
  return out;
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 64 };

/** Hashes a password with scrypt and a random salt; the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize("NFKC"), salt, SCRYPT.keylen, {
    N: SCRYPT.N,
    r: SCRYPT.r,
    p: SCRYPT.p,
    maxmem: 64 * 1024 * 1024,
  });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** Checks a password against a stored scrypt hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scryptAsync(password.normalize("NFKC"), Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
