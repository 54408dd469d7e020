import { createHash } from "node:crypto";
import { ChannelError, type AdapterIO, type ChannelConfig, type FetchedMedia, type InboundAttachment, type IssuedToken, type ReplyHandle } from "../../types";
import { callPlatform } from "../global-shared/http";
import { downloadFailure, mediaType, readMediaBody } from "../global-shared/media";
import { postJson, transientFailure, type PlatformAnswer } from "../workplace-shared/http";

/** A session webhook this close to its expiry is no longer tried. */
const SESSION_MARGIN_MS = 5000;
/** Session webhook `errcode`s saying the session is gone (expired or unknown). */
const sessionGoneCodes = new Set([300001]);
/** Session webhook `errcode`s for sending too fast. */
const webhookRateLimitCodes = new Set([130101, 410100]);

/** The key under which an app's token is cached. */
function tokenKey(config: ChannelConfig): string {
  return `dingtalk:${config.appKey ?? ""}`;
}

function robotCode(config: ChannelConfig): string {
  return config.robotCode || config.appKey || "";
}

/** DingTalk shows a markdown message's title in notifications: the first line, without markup. */
export function markdownTitle(markdown: string): string {
  const line = markdown.split("\n").find((candidate) => candidate.trim()) ?? "";
  const plain = line
    .replace(/^[#>*\-\s]+/, "")
    .replace(/[*_`~]/g, "")
    .trim();
  return [...plain].slice(0, 30).join("") || "…";
}

/** A session webhook we may post to: DingTalk's own host over HTTPS, or the configured API base. */
function usableWebhook(url: unknown, io: AdapterIO): string | undefined {
  if (typeof url !== "string") return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.origin === new URL(io.apiBase).origin) return url;
    if (parsed.protocol === "https:" && (parsed.hostname === "dingtalk.com" || parsed.hostname.endsWith(".dingtalk.com"))) return url;
  } catch {
    return undefined;
  }
  return undefined;
}

function goneKey(webhook: string): string {
  return `dingtalk:session-gone:${createHash("sha256").update(webhook).digest("hex")}`;
}

/** Posts to the session webhook; false when DingTalk says the session is gone. */
async function sendBySession(webhook: string, text: string, expiresAt: number, io: AdapterIO): Promise<boolean> {
  const answer = await postJson(io.fetch, webhook, { msgtype: "markdown", markdown: { title: markdownTitle(text), text } });
  const transient = transientFailure(answer, "DingTalk session webhook");
  if (transient) throw transient;
  const code = typeof answer.body?.errcode === "number" ? answer.body.errcode : undefined;
  if (code === 0) return true;
  if (code !== undefined && sessionGoneCodes.has(code)) {
    const ttl = Math.max(1, Math.ceil((expiresAt - io.now()) / 1000));
    await io.kv.set(goneKey(webhook), "1", ttl);
    return false;
  }
  const message = typeof answer.body?.errmsg === "string" ? answer.body.errmsg : `HTTP ${answer.status}`;
  throw new ChannelError(`DingTalk session webhook: ${message}`, {
    retryable: code !== undefined && webhookRateLimitCodes.has(code),
    platformCode: code ?? answer.status,
  });
}

/** Fetches an app access token (`/v1.0/oauth2/accessToken`). */
async function issueAccessToken(config: ChannelConfig, io: AdapterIO): Promise<IssuedToken> {
  const answer = await postJson(io.fetch, `${io.apiBase}/v1.0/oauth2/accessToken`, { appKey: config.appKey, appSecret: config.appSecret });
  const token = answer.body?.accessToken;
  if (answer.status < 300 && typeof token === "string" && token) {
    const expireIn = Number(answer.body?.expireIn);
    return { token, expiresInSeconds: Number.isFinite(expireIn) && expireIn > 0 ? expireIn : 7200 };
  }
  const failure = openApiFailure(answer, "DingTalk accessToken");
  throw failure;
}

/** The error for a failed OpenAPI answer: throttling and server errors retry, the rest do not. */
function openApiFailure(answer: PlatformAnswer, what: string): ChannelError {
  const code = typeof answer.body?.code === "string" ? answer.body.code : undefined;
  const message = typeof answer.body?.message === "string" ? answer.body.message : `HTTP ${answer.status}`;
  if (code && /throttl|qpslimit|flowcontrol/i.test(code)) {
    return new ChannelError(`${what}: rate limited (${code})`, { retryable: true, platformCode: code });
  }
  const transient = transientFailure(answer, what);
  if (transient) return transient;
  return new ChannelError(`${what}: ${message}`, { retryable: false, platformCode: code ?? answer.status });
}

function isExpiredToken(answer: PlatformAnswer): boolean {
  return answer.status === 401 || answer.body?.code === "InvalidAuthentication";
}

/** One OpenAPI send with the cached token; undefined when the token was refused. */
async function sendByOpenApiOnce(to: ReplyHandle, text: string, config: ChannelConfig, io: AdapterIO): Promise<{ ids: string[] } | undefined> {
  const token = await io.tokens.get(tokenKey(config), () => issueAccessToken(config, io));
  const message = { robotCode: robotCode(config), msgKey: "sampleMarkdown", msgParam: JSON.stringify({ title: markdownTitle(text), text }) };
  const isGroup = to.conversationType === "2";
  if (!isGroup && typeof to.senderStaffId !== "string") {
    throw new ChannelError("DingTalk: the session webhook expired and the person has no staff id to message directly", { retryable: false });
  }
  const [path, body] = isGroup
    ? ["/v1.0/robot/groupMessages/send", { ...message, openConversationId: to.conversationId }]
    : ["/v1.0/robot/oToMessages/batchSend", { ...message, userIds: [to.senderStaffId] }];
  const answer = await postJson(io.fetch, `${io.apiBase}${path}`, body, { "x-acs-dingtalk-access-token": token });
  if (isExpiredToken(answer)) return undefined;
  if (answer.status >= 300 || !answer.body) throw openApiFailure(answer, `DingTalk ${path}`);
  const flowControlled = answer.body.flowControlledStaffIdList;
  if (Array.isArray(flowControlled) && flowControlled.length > 0) {
    throw new ChannelError(`DingTalk ${path}: the person is flow-controlled`, { retryable: true, platformCode: "flowControlled" });
  }
  const invalid = answer.body.invalidStaffIdList;
  if (Array.isArray(invalid) && invalid.length > 0) {
    throw new ChannelError(`DingTalk ${path}: invalid staff id`, { retryable: false, platformCode: "invalidStaffId" });
  }
  return { ids: typeof answer.body.processQueryKey === "string" ? [answer.body.processQueryKey] : [] };
}

/** Sends through the robot OpenAPI, renewing the access token once if DingTalk refuses it. */
async function sendByOpenApi(to: ReplyHandle, text: string, config: ChannelConfig, io: AdapterIO): Promise<{ ids: string[] }> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const sent = await sendByOpenApiOnce(to, text, config, io);
    if (sent) return sent;
    await io.tokens.invalidate(tokenKey(config));
  }
  throw new ChannelError("DingTalk: access token refused twice", { retryable: true, platformCode: "InvalidAuthentication" });
}

/**
 * Answers as markdown: through the conversation's session webhook while it lives (no token), else
 * (or once DingTalk says the session is gone) through the robot OpenAPI, to the group or the person.
 */
export async function sendDingtalkMarkdown(to: ReplyHandle, text: string, config: ChannelConfig, io: AdapterIO): Promise<{ ids: string[] }> {
  if (typeof to.conversationId !== "string" || !to.conversationId) {
    throw new ChannelError("DingTalk reply handle has no conversationId", { retryable: false });
  }
  const webhook = usableWebhook(to.sessionWebhook, io);
  const expiresAt = Number(to.sessionWebhookExpiredTime);
  if (webhook && expiresAt - SESSION_MARGIN_MS > io.now() && !(await io.kv.get(goneKey(webhook)))) {
    if (await sendBySession(webhook, text, expiresAt, io)) return { ids: [] };
  }
  return sendByOpenApi(to, text, config, io);
}

/** Checks the app key and secret by fetching an access token. */
export async function probeDingtalk(config: ChannelConfig, io: AdapterIO): Promise<void> {
  await issueAccessToken(config, io);
}

/**
 * Downloads a picture or file the robot received: `POST /v1.0/robot/messageFiles/download` with
 * its downloadCode answers a short-lived `downloadUrl` (signed, fetched without the token).
 */
export async function downloadDingtalkFile(attachment: InboundAttachment, config: ChannelConfig, io: AdapterIO): Promise<FetchedMedia> {
  const what = "DingTalk messageFiles/download";
  let downloadUrl: string | undefined;
  for (let attempt = 0; attempt < 2 && !downloadUrl; attempt += 1) {
    const token = await io.tokens.get(tokenKey(config), () => issueAccessToken(config, io));
    const answer = await postJson(
      io.fetch,
      `${io.apiBase}/v1.0/robot/messageFiles/download`,
      { downloadCode: attachment.ref, robotCode: robotCode(config) },
      { "x-acs-dingtalk-access-token": token },
    );
    if (isExpiredToken(answer)) {
      await io.tokens.invalidate(tokenKey(config));
      continue;
    }
    if (answer.status >= 300 || typeof answer.body?.downloadUrl !== "string") throw openApiFailure(answer, what);
    downloadUrl = answer.body.downloadUrl;
  }
  if (!downloadUrl) throw new ChannelError(`${what}: access token refused twice`, { retryable: true, platformCode: "InvalidAuthentication" });
  const response = await callPlatform(io.fetch, downloadUrl, { method: "GET" }, what);
  if (!response.ok) throw downloadFailure(response, what);
  const bytes = await readMediaBody(response, what);
  const mime = mediaType(response);
  return { bytes, ...(mime && mime !== "application/octet-stream" ? { mime } : {}), ...(attachment.name ? { name: attachment.name } : {}) };
}
