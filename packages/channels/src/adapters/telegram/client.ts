import { ChannelError, MEDIA_MAX_BYTES, type AdapterIO, type FetchedMedia } from "../../types";
import { downloadFailure, MEDIA_TOO_LARGE, mediaType, readMediaBody } from "../global-shared/media";
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
export async function callBotApi(method: string, body: Record<string, unknown> | FormData, botToken: string, io: AdapterIO): Promise<unknown> {
  // Uploads (sendPhoto) go as multipart/form-data; fetch sets the boundary itself.
  const init: RequestInit =
    body instanceof FormData ? { method: "POST", body } : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await callPlatform(io.fetch, `${io.apiBase}/bot${botToken}/${method}`, init, `telegram ${method}`);
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

/**
 * Downloads a file the bot received: `getFile` names its `file_path` (an unknown or foreign
 * `file_id` is Telegram's 400 "invalid file_id"), then `GET /file/bot<token>/<file_path>`.
 */
export async function downloadTelegramFile(fileId: string, botToken: string, io: AdapterIO): Promise<FetchedMedia> {
  const file = await callBotApi("getFile", { file_id: fileId }, botToken, io);
  const filePath = stringAt(file, "file_path");
  if (!filePath) throw new ChannelError("telegram getFile: no file_path (the file is too big for bots)", { retryable: false });
  const size = numberAt(file, "file_size");
  if (size !== undefined && size > MEDIA_MAX_BYTES) {
    throw new ChannelError(`telegram getFile: the file is larger than ${MEDIA_MAX_BYTES} bytes`, { retryable: false, platformCode: MEDIA_TOO_LARGE });
  }
  const what = "telegram file download";
  const response = await callPlatform(io.fetch, `${io.apiBase}/file/bot${botToken}/${filePath}`, { method: "GET" }, what);
  if (!response.ok) throw downloadFailure(response, what);
  const bytes = await readMediaBody(response, what);
  const mime = mediaType(response);
  const name = filePath.split("/").at(-1);
  return { bytes, ...(mime && mime !== "application/octet-stream" ? { mime } : {}), ...(name ? { name } : {}) };
}
