import { type MessageId, type MessageParams, renderMessage } from "../i18n/catalogue";
import type { Language } from "../i18n/language";

/**
 * The channel edge's translation: what Parley says to a messaging platform or through it (a
 * webhook refusal, a reply to a binding command, an offline notice) in the reader's language.
 * Services hand over message ids and parameters; only this edge and the HTTP edge render them.
 */
export function channelText(language: Language, id: MessageId, params: MessageParams = {}): string {
  return renderMessage(language, id, params);
}

/** Statuses a channel webhook refuses with. */
export type RefusalStatus = 400 | 401 | 403 | 404 | 503;

// The envelope code of each status: the kinds validation, unauthenticated, forbidden,
// not_found and external. A platform being unreachable answers 503 but keeps code 502.
const envelopeCodes: Record<RefusalStatus, number> = { 400: 400, 401: 401, 403: 403, 404: 404, 503: 502 };

/** A webhook refusal in the envelope's shape (status and code, no details of ours), without the HTTP layer. */
export function channelRefusal(status: RefusalStatus, messageId: MessageId, language: Language = "en"): Response {
  const body = { success: false as const, code: envelopeCodes[status], message: channelText(language, messageId), data: null };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}
