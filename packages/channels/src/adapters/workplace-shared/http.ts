import { ChannelError, type VerifyResult } from "../../types";

// Helpers shared by the Feishu, DingTalk and Slack adapters: payload checks and JSON calls.

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` when it is a non-empty string, else undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** A {@link VerifyResult} refusing the request. */
export function rejected(status: 400 | 401 | 403, reason: string): VerifyResult {
  return { kind: "rejected", status, reason };
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The body parsed as a JSON object, or undefined when it is not valid UTF-8 JSON of an object. */
export function parseJsonObject(body: Uint8Array | string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(typeof body === "string" ? body : decoder.decode(body));
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Milliseconds to wait from a `Retry-After`-style header given in seconds; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : undefined;
}

/** What came back from a platform call: the HTTP status, headers and the body parsed as a JSON object when it was one. */
export interface PlatformAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

/**
 * POSTs `body` as JSON. Network failures and timeouts become a retryable {@link ChannelError};
 * every HTTP answer is returned for the caller to classify.
 */
export async function postJson(
  fetcher: typeof fetch,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<PlatformAnswer> {
  let response: Response;
  try {
    response = await fetcher(url, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ChannelError(`request to ${new URL(url).pathname} failed: ${error instanceof Error ? error.message : String(error)}`, {
      retryable: true,
    });
  }
  const raw = await response.text().catch(() => "");
  return { status: response.status, headers: response.headers, body: parseJsonObject(raw) };
}

/** The ChannelError for an HTTP 429 or 5xx answer (both retryable); undefined for any other status. */
export function transientFailure(answer: PlatformAnswer, what: string, retryAfterHeader = "retry-after"): ChannelError | undefined {
  if (answer.status === 429) {
    const retryAfter = retryAfterMs(answer.headers.get(retryAfterHeader));
    return new ChannelError(`${what}: rate limited (HTTP 429)`, {
      retryable: true,
      platformCode: 429,
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    });
  }
  if (answer.status >= 500) return new ChannelError(`${what}: server error (HTTP ${answer.status})`, { retryable: true, platformCode: answer.status });
  return undefined;
}
