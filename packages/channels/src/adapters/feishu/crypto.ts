import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { sha256Hex } from "../../crypto";

/** Signed Feishu deliveries older or newer than this are refused. */
export const FEISHU_SIGNATURE_WINDOW_SECONDS = 300;

/**
 * `X-Lark-Signature`: hex SHA-256 (plain, not HMAC) of timestamp + nonce + Encrypt Key + the raw
 * body bytes.
 */
export function feishuSignature(timestamp: string, nonce: string, encryptKey: string, body: Uint8Array | string): string {
  const raw = typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
  return sha256Hex(Buffer.concat([Buffer.from(timestamp + nonce + encryptKey, "utf8"), raw]));
}

function aesKey(encryptKey: string): Buffer {
  return createHash("sha256").update(encryptKey, "utf8").digest();
}

/**
 * Decrypts an `encrypt` field: AES-256-CBC under SHA-256(Encrypt Key), the first 16 bytes of the
 * Base64-decoded value being the IV, PKCS#7 padding. Undefined when the value, key or padding is wrong.
 */
export function feishuDecrypt(encryptKey: string, encrypted: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encrypted)) return undefined;
  const data = Buffer.from(encrypted, "base64");
  if (data.length < 32 || data.length % 16 !== 0) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-cbc", aesKey(encryptKey), data.subarray(0, 16));
    const plain = Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
    return new TextDecoder("utf-8", { fatal: true }).decode(plain);
  } catch {
    return undefined;
  }
}

/** Encrypts the way Feishu does (random IV prepended), for the local fake and round-trip tests. */
export function feishuEncrypt(encryptKey: string, plain: string, iv: Uint8Array = randomBytes(16)): string {
  const cipher = createCipheriv("aes-256-cbc", aesKey(encryptKey), iv);
  return Buffer.concat([Buffer.from(iv), cipher.update(plain, "utf8"), cipher.final()]).toString("base64");
}
