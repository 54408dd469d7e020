import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { safeEqual, sha1Hex } from "../../crypto";

/**
 * The WXBizMsgCrypt scheme shared by WeChat Official Accounts, WeCom apps and WeChat Customer
 * Service: SHA-1 signatures over sorted strings, and AES-256-CBC with the IV taken from the key,
 * a 32-byte PKCS#7 block and the plaintext `random(16) ‖ length (uint32 BE) ‖ message ‖ receiveId`.
 */

/** WXBizMsgCrypt pads to this block size, not AES's 16 bytes. */
const PAD_BLOCK = 32;
const RANDOM_PREFIX = 16;
const LENGTH_FIELD = 4;

const encodingAesKeyPattern = /^[A-Za-z0-9+/]{43}$/;
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The 32-byte AES key an EncodingAESKey (43 base64 characters, no padding) stands for; undefined when malformed. */
export function aesKeyFrom(encodingAesKey: string): Buffer | undefined {
  if (!encodingAesKeyPattern.test(encodingAesKey)) return undefined;
  const key = Buffer.from(`${encodingAesKey}=`, "base64");
  return key.length === 32 ? key : undefined;
}

/**
 * The callback signature: lowercase hex SHA-1 of the strings sorted (byte order) and joined.
 * OA plaintext `signature` passes token, timestamp and nonce; `msg_signature` adds the Encrypt value.
 */
export function callbackSignature(...parts: string[]): string {
  return sha1Hex([...parts].sort().join(""));
}

/** Compares a signature from a request with the expected one in constant time. */
export function signatureMatches(expected: string, given: string | null | undefined): boolean {
  return typeof given === "string" && safeEqual(expected, given.toLowerCase());
}

/**
 * Encrypts `message` for `receiveId` (an AppID or CorpID) the WXBizMsgCrypt way; base64 out.
 * `random` is the 16-byte prefix (fresh random bytes unless a test fixes it).
 */
export function encryptMessage(message: string, encodingAesKey: string, receiveId: string, random: Uint8Array = randomBytes(RANDOM_PREFIX)): string {
  const key = aesKeyFrom(encodingAesKey);
  if (!key) throw new Error("EncodingAESKey must be 43 base64 characters");
  if (random.length !== RANDOM_PREFIX) throw new Error("the random prefix must be 16 bytes");
  const body = Buffer.from(message, "utf8");
  const length = Buffer.alloc(LENGTH_FIELD);
  length.writeUInt32BE(body.length, 0);
  const unpadded = Buffer.concat([Buffer.from(random), length, body, Buffer.from(receiveId, "utf8")]);
  const padLength = PAD_BLOCK - (unpadded.length % PAD_BLOCK);
  const plaintext = Buffer.concat([unpadded, Buffer.alloc(padLength, padLength)]);
  const cipher = createCipheriv("aes-256-cbc", key, key.subarray(0, 16));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(plaintext), cipher.final()]).toString("base64");
}

/** What {@link decryptMessage} found. */
export type DecryptResult = { ok: true; message: string; receiveId: string } | { ok: false; reason: string };

/**
 * Decrypts a WXBizMsgCrypt ciphertext and checks that it was meant for `expectedReceiveId`.
 * Never throws: malformed base64, a wrong key, padding outside 1..32, an impossible length or
 * another receiver all come back as `{ ok: false }`.
 */
export function decryptMessage(encrypted: string, encodingAesKey: string, expectedReceiveId: string): DecryptResult {
  const key = aesKeyFrom(encodingAesKey);
  if (!key) return { ok: false, reason: "EncodingAESKey is not 43 base64 characters" };
  if (!base64Pattern.test(encrypted)) return { ok: false, reason: "ciphertext is not base64" };
  const ciphertext = Buffer.from(encrypted, "base64");
  if (ciphertext.length === 0 || ciphertext.length % 16 !== 0) return { ok: false, reason: "ciphertext is not whole AES blocks" };
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv("aes-256-cbc", key, key.subarray(0, 16));
    decipher.setAutoPadding(false);
    plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    return { ok: false, reason: "decryption failed" };
  }
  const padLength = plaintext[plaintext.length - 1] ?? 0;
  if (padLength < 1 || padLength > PAD_BLOCK || padLength > plaintext.length) return { ok: false, reason: "padding out of range" };
  for (let index = plaintext.length - padLength; index < plaintext.length; index += 1) {
    if (plaintext[index] !== padLength) return { ok: false, reason: "padding bytes differ" };
  }
  const content = plaintext.subarray(0, plaintext.length - padLength);
  if (content.length < RANDOM_PREFIX + LENGTH_FIELD) return { ok: false, reason: "plaintext too short" };
  const messageLength = content.readUInt32BE(RANDOM_PREFIX);
  const messageEnd = RANDOM_PREFIX + LENGTH_FIELD + messageLength;
  if (messageEnd > content.length) return { ok: false, reason: "message length out of range" };
  const receiveId = content.subarray(messageEnd).toString("utf8");
  if (!safeEqual(receiveId, expectedReceiveId)) return { ok: false, reason: "receiveId mismatch" };
  return { ok: true, message: content.subarray(RANDOM_PREFIX + LENGTH_FIELD, messageEnd).toString("utf8"), receiveId };
}

/** A random numeric nonce, as WeChat's own are (digits only). */
export function randomNonce(): string {
  return String(randomBytes(4).readUInt32BE(0));
}
