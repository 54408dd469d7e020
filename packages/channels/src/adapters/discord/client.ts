import { ChannelError, type AdapterIO } from "../../types";
import { callPlatform, numberAt, readJson, retryAfterHeaderMs, stringAt } from "../global-shared/http";

/** Discord's JSON error codes meaning the interaction token no longer works (it lives 15 minutes). */
export const expiredInteractionCodes = new Set(["50027", "10015"]);

/**
 * Calls Discord's REST API (JSON) and returns the parsed answer. HTTP 429 (with the JSON
 * `retry_after` in seconds, else `Retry-After`) and 5xx are retryable; other failures are not,
 * and carry Discord's JSON error `code` (50027 Invalid Webhook Token, 10003 Unknown Channel, 50035
 * Invalid Form Body…) as `platformCode`.
 */
export async function callDiscord(io: AdapterIO, method: string, path: string, options: { body?: unknown; botToken?: string } = {}): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.botToken) headers.authorization = `Bot ${options.botToken}`;
  const response = await callPlatform(
    io.fetch,
    `${io.apiBase}${path}`,
    { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) },
    `discord ${method} ${path.split("/")[1] ?? ""}`,
  );
  const answer = await readJson(response);
  if (response.ok) return answer;
  const code = numberAt(answer, "code");
  const message = stringAt(answer, "message") ?? `HTTP ${response.status}`;
  if (response.status === 429) {
    const retryAfterSeconds = numberAt(answer, "retry_after");
    const retryAfterMs = retryAfterSeconds !== undefined ? Math.ceil(retryAfterSeconds * 1000) : retryAfterHeaderMs(response, io.now());
    throw new ChannelError(`discord: ${message}`, { retryable: true, platformCode: 429, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
  }
  throw new ChannelError(`discord: ${message}`, {
    retryable: response.status >= 500,
    platformCode: code !== undefined && code !== 0 ? code : response.status,
  });
}
