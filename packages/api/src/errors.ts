import type { MessageId, MessageParams, Thing } from "./i18n/catalogue";

/**
 * Transport-free errors thrown by services. The HTTP layer maps each kind once to the
 * envelope's code and status (see http/envelope.ts).
 */
export const errorKinds = [
  "validation",
  "unauthenticated",
  "session_ended",
  "forbidden",
  "not_found",
  "conflict",
  "rate_limited",
  "payload_too_large",
  "unsupported_media_type",
  "html_message",
  "upgrade_required",
  "insufficient_credits",
  "external",
  "internal",
  // Image task statuses of spec §8, answered by the image task API only.
  "image_balance",
  "image_rejected",
  "image_task_not_found",
  "image_unavailable",
  "image_task_busy",
  "image_failed",
  "image_unknown",
] as const;

/** One of {@link errorKinds}. */
export type ErrorKind = (typeof errorKinds)[number];

/** What a 701 answer names: the quota or the feature refused, the plan the space runs on and the limit. */
export interface UpgradeDetail {
  quota?: string;
  feature?: string;
  limit?: number;
  plan: string;
}

/**
 * An expected failure: the request cannot be served as asked. It carries a message id and its
 * parameters, never text: the edges (HTTP, channels) translate it into the reader's language.
 */
export class ServiceError extends Error {
  override name = "ServiceError";
  constructor(
    readonly kind: ErrorKind,
    /** Key into the message catalogue (i18n/catalogue.ts). */
    readonly messageId: MessageId,
    readonly params: MessageParams = {},
    readonly extra: { retryAfterSeconds?: number; field?: string; upgrade?: UpgradeDetail } = {},
  ) {
    super(messageId);
  }
}

/**
 * Shorthand constructors for the common cases. `notFound` takes only a {@link Thing}, so a
 * thing without its `thing.*` message in a catalogue does not compile.
 */
export const fail = {
  notFound: (what: Thing) => new ServiceError("not_found", "not_found", { what }),
  conflict: (messageId: MessageId, params?: MessageParams) => new ServiceError("conflict", messageId, params),
  invalid: (messageId: MessageId, field?: string, params?: MessageParams) => new ServiceError("validation", messageId, params, field ? { field } : {}),
  forbidden: (messageId: MessageId = "forbidden") => new ServiceError("forbidden", messageId),
  unauthenticated: (messageId: MessageId = "login_required") => new ServiceError("unauthenticated", messageId),
  rateLimited: (retryAfterSeconds: number) => new ServiceError("rate_limited", "rate_limited", { seconds: retryAfterSeconds }, { retryAfterSeconds }),
};
