import type { SecretBox } from "./secret-box";

/** Marks a value stored sealed by the instance's {@link SecretBox}; anything else is a plaintext value from before sealing. */
export const SEALED_PREFIX = "sealed:";

/** What a masked credential shows before its last characters. */
export const MASK = "••••";

/** Whether a stored value is already sealed. */
export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

/** Seals a value for storage; empty and already sealed values stay as they are, so sealing twice is harmless. */
export function sealValue(box: SecretBox, value: string): string {
  if (value === "" || isSealed(value)) return value;
  return `${SEALED_PREFIX}${box.seal(value)}`;
}

/**
 * Opens a stored value. A plaintext value (a row written before sealing and not yet sealed at
 * start-up) is used as it is; a value sealed under another key opens as "" (unusable, like unset).
 */
export function openValue(box: SecretBox, stored: string): string {
  if (!isSealed(stored)) return stored;
  try {
    return box.open(stored.slice(SEALED_PREFIX.length));
  } catch {
    return "";
  }
}

/** Query parameters of a URL that carry its credential (DingTalk `access_token`, WeChat Work `key`, …). */
const CREDENTIAL_PARAMS = /^(access_token|token|key|secret|sign|signature|password)$/i;

function maskPart(value: string): string {
  return `${MASK}${value.length > 8 ? value.slice(-4) : ""}`;
}

/**
 * A webhook URL as answered: credential query parameters and a Feishu hook id masked, e.g.
 * `https://oapi.dingtalk.com/robot/send?access_token=••••1a2b`. The same URL always masks to the
 * same text, so a client sending it back can be matched to the stored URL.
 */
export function maskCredentialUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return maskPart(url);
  }
  const params = [...parsed.searchParams.entries()];
  const hook = /(\/hook\/)([^/]+)/;
  // A URL without a credential is answered exactly as stored.
  if (!hook.test(parsed.pathname) && !params.some(([name]) => CREDENTIAL_PARAMS.test(name))) return url;
  // Feishu robots are addressed by the hook id in the path: whoever has it can post.
  const pathname = parsed.pathname.replace(hook, (_all, head: string, id: string) => `${head}${maskPart(id)}`);
  const query = params
    .map(([name, value]) => `${encodeURIComponent(name)}=${CREDENTIAL_PARAMS.test(name) ? maskPart(value) : encodeURIComponent(value)}`)
    .join("&");
  return `${parsed.origin}${pathname}${query ? `?${query}` : ""}${parsed.hash}`;
}

/** Whether a URL sent by a client is a masked answer rather than a real address. */
export function isMaskedUrl(url: string): boolean {
  return url.includes(MASK);
}
