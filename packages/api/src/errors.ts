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
] as const;

/** One of {@link errorKinds}. */
export type ErrorKind = (typeof errorKinds)[number];

/** An expected failure: the request cannot be served as asked. */
export class ServiceError extends Error {
  override name = "ServiceError";
  constructor(
    readonly kind: ErrorKind,
    /** Key into the message catalogue (http/messages.ts). */
    readonly messageId: string,
    readonly params: Record<string, string | number> = {},
    readonly extra: { retryAfterSeconds?: number; field?: string } = {},
  ) {
    super(messageId);
  }
}

/** Shorthand constructors for the common cases. */
export const fail = {
  notFound: (what: string) => new ServiceError("not_found", "not_found", { what }),
  conflict: (messageId: string, params?: Record<string, string | number>) => new ServiceError("conflict", messageId, params),
  invalid: (messageId: string, field?: string, params?: Record<string, string | number>) =>
    new ServiceError("validation", messageId, params, field ? { field } : {}),
  forbidden: (messageId = "forbidden") => new ServiceError("forbidden", messageId),
  unauthenticated: (messageId = "login_required") => new ServiceError("unauthenticated", messageId),
  rateLimited: (retryAfterSeconds: number) =>
    new ServiceError("rate_limited", "rate_limited", { seconds: retryAfterSeconds }, { retryAfterSeconds }),
};
