import { randomBytes } from "node:crypto";
import { callbackSignature, encryptMessage } from "../adapters/wechat-shared/crypto";
import { buildXml } from "../adapters/wechat-shared/xml";
import { json, mediaResponse, type FakeFailure, type FakeMedia, type FakeSentMessage } from "./fake";

/**
 * Pieces the WeChat Official Account, WeCom and WeChat Customer Service fakes share: access tokens
 * as the platforms issue and revoke them, the platforms' error answers, and the failure queue.
 */

/** The `{errcode, errmsg}` a WeChat/WeCom API answers a refusal with (HTTP 200). */
export interface WechatError {
  errcode: number;
  errmsg: string;
}

/** Access tokens a fake has issued; `expireAll` makes every one of them stale, as a platform-side expiry does. */
export class TokenDesk {
  private readonly live = new Set<string>();
  issued = 0;

  /** A new token, as `{access_token, expires_in}`. */
  issue(): { access_token: string; expires_in: number } {
    this.issued += 1;
    const token = randomBytes(24).toString("base64url");
    this.live.add(token);
    return { access_token: token, expires_in: 7200 };
  }

  /** True when `token` was issued and has not expired. */
  valid(token: string | null): boolean {
    return token !== null && this.live.has(token);
  }

  expireAll(): void {
    this.live.clear();
  }
}

/** The failures queued by `failNext`, taken one per API call. */
export class FailureQueue {
  private readonly queue: FakeFailure[] = [];

  add(failure: FakeFailure, count = 1): void {
    for (let index = 0; index < count; index += 1) this.queue.push(failure);
  }

  take(): FakeFailure | undefined {
    return this.queue.shift();
  }
}

/** 40001, as both platforms answer a token they did not issue or that expired. */
export const invalidCredential: WechatError = { errcode: 40001, errmsg: "invalid credential, access_token is invalid or not latest" };

/**
 * The platform's answer to a queued failure: 45009 (API quota) for rate limits, -1 (system busy)
 * for server errors, 42001 (access_token expired, which also revokes every issued token) and
 * `rejected` (an invalid recipient) for refusals. All come with HTTP 200, as WeChat sends them.
 */
export function failureAnswer(failure: FakeFailure, tokens: TokenDesk, rejected: WechatError): Response {
  switch (failure) {
    case "rate-limited":
      return json({ errcode: 45009, errmsg: "reach max api daily quota limit" });
    case "server-error":
      return json({ errcode: -1, errmsg: "system error" });
    case "token-expired":
      tokens.expireAll();
      return json({ errcode: 42001, errmsg: "access_token expired" });
    case "rejected":
      return json(rejected);
  }
}

