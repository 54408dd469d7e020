import { createHash } from "node:crypto";
import {
  ChannelError,
  type AdapterIO,
  type ChannelConfig,
  type FetchedMedia,
  type InboundAttachment,
  type InboundMessage,
  type IssuedToken,
  type OutboundImage,
  type ReplyHandle,
} from "../../types";
import { callPlatform } from "../global-shared/http";
import { dispositionName, imageBlob, mediaType, readMediaBody } from "../global-shared/media";
import { postJson, retryAfterMs, transientFailure, type PlatformAnswer } from "../workplace-shared/http";

/** Codes saying the tenant_access_token is invalid or expired: fetch a new one. */
const expiredTokenCodes = new Set([99991663, 99991668, 99991661]);
/** Frequency-limit codes (API-wide, per chat, per app). */
const rateLimitCodes = new Set([99991400, 230020, 11232]);
/** Feishu's "internal error, try again" codes. */
const transientCodes = new Set([1500, 99991672, 230005]);

function codeOf(answer: PlatformAnswer): number | undefined {
  return typeof answer.body?.code === "number" ? answer.body.code : undefined;
}

function messageOf(answer: PlatformAnswer): string {
  return typeof answer.body?.msg === "string" ? answer.body.msg : `HTTP ${answer.status}`;
}

/** The key under which an app's token is cached. */
function tokenKey(config: ChannelConfig): string {
  return `feishu:${config.appId ?? ""}`;
}

/** Fetches a tenant_access_token for the app (`auth/v3/tenant_access_token/internal`). */
async function issueTenantToken(config: ChannelConfig, io: AdapterIO): Promise<IssuedToken> {
  const answer = await postJson(io.fetch, `${io.apiBase}/open-apis/auth/v3/tenant_access_token/internal`, {
    app_id: config.appId,
    app_secret: config.appSecret,
  });
  const code = codeOf(answer);
  const token = answer.body?.tenant_access_token;
  if (code === 0 && typeof token === "string" && token) {
    const expire = Number(answer.body?.expire);
    return { token, expiresInSeconds: Number.isFinite(expire) && expire > 0 ? expire : 7200 };
  }
  const transient = transientFailure(answer, "Feishu tenant_access_token");
  if (transient) throw transient;
  throw new ChannelError(`Feishu tenant_access_token: ${messageOf(answer)}`, {
    retryable: code !== undefined && (rateLimitCodes.has(code) || transientCodes.has(code)),
    ...(code === undefined ? {} : { platformCode: code }),
  });
}

function tenantToken(config: ChannelConfig, io: AdapterIO): Promise<string> {
  return io.tokens.get(tokenKey(config), () => issueTenantToken(config, io));
}

/**
 * An idempotency `uuid` for one reply: the same text answering the same message is the same send
 * (Feishu keeps a uuid for an hour), so a retried job cannot post it twice.
 */
function idempotencyKey(to: ReplyHandle, content: string): string {
  return createHash("sha256")
    .update(`${String(to.messageId ?? "")}\n${String(to.chatId)}\n${content}`)
    .digest("hex")
    .slice(0, 32);
}

type Attempt = { done: true; ids: string[] } | { done: false; expiredToken: true };

async function postMessage(to: ReplyHandle, message: { msgType: string; content: string }, config: ChannelConfig, io: AdapterIO): Promise<Attempt> {
  const token = await tenantToken(config, io);
  const answer = await postJson(
    io.fetch,
    `${io.apiBase}/open-apis/im/v1/messages?receive_id_type=chat_id`,
    { receive_id: to.chatId, msg_type: message.msgType, content: message.content, uuid: idempotencyKey(to, message.content) },
    { authorization: `Bearer ${token}` },
  );
  const code = codeOf(answer);
  if (code === 0 && answer.status < 300) {
    const data = answer.body?.data;
    const id = typeof data === "object" && data !== null ? (data as Record<string, unknown>).message_id : undefined;
    return { done: true, ids: typeof id === "string" ? [id] : [] };
  }
  if (code !== undefined && expiredTokenCodes.has(code)) return { done: false, expiredToken: true };
  const retryAfter = retryAfterMs(answer.headers.get("x-ogw-ratelimit-reset"));
  if (answer.status === 429 || (code !== undefined && rateLimitCodes.has(code))) {
    throw new ChannelError(`Feishu im/v1/messages: rate limited (${messageOf(answer)})`, {
      retryable: true,
      platformCode: code ?? 429,
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    });
  }
  const transient = transientFailure(answer, "Feishu im/v1/messages");
  if (transient) throw transient;
  throw new ChannelError(`Feishu im/v1/messages: ${messageOf(answer)}`, {
    retryable: code !== undefined && transientCodes.has(code),
    ...(code === undefined ? { platformCode: answer.status } : { platformCode: code }),
  });
}

/**
 * Sends a text message to the chat. When Feishu says the token expired, the cached token is
 * dropped and the send is tried once more with a fresh one.
 */
