import { ChannelError, type AdapterIO } from "../../types";
import { callPlatform, isObject, numberAt, objectAt, readJson, retryAfterHeaderMs, stringAt } from "../global-shared/http";

/** A Bot API refusal; `migrateToChatId` is set when a group became a supergroup with a new id. */
export class TelegramApiError extends ChannelError {
  readonly migrateToChatId: number | undefined;
  constructor(message: string, options: ConstructorParameters<typeof ChannelError>[1] & { migrateToChatId?: number }) {
    super(message, options);
    this.migrateToChatId = options.migrateToChatId;
  }
}

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
  const parameters = objectAt(answer, "parameters");
  const retryAfterSeconds = numberAt(parameters, "retry_after");
  const migrateToChatId = numberAt(parameters, "migrate_to_chat_id");
  const retryAfterMs = retryAfterSeconds !== undefined ? retryAfterSeconds * 1000 : retryAfterHeaderMs(response, io.now());
  const retryable = code === 429 || code >= 500 || code === 401 || response.status >= 500;
  throw new TelegramApiError(`telegram ${method}: ${description}`, {
    retryable,
    platformCode: code,
    ...(migrateToChatId !== undefined ? { migrateToChatId } : {}),
    ...(code === 429 && retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}
