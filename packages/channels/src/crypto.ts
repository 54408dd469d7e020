import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** Constant-time comparison of two strings; false when their lengths differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Lowercase hex SHA-1. */
export function sha1Hex(value: string): string {
  return createHash("sha1").update(value).digest("hex");
}

/** Lowercase hex SHA-256. */
export function sha256Hex(value: string | Uint8Array): string {
  return createHash("sha256").update(value).digest("hex");
}

/** HMAC-SHA256 of `data` under `key`, in the given encoding. */
export function hmacSha256(key: string | Uint8Array, data: string | Uint8Array, encoding: "hex" | "base64"): string {
  return createHmac("sha256", key).update(data).digest(encoding);
}

/** True when `timestampSeconds` is within `windowSeconds` of now (either way). */
export function fresh(timestampSeconds: number, nowMs: number, windowSeconds: number): boolean {
  return Number.isFinite(timestampSeconds) && Math.abs(nowMs / 1000 - timestampSeconds) <= windowSeconds;
}