export function sendFeishuText(to: ReplyHandle, text: string, config: ChannelConfig, io: AdapterIO): Promise<{ ids: string[] }> {
  // The uuid covers the JSON content, which for text is as unique as the text itself.
  return sendFeishuMessage(to, { msgType: "text", content: JSON.stringify({ text }) }, config, io);
}

async function sendFeishuMessage(
  to: ReplyHandle,
  message: { msgType: string; content: string },
  config: ChannelConfig,
  io: AdapterIO,
): Promise<{ ids: string[] }> {
  if (typeof to.chatId !== "string" || !to.chatId) throw new ChannelError("Feishu reply handle has no chatId", { retryable: false });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const result = await postMessage(to, message, config, io);
    if (result.done) return { ids: result.ids };
    await io.tokens.invalidate(tokenKey(config));
  }
  throw new ChannelError("Feishu im/v1/messages: access token refused twice", { retryable: true, platformCode: 99991663 });
}

/** Checks the App ID and App Secret by fetching a tenant_access_token. */
export async function probeFeishu(config: ChannelConfig, io: AdapterIO): Promise<void> {
  await issueTenantToken(config, io);
}

/** A Feishu refusal of a media call (JSON `{code, msg}`); expired tokens and busy codes retry. */
async function mediaRefusal(response: Response, what: string): Promise<ChannelError> {
  const answer = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  const code = typeof answer?.code === "number" ? answer.code : undefined;
  const message = typeof answer?.msg === "string" ? answer.msg : `HTTP ${response.status}`;
  const retryable =
    response.status >= 500 ||
    response.status === 429 ||
    (code !== undefined && (expiredTokenCodes.has(code) || rateLimitCodes.has(code) || transientCodes.has(code)));
  return new ChannelError(`${what}: ${message}`, { retryable, platformCode: code ?? response.status });
}

/**
 * Downloads an image or file of a message the bot received
 * (`GET im/v1/messages/{message_id}/resources/{key}?type=image|file`); a key that is not in
 * the message is Feishu's 234003 "File not in msg".
 */
export async function fetchFeishuMedia(attachment: InboundAttachment, message: InboundMessage, config: ChannelConfig, io: AdapterIO): Promise<FetchedMedia> {
  const messageId = message.reply.messageId;
  if (typeof messageId !== "string" || !messageId) throw new ChannelError("Feishu media: the message has no message_id", { retryable: false });
  const what = "Feishu im/v1/messages resources";
  const type = attachment.kind === "image" ? "image" : "file";
  const url = `${io.apiBase}/open-apis/im/v1/messages/${encodeURIComponent(messageId)}/resources/${encodeURIComponent(attachment.ref)}?type=${type}`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const token = await tenantToken(config, io);
    const response = await callPlatform(io.fetch, url, { method: "GET", headers: { authorization: `Bearer ${token}` } }, what);
    const mime = mediaType(response);
    if (response.ok && mime !== "application/json") {
      const bytes = await readMediaBody(response, what);
      const name = attachment.name ?? dispositionName(response);
      return { bytes, ...(mime ? { mime } : {}), ...(name ? { name } : {}) };
    }
    const refusal = await mediaRefusal(response, what);
    if (refusal.platformCode && expiredTokenCodes.has(Number(refusal.platformCode)) && attempt === 0) {
      await io.tokens.invalidate(tokenKey(config));
      continue;
    }
    throw refusal;
  }
  throw new ChannelError(`${what}: access token refused twice`, { retryable: true, platformCode: 99991663 });
}

/** Uploads the image (`POST im/v1/images`, image_type message) and sends it as an `image` message. */
export async function sendFeishuImage(to: ReplyHandle, image: OutboundImage, config: ChannelConfig, io: AdapterIO): Promise<{ ids: string[] }> {
  if (typeof to.chatId !== "string" || !to.chatId) throw new ChannelError("Feishu reply handle has no chatId", { retryable: false });
  const what = "Feishu im/v1/images";
  let imageKey: string | undefined;
  for (let attempt = 0; attempt < 2 && !imageKey; attempt += 1) {
    const form = new FormData();
    form.set("image_type", "message");
    form.set("image", imageBlob(image), image.name);
    const token = await tenantToken(config, io);
    const response = await callPlatform(
      io.fetch,
      `${io.apiBase}/open-apis/im/v1/images`,
      { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form },
      what,
    );
    const answer = response.ok
      ? ((await response
          .clone()
          .json()
          .catch(() => undefined)) as Record<string, unknown> | undefined)
      : undefined;
    const data = answer?.data as Record<string, unknown> | undefined;
    if (answer?.code === 0 && typeof data?.image_key === "string") {
      imageKey = data.image_key;
      break;
    }
    const refusal = await mediaRefusal(response, what);
    if (refusal.platformCode && expiredTokenCodes.has(Number(refusal.platformCode)) && attempt === 0) {
      await io.tokens.invalidate(tokenKey(config));
      continue;
    }
    throw refusal;
  }
  if (!imageKey) throw new ChannelError(`${what}: access token refused twice`, { retryable: true, platformCode: 99991663 });
  return sendFeishuMessage(to, { msgType: "image", content: JSON.stringify({ image_key: imageKey }) }, config, io);
}
