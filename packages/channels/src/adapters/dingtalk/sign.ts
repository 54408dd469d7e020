import { hmacSha256, safeEqual } from "../../crypto";

/** DingTalk refuses callbacks whose `timestamp` header is more than an hour from now, and so do we. */
export const DINGTALK_SIGNATURE_WINDOW_SECONDS = 3600;

/**
 * The `sign` header of an HTTP-mode robot callback: Base64 HMAC-SHA256 under the app secret of
 * `timestamp + "\n" + appSecret` (the timestamp in milliseconds, as sent).
 */
export function dingtalkSign(appSecret: string, timestamp: string): string {
  return hmacSha256(appSecret, `${timestamp}\n${appSecret}`, "base64");
}

/** True when `sign` is the right one for this timestamp (constant-time). */
export function dingtalkSignMatches(appSecret: string, timestamp: string, sign: string): boolean {
  return safeEqual(sign, dingtalkSign(appSecret, timestamp));
}
