import { hmacSha256, safeEqual } from "../../crypto";

/** Slack signs requests for at most this long: older (or future) timestamps are refused. */
export const SLACK_SIGNATURE_WINDOW_SECONDS = 300;

/**
 * Slack's request signature: `v0=` + hex HMAC-SHA256(signing secret, `v0:{timestamp}:{raw body}`),
 * computed over the body's exact bytes.
 */
export function slackSignature(signingSecret: string, timestamp: string, body: Uint8Array | string): string {
  const raw = typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
  const base = Buffer.concat([Buffer.from(`v0:${timestamp}:`, "utf8"), raw]);
  return `v0=${hmacSha256(signingSecret, base, "hex")}`;
}

/** True when `signature` is the right one for this timestamp and body (constant-time). */
export function slackSignatureMatches(signingSecret: string, timestamp: string, body: Uint8Array | string, signature: string): boolean {
  return safeEqual(signature, slackSignature(signingSecret, timestamp, body));
}
