import { ChannelError, type AdapterIO } from "../../types";
import { callPlatform, isObject, numberAt, objectAt, readJson, retryAfterHeaderMs, stringAt } from "../global-shared/http";

/**
 * Calls Bot API method `method` (POST JSON to `/bot<token>/<method>`) and returns its `result`.
 * Failures become ChannelErrors: 429 (with `parameters.retry_after`) and 5xx retry; 401 retries
 * too (a revoked or regenerated token, which the operator fixes in the console while the queue
 * backs off); other 4xx (chat not found, bot blocked, bad request) do not.
 */
export async function callBotApi(method: string, body: Record<string, unknown>, botToken: string, io: AdapterIO): Promise<unknown> {
  const response = await callPlatform(
    io.fetch,
    `${io.apiBase}/bot${botToken}/${method}`,
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    `telegram ${method}`,
  );
  const answer = await readJson(response);
  if (response.ok && isObject(answer) && answer.ok === true) return answer.result;
  const code = numberAt(answer, "error_code") ?? response.status;
  const description = stringAt(answer, "description") ?? `HTTP ${response.status}`;
  const retryAfterSeconds = numberAt(objectAt(answer, "parameters"), "retry_after");
  const retryAfterMs = retryAfterSeconds !== undefined ? retryAfterSeconds * 1000 : retryAfterHeaderMs(response, io.now());
  const retryable = code === 429 || code >= 500 || code === 401 || response.status >= 500;
  throw new ChannelError(`telegram ${method}: ${description}`, {
    retryable,
    platformCode: code,
    ...(code === 429 && retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}
