/** What went wrong: the server answered with an error, the network failed, the call ran out of time, or the caller aborted it. */
export type ParleyErrorKind = "http" | "network" | "timeout" | "aborted";

/** Fields a {@link ParleyError} may carry besides its kind and message. */
export interface ParleyErrorDetails {
  /** HTTP status of the answer. */
  status?: number;
  /** The envelope's `code` (equal to the status, except 701 and 870 which arrive as HTTP 402). */
  code?: number;
  /** The `x-request-id` header, to quote when reporting a problem. */
  requestId?: string;
  /** How long the server asked us to wait (`Retry-After`), in milliseconds. */
  retryAfterMs?: number;
  /** The envelope's `data`, when the server sent any with the error. */
  data?: unknown;
  /** The underlying error, for network failures. */
  cause?: unknown;
}

/**
 * The single error type the SDK returns. Calls never throw it for HTTP or network failures;
 * they return it as `error`. Streams throw it from the iterator.
 */
export class ParleyError extends Error {
  override readonly name = "ParleyError";
  /** What went wrong. */
  readonly kind: ParleyErrorKind;
  /** HTTP status of the answer, when there was one. */
  readonly status?: number;
  /** The envelope's `code`, when the answer was an envelope. */
  readonly code?: number;
  /** The `x-request-id` header of the answer. */
  readonly requestId?: string;
  /** How long the server asked us to wait before trying again, in milliseconds. */
  readonly retryAfterMs?: number;
  /** The envelope's `data`, if any. */
  readonly data?: unknown;

  /** Creates an error; `details.cause` becomes the standard `Error.cause`. */
  constructor(kind: ParleyErrorKind, message: string, details: ParleyErrorDetails = {}) {
    super(message, { cause: details.cause });
    this.kind = kind;
    this.status = details.status;
    this.code = details.code;
    this.requestId = details.requestId;
    this.retryAfterMs = details.retryAfterMs;
    this.data = details.data;
  }
}

// An answer without an envelope (a proxy's 502 page, say) still has a status worth matching on.
const codeOf = (error: unknown): number | undefined => (error instanceof ParleyError ? (error.code ?? error.status) : undefined);

/** True for code 701: the space's plan must be upgraded. Clients show an upgrade prompt, not a toast. */
export const isUpgradeRequired = (error: unknown): error is ParleyError => codeOf(error) === 701;

/** True for code 870: not enough credits. Clients show a top-up prompt, not a toast. */
export const isInsufficientCredits = (error: unknown): error is ParleyError => codeOf(error) === 870;

/** True for code 401: the session ended or no credentials were sent; sign in again. */
export const isSessionEnded = (error: unknown): error is ParleyError => codeOf(error) === 401;

/** True for code 440: the message is HTML meant to be shown as such. */
export const isHtmlMessage = (error: unknown): error is ParleyError => codeOf(error) === 440;
