import { APICallError, JSONParseError, TypeValidationError } from "@ai-sdk/provider";
import { ModelError, type ModelErrorKind } from "./types";

const CONTEXT_LENGTH =
  /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input token count.*exceeds|exceeds the (maximum|max).*tokens|reduce the length/i;

/**
 * Reads a Retry-After header: delta-seconds or an HTTP date (RFC 9110 §10.2.3), or
 * `retry-after-ms` when a vendor sends that instead. Answers whole seconds, at least 1.
 */
export function parseRetryAfter(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  const milliseconds = lower["retry-after-ms"];
  if (milliseconds && /^\d+(\.\d+)?$/.test(milliseconds.trim())) return Math.max(1, Math.ceil(Number(milliseconds) / 1000));
  const value = lower["retry-after"]?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.max(1, Math.ceil(Number(value)));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(1, Math.ceil((date - now) / 1000));
}

/** Google sends its back-off as a `google.rpc.RetryInfo` detail (`"retryDelay": "2s"`) in the error body. */
function retryDelayFromBody(body: string | undefined): number | undefined {
  if (!body) return undefined;
  const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(body);
  return match ? Math.max(1, Math.ceil(Number(match[1]))) : undefined;
}

/** The vendor's own words from an error body, without the noise around them. */
function vendorMessage(error: APICallError): string {
  const data = error.data as { error?: { message?: unknown } | string; message?: unknown } | undefined;
  if (data && typeof data === "object") {
    if (typeof data.error === "object" && typeof data.error?.message === "string") return data.error.message;
    if (typeof data.message === "string") return data.message;
  }
  if (error.responseBody) {
    try {
      const parsed = JSON.parse(error.responseBody) as { error?: { message?: unknown } };
      if (typeof parsed.error?.message === "string") return parsed.error.message;
    } catch {
      // Not JSON: fall through to the SDK's message.
    }
  }
  return error.message;
}

// Google answers a wrong key with 400 INVALID_ARGUMENT rather than 401.
const BAD_KEY = /API_KEY_INVALID|API key not valid|invalid api key|incorrect api key/i;

function kindForStatus(status: number, text: string): ModelErrorKind {
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403 || (status === 400 && BAD_KEY.test(text))) return "auth";
  if (status === 408 || status === 504) return "timeout";
  if (status >= 500) return "unavailable";
  if (CONTEXT_LENGTH.test(text)) return "context_length";
  return "bad_request";
}

/** Error types vendors put inside a stream (OpenAI chunk `error`, Anthropic `event: error`). */
function kindForVendorType(type: string | undefined, text: string): ModelErrorKind {
  switch (type) {
    case "rate_limit_error":
    case "rate_limit_exceeded":
    case "RESOURCE_EXHAUSTED":
      return "rate_limited";
    case "authentication_error":
    case "permission_error":
    case "invalid_api_key":
      return "auth";
    case "invalid_request_error":
      return CONTEXT_LENGTH.test(text) ? "context_length" : "bad_request";
    default:
      return CONTEXT_LENGTH.test(text) ? "context_length" : "unavailable";
  }
}

/**
 * Turns whatever a vendor call threw or put into its stream into a {@link ModelError}. HTTP
 * statuses map as: 429 rate_limited (with Retry-After), 401/403 auth, 408/504 timeout, other 5xx
 * unavailable, 4xx with a context-length message context_length, other 4xx bad_request.
 * Unparseable chunks are `malformed`; a refused connection is `unavailable`. Secrets given in
 * `redact` are cut out of the message, whatever the vendor echoed.
 */
export function toModelError(error: unknown, context: { provider: string; redact?: readonly string[] }): ModelError {
  const clean = (text: string) => {
    let out = text;
    for (const secret of context.redact ?? []) if (secret.length >= 4) out = out.split(secret).join("[redacted]");
    return out;
  };
  if (error instanceof ModelError) return error;
  if (APICallError.isInstance(error)) {
    const message = clean(vendorMessage(error));
    if (error.statusCode === undefined) {
      return new ModelError("unavailable", clean(`Cannot reach ${context.provider}: ${error.message}`), { provider: context.provider });
    }
    const kind = kindForStatus(error.statusCode, `${message} ${error.responseBody ?? ""}`);
    const retryAfterSeconds = kind === "rate_limited" ? (parseRetryAfter(error.responseHeaders) ?? retryDelayFromBody(error.responseBody)) : undefined;
    return new ModelError(kind, message, {
      status: error.statusCode,
      provider: context.provider,
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    });
  }
  if (JSONParseError.isInstance(error) || TypeValidationError.isInstance(error)) {
    return new ModelError("malformed", `${context.provider} sent a chunk Parley could not read`, { provider: context.provider });
  }
  if (error && typeof error === "object" && !(error instanceof Error)) {
    // An error object the vendor put into the stream.
    const body = error as {
      type?: string;
      message?: string;
      code?: string | number;
      status?: string;
      error?: { type?: string; message?: string; code?: string; status?: string };
    };
    const inner = body.error ?? body;
    const text = clean(String(inner.message ?? JSON.stringify(error)));
    const type = inner.type ?? (typeof inner.code === "string" ? inner.code : undefined) ?? inner.status;
    return new ModelError(kindForVendorType(type, text), text, { provider: context.provider });
  }
  const message = clean(error instanceof Error ? error.message : String(error));
  return new ModelError("unavailable", `${context.provider} failed: ${message}`, { provider: context.provider });
}
