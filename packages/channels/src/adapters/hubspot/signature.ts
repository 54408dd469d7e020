import { createHash } from "node:crypto";
import { fresh, hmacSha256, safeEqual } from "../../crypto";

/** HubSpot refuses (and so do we) v3 signatures more than five minutes old. */
export const SIGNATURE_WINDOW_SECONDS = 300;

/**
 * The percent-escapes HubSpot decodes in the request URI before it signs v3 (its "Validating
 * requests" guide lists these); every other escape stays as sent.
 */
const decodedEscapes: Record<string, string> = {
  "%3A": ":",
  "%2F": "/",
  "%3F": "?",
  "%40": "@",
  "%21": "!",
  "%24": "$",
  "%27": "'",
  "%28": "(",
  "%29": ")",
  "%2A": "*",
  "%2C": ",",
  "%3B": ";",
};

/** The URI as HubSpot signs it in v3. */
export function v3Uri(uri: string): string {
  return uri.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (sequence) => decodedEscapes[sequence.toUpperCase()] ?? sequence);
}

/** `X-HubSpot-Signature-v3`: Base64 HMAC-SHA256(client secret, method + URI + body + timestamp). */
export function signatureV3(clientSecret: string, method: string, uri: string, body: string, timestampMs: string): string {
  return hmacSha256(clientSecret, `${method.toUpperCase()}${v3Uri(uri)}${body}${timestampMs}`, "base64");
}

/** `X-HubSpot-Signature` version v1: hex SHA-256(client secret + body). */
export function signatureV1(clientSecret: string, body: string): string {
  return createHash("sha256").update(`${clientSecret}${body}`, "utf8").digest("hex");
}

/** `X-HubSpot-Signature` version v2: hex SHA-256(client secret + method + URI + body). */
export function signatureV2(clientSecret: string, method: string, uri: string, body: string): string {
  return createHash("sha256").update(`${clientSecret}${method.toUpperCase()}${uri}${body}`, "utf8").digest("hex");
}

/** Why a v3 check failed, or "ok". The timestamp is checked before the MAC. */
export type V3Check = "ok" | "missing" | "stale" | "mismatch";

/** Checks a v3 signature over the raw body, timestamp first, in constant time. */
export function checkSignatureV3(
  clientSecret: string,
  request: { method: string; uri: string; body: Uint8Array; signature: string | null; timestamp: string | null },
  nowMs: number,
): V3Check {
  if (!clientSecret || !request.signature || !request.timestamp || !/^\d{1,16}$/.test(request.timestamp)) return "missing";
  if (!fresh(Number(request.timestamp) / 1000, nowMs, SIGNATURE_WINDOW_SECONDS)) return "stale";
  const body = Buffer.from(request.body).toString("utf8");
  const expected = signatureV3(clientSecret, request.method, request.uri, body, request.timestamp);
  return safeEqual(request.signature, expected) ? "ok" : "mismatch";
}

/** Checks a legacy v1 or v2 `X-HubSpot-Signature` (no timestamp, so no replay protection) in constant time. */
export function checkLegacySignature(
  clientSecret: string,
  version: string | null,
  request: { method: string; uri: string; body: string; signature: string | null },
): boolean {
  if (!clientSecret || !request.signature) return false;
  const expected =
    version === "v1"
      ? signatureV1(clientSecret, request.body)
      : version === "v2"
        ? signatureV2(clientSecret, request.method, request.uri, request.body)
        : undefined;
  return expected !== undefined && safeEqual(request.signature.toLowerCase(), expected);
}