/** The JSON body of a request, or undefined when it is not a JSON object. */
export async function jsonBody(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await request.json();
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Records a send the fake received. */
export function record(sent: FakeSentMessage[], to: string, text: string, authorized: boolean): void {
  sent.push({ to, text, authorized, at: Date.now() });
}

/** A WeChat-style timestamp (seconds) for a delivery, `offsetSeconds` from now. */
export function timestampNow(offsetSeconds = 0): string {
  return String(Math.floor(Date.now() / 1000) + offsetSeconds);
}

/** A random WeChat-style nonce (digits). */
export function nonceNow(): string {
  return String(randomBytes(4).readUInt32BE(0));
}

/** What a WeCom-style fake signs and encrypts with. */
export interface WecomSecrets {
  corpId: string;
  token: string;
  encodingAesKey: string;
}

/**
 * A WeCom callback POST as the platform sends it: `inner` encrypted for the CorpID inside
 * `<xml><ToUserName/><Encrypt/>…</xml>`, `msg_signature` over token, timestamp, nonce and ciphertext.
 * `signingToken` differs from the configured token to forge one.
 */
export function wecomCallback(
  webhookUrl: string,
  inner: string,
  secrets: WecomSecrets,
  options: { signingToken?: string; timestamp?: string; outer?: Record<string, string | number> } = {},
): Request {
  const timestamp = options.timestamp ?? timestampNow();
  const nonce = nonceNow();
  const encrypted = encryptMessage(inner, secrets.encodingAesKey, secrets.corpId);
  const query = new URLSearchParams({ msg_signature: callbackSignature(options.signingToken ?? secrets.token, timestamp, nonce, encrypted), timestamp, nonce });
  const body = buildXml({ ToUserName: secrets.corpId, Encrypt: encrypted, ...options.outer });
  return new Request(`${webhookUrl}?${query}`, { method: "POST", headers: { "content-type": "text/xml" }, body });
}

/** WeCom's URL check: a GET whose `echostr` is encrypted; Parley must answer the plaintext. */
export function wecomHandshake(webhookUrl: string, secrets: WecomSecrets): { request: Request; expectedBody: string } {
  const timestamp = timestampNow();
  const nonce = nonceNow();
  const plaintext = String(randomBytes(8).readBigUInt64BE(0));
  const echostr = encryptMessage(plaintext, secrets.encodingAesKey, secrets.corpId);
  const query = new URLSearchParams({ msg_signature: callbackSignature(secrets.token, timestamp, nonce, echostr), timestamp, nonce, echostr });
  return { request: new Request(`${webhookUrl}?${query}`, { method: "GET" }), expectedBody: plaintext };
}

/** 43 random letters and digits, as the platforms generate an EncodingAESKey. */
export function randomEncodingAesKey(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return [...randomBytes(43)].map((byte) => alphabet[byte % alphabet.length]).join("");
}

/**
 * WeCom's `/cgi-bin/gettoken?corpid=…&corpsecret=…`: 40013 for an unknown corp, 40001 for a
 * wrong secret, otherwise `{errcode: 0, access_token, expires_in}`.
 */
export function wecomGettoken(url: URL, corpId: string, secret: string, tokens: TokenDesk): Response {
  if (url.searchParams.get("corpid") !== corpId) return json({ errcode: 40013, errmsg: "invalid corpid" });
  if (url.searchParams.get("corpsecret") !== secret) return json({ errcode: 40001, errmsg: "invalid credential" });
  return json({ errcode: 0, errmsg: "ok", ...tokens.issue() });
}

/**
 * Temporary media as WeChat and WeCom keep it: `GET /cgi-bin/media/get?media_id=…` serves the
 * bytes (with Content-disposition), `{errcode: 40007, errmsg: "invalid media_id"}` for an id it
 * does not hold; `POST /cgi-bin/media/upload?type=image` takes the multipart field `media`.
 */
export class WechatMediaDesk {
  private readonly media = new Map<string, FakeMedia>();

  constructor(private readonly tokens: TokenDesk) {}

  /** Keeps `media` as a person's upload; answers its media_id. */
  keep(media: FakeMedia): string {
    const mediaId = `${randomBytes(24).toString("base64url")}`;
    this.media.set(mediaId, media);
    return mediaId;
  }

  /** The media stored under `mediaId` (what an uploaded image became). */
  get(mediaId: unknown): FakeMedia | undefined {
    return typeof mediaId === "string" ? this.media.get(mediaId) : undefined;
  }

  /** Answers the media calls; undefined for any other request. */
  async handle(request: Request, url: URL): Promise<Response | undefined> {
    const isGet = request.method === "GET" && url.pathname === "/cgi-bin/media/get";
    const isUpload = request.method === "POST" && url.pathname === "/cgi-bin/media/upload";
    if (!isGet && !isUpload) return undefined;
    if (!this.tokens.valid(url.searchParams.get("access_token"))) return json(invalidCredential);
    if (isGet) {
      const media = this.get(url.searchParams.get("media_id"));
      if (!media) return json({ errcode: 40007, errmsg: "invalid media_id" });
      const name = media.name ?? (media.kind === "image" ? "image.jpg" : "file");
      return mediaResponse(media, { "content-disposition": `attachment; filename="${name}"` });
    }
    if (url.searchParams.get("type") !== "image") return json({ errcode: 40004, errmsg: "invalid media type" });
    const form = await request.formData().catch(() => undefined);
    const file = form?.get("media");
    if (!(file instanceof File) || file.size === 0) return json({ errcode: 41005, errmsg: "media data missing" });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const isImage = (bytes[0] === 0xff && bytes[1] === 0xd8) || (bytes[0] === 0x89 && bytes[1] === 0x50);
    if (!isImage) return json({ errcode: 40005, errmsg: "invalid file type" });
    if (bytes.byteLength > 10 * 1024 * 1024) return json({ errcode: 40009, errmsg: "invalid image size" });
    const mediaId = this.keep({ kind: "image", bytes, mime: file.type, name: file.name });
    return json({ type: "image", media_id: mediaId, created_at: Math.floor(Date.now() / 1000) });
  }
}
