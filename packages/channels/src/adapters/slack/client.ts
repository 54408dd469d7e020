import { ChannelError, type AdapterIO, type ChannelConfig, type FetchedMedia, type InboundAttachment, type OutboundImage, type ReplyHandle } from "../../types";
import { callPlatform } from "../global-shared/http";
import { downloadFailure, imageBlob, mediaType, readMediaBody } from "../global-shared/media";
import { postJson, retryAfterMs, transientFailure, type PlatformAnswer } from "../workplace-shared/http";

/** Web API errors worth retrying: Slack's own rate limit, its transient failures, and an expired rotating token. */
const retryableErrors = new Set(["ratelimited", "rate_limited", "internal_error", "fatal_error", "service_unavailable", "request_timeout", "token_expired"]);

/** Classifies a Web API answer: returns its JSON when `ok`, throws a {@link ChannelError} otherwise. */
function accepted(answer: PlatformAnswer, method: string): Record<string, unknown> {
  const transient = transientFailure(answer, `Slack ${method}`);
  if (transient) throw transient;
  const body = answer.body;
  if (!body) throw new ChannelError(`Slack ${method}: unreadable answer (HTTP ${answer.status})`, { retryable: answer.status >= 500 });
  if (body.ok === true) return body;
  const error = typeof body.error === "string" ? body.error : "unknown_error";
  const retryAfter = retryAfterMs(answer.headers.get("retry-after"));
  throw new ChannelError(`Slack ${method}: ${error}`, {
    retryable: retryableErrors.has(error),
    platformCode: error,
    ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
  });
}

function callWebApi(method: string, body: unknown, config: ChannelConfig, io: AdapterIO): Promise<PlatformAnswer> {
  return postJson(io.fetch, `${io.apiBase}/${method}`, body, { authorization: `Bearer ${config.botToken ?? ""}` });
}

/** Posts `text` with `chat.postMessage`, in the thread when the person wrote in one. */
export async function postSlackMessage(to: ReplyHandle, text: string, config: ChannelConfig, io: AdapterIO): Promise<{ ids: string[] }> {
  if (typeof to.channel !== "string" || !to.channel) throw new ChannelError("Slack reply handle has no channel", { retryable: false });
  const message: Record<string, unknown> = { channel: to.channel, text };
  if (typeof to.threadTs === "string" && to.threadTs) message.thread_ts = to.threadTs;
  const body = accepted(await callWebApi("chat.postMessage", message, config, io), "chat.postMessage");
  return { ids: typeof body.ts === "string" ? [body.ts] : [] };
}

/** Checks the bot token with `auth.test`. */
export async function testSlackAuth(config: ChannelConfig, io: AdapterIO): Promise<void> {
  accepted(await callWebApi("auth.test", {}, config, io), "auth.test");
}

function callWebApiForm(method: string, fields: Record<string, string>, config: ChannelConfig, io: AdapterIO): Promise<Response> {
  return callPlatform(
    io.fetch,
    `${io.apiBase}/${method}`,
    {
      method: "POST",
      headers: { authorization: `Bearer ${config.botToken ?? ""}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    },
    `Slack ${method}`,
  );
}

async function answerOf(response: Response): Promise<PlatformAnswer> {
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  return { status: response.status, headers: response.headers, body };
}

/**
 * The bot token goes only to Slack's file host (or, in tests, to the API's own origin): a
 * `url_private` pointing anywhere else is refused rather than handed the token.
 */
function trustedFileUrl(url: string, io: AdapterIO): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === "https:" && parsed.hostname === "files.slack.com") || parsed.origin === new URL(io.apiBase).origin;
  } catch {
    return false;
  }
}

/**
 * Downloads a shared file from its `url_private` with the bot token (a bare file id is looked up
 * with `files.info` first: `file_not_found` for one the bot cannot see). Slack answers a request
 * it does not authorize with its HTML sign-in page, which is refused, not taken for the file.
 */
export async function fetchSlackFile(attachment: InboundAttachment, config: ChannelConfig, io: AdapterIO): Promise<FetchedMedia> {
  let url = attachment.ref;
  if (!/^https?:\/\//.test(url)) {
    const body = accepted(await answerOf(await callWebApiForm("files.info", { file: attachment.ref }, config, io)), "files.info");
    const file = body.file as Record<string, unknown> | undefined;
    if (typeof file?.url_private !== "string") throw new ChannelError("Slack files.info: the file has no url_private", { retryable: false });
    url = file.url_private;
  }
  if (!trustedFileUrl(url, io))
    throw new ChannelError("Slack file: url_private is not on Slack's file host", { retryable: false, platformCode: "untrusted_file_url" });
  const what = "Slack file download";
  const response = await callPlatform(io.fetch, url, { method: "GET", headers: { authorization: `Bearer ${config.botToken ?? ""}` } }, what);
  if (!response.ok) throw downloadFailure(response, what);
  const mime = mediaType(response);
  if (mime === "text/html" && attachment.mime !== "text/html") {
    await response.body?.cancel().catch(() => {});
    throw new ChannelError(`${what}: Slack answered its sign-in page (the bot token cannot read the file)`, {
      retryable: false,
      platformCode: "file_access_refused",
    });
  }
  const bytes = await readMediaBody(response, what);
  return { bytes, ...((attachment.mime ?? mime) ? { mime: attachment.mime ?? mime } : {}), ...(attachment.name ? { name: attachment.name } : {}) };
}

/**
 * Shares an image in the conversation the way Slack takes uploads now: `files.getUploadURLExternal`,
 * the bytes POSTed to the upload URL, then `files.completeUploadExternal` into the channel (and thread).
 */
export async function uploadSlackImage(to: ReplyHandle, image: OutboundImage, config: ChannelConfig, io: AdapterIO): Promise<{ ids: string[] }> {
  if (typeof to.channel !== "string" || !to.channel) throw new ChannelError("Slack reply handle has no channel", { retryable: false });
  const ticket = accepted(
    await answerOf(await callWebApiForm("files.getUploadURLExternal", { filename: image.name, length: String(image.bytes.byteLength) }, config, io)),
    "files.getUploadURLExternal",
  );
  if (typeof ticket.upload_url !== "string" || typeof ticket.file_id !== "string") {
    throw new ChannelError("Slack files.getUploadURLExternal: no upload_url", { retryable: true });
  }
  const form = new FormData();
  form.set("file", imageBlob(image), image.name);
  const uploaded = await callPlatform(io.fetch, ticket.upload_url, { method: "POST", body: form }, "Slack file upload");
  if (!uploaded.ok) throw downloadFailure(uploaded, "Slack file upload");
  const complete: Record<string, unknown> = { files: [{ id: ticket.file_id, title: image.name }], channel_id: to.channel };
  if (typeof to.threadTs === "string" && to.threadTs) complete.thread_ts = to.threadTs;
  accepted(await callWebApi("files.completeUploadExternal", complete, config, io), "files.completeUploadExternal");
  return { ids: [ticket.file_id] };
}
