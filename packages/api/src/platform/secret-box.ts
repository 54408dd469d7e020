import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Seals secrets stored in the database (channel credentials, webhook secrets) with AES-256-GCM. */
export interface SecretBox {
  seal(plaintext: string): string;
  /** Throws when the value was sealed with another key or altered. */
  open(sealed: string): string;
  /**
   * A MAC of `data` (hex HMAC-SHA256) under a key derived from the instance key for `purpose`:
   * signed addresses that every process of the instance can check.
   */
  sign(purpose: string, data: string): string;
}

const VERSION = "v1";

/** A box over a 32-byte key. Sealed form: `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("The secret key must be 32 bytes");
  const macKeys = new Map<string, Buffer>();
  const macKey = (purpose: string) => {
    let derived = macKeys.get(purpose);
    if (!derived) {
      derived = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), `parley-mac:${purpose}`, 32));
      macKeys.set(purpose, derived);
    }
    return derived;
  };
  return {
    sign: (purpose, data) => createHmac("sha256", macKey(purpose)).update(data).digest("hex"),
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("Not a sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}

/**
 * The instance key: PARLEY_SECRET_KEY (32 bytes, base64 or hex) when set, else `secret.key` in the
 * data directory, created on first use with owner-only permissions.
 */
export function loadSecretKey(dataDir: string, configured: string | undefined): Buffer {
  if (configured) {
    const key = /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, "hex") : Buffer.from(configured, "base64");
    if (key.length !== 32) throw new Error("PARLEY_SECRET_KEY must be 32 bytes, as 64 hex digits or base64");
    return key;
  }
  const file = path.join(dataDir, "secret.key");
  try {
    const existing = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
    if (existing.length === 32) return existing;
  } catch {
    // created below
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    fs.writeFileSync(file, key.toString("base64"), { mode: 0o600, flag: "wx" });
    return key;
  } catch {
    // Another process made it first: use theirs.
    return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  }
}
