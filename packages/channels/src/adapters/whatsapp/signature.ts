import { hmacSha256, safeEqual } from "../../crypto";

/** The `X-Hub-Signature-256` value Meta sends: `sha256=` + hex HMAC-SHA256(app secret, raw body). */
export function hubSignature(appSecret: string, body: Uint8Array | string): string {
  return `sha256=${hmacSha256(appSecret, body, "hex")}`;
}

/** True when `header` is the signature of `body` under `appSecret` (constant-time). */
export function verifyHubSignature(appSecret: string, body: Uint8Array, header: string | null): boolean {
  if (!appSecret || !header || !/^sha256=[0-9a-fA-F]{64}$/.test(header)) return false;
  return safeEqual(`sha256=${header.slice(7).toLowerCase()}`, hubSignature(appSecret, body));
}
