import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";

/** DER header of an SPKI-wrapped Ed25519 public key (RFC 8410); the raw 32-byte key follows. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
/** DER header of a PKCS#8-wrapped Ed25519 private key; the raw 32-byte seed follows. */
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

const HEX_64 = /^[0-9a-fA-F]{64}$/;
const HEX_128 = /^[0-9a-fA-F]{128}$/;

/** A public KeyObject from a raw Ed25519 key in hex (as Discord shows it); undefined when malformed. */
export function ed25519PublicKey(hex: string): KeyObject | undefined {
  if (!HEX_64.test(hex)) return undefined;
  try {
    return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(hex, "hex")]), format: "der", type: "spki" });
  } catch {
    return undefined;
  }
}

/** A private KeyObject from a raw 32-byte Ed25519 seed in hex. */
export function ed25519PrivateKey(seedHex: string): KeyObject {
  if (!HEX_64.test(seedHex)) throw new Error("an Ed25519 seed is 32 bytes of hex");
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, Buffer.from(seedHex, "hex")]), format: "der", type: "pkcs8" });
}

/** The raw public key of `key`, in hex. */
export function rawPublicKeyHex(key: KeyObject): string {
  return key.export({ format: "der", type: "spki" }).subarray(SPKI_PREFIX.length).toString("hex");
}

/** Signs `message` (Ed25519 is deterministic), hex. */
export function signEd25519(privateKey: KeyObject, message: Uint8Array): string {
  return sign(null, message, privateKey).toString("hex");
}

/** True when `signatureHex` is a valid Ed25519 signature of `message` under `publicKeyHex`; never throws. */
export function verifyEd25519(publicKeyHex: string, message: Uint8Array, signatureHex: string): boolean {
  const key = ed25519PublicKey(publicKeyHex);
  if (!key || !HEX_128.test(signatureHex)) return false;
  try {
    return verify(null, message, key, Buffer.from(signatureHex, "hex"));
  } catch {
    return false;
  }
}

/** The bytes Discord signs: the `X-Signature-Timestamp` value followed by the raw body. */
export function signedBytes(timestamp: string, body: Uint8Array): Uint8Array {
  return Buffer.concat([Buffer.from(timestamp, "utf8"), body]);
}
