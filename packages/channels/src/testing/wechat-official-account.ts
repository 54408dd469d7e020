import { randomBytes } from "node:crypto";
import { callbackSignature, encryptMessage } from "../adapters/wechat-shared/crypto";
import { buildXml } from "../adapters/wechat-shared/xml";
import { fakeId, json, serveFetch, type FakeDelivery, type FakeSentMessage, type PlatformFake } from "./fake";
import { OfficialAccountUserDesk } from "./official-account-users";
import {
  FailureQueue,
  failureAnswer,
  invalidCredential,
  jsonBody,
  nonceNow,
  randomEncodingAesKey,
  record,
  timestampNow,
  TokenDesk,
  WechatMediaDesk,
} from "./wechat-shared";

/** Options of the Official Account fake. */
export interface OfficialAccountFakeOptions {
  /** The account's message encryption mode (safe unless given). */
  mode?: "plaintext" | "compatible" | "safe";
}

/** A template message the fake received on `/cgi-bin/message/template/send`. */
export interface FakeTemplateMessage {
  touser: string;
  templateId: string;
  url: string;
  data: Record<string, { value?: unknown }>;
  /** The request carried a valid access token. */
  authorized: boolean;
  at: number;
}

/** The Official Account fake: a {@link PlatformFake} that also takes template messages. */
export interface OfficialAccountFake extends PlatformFake {
  /** The one template the account has added (what an operator enters as `noticeTemplateId`). */
  noticeTemplateId: string;
  /** Template messages received, accepted or not. */
  readonly templateMessages: FakeTemplateMessage[];
  /** Followers (everyone who wrote to the account follows it) and user tags. */
  readonly users: OfficialAccountUserDesk;
}

const replyWindowMs = 48 * 3600 * 1000;
const replyQuota = 5;

/**
 * A local WeChat Official Account platform: signs (and in compatible/safe mode encrypts) message
 * pushes like WeChat, and serves `/cgi-bin/token` and `/cgi-bin/message/custom/send` with the
 * customer-service window (45015 outside 48 h of the person's last message, 45047 past 5 replies),
 * and `/cgi-bin/message/template/send` for followers (anyone who wrote to the account) with the
 * account's one template, and user tags and followers ({@link OfficialAccountUserDesk}).
 */
export async function startOfficialAccountFake(options: OfficialAccountFakeOptions = {}): Promise<OfficialAccountFake> {
  const mode = options.mode ?? "safe";
  const config = {
    appId: `wx${randomBytes(8).toString("hex")}`,
    appSecret: randomBytes(16).toString("hex"),
    token: `tok${randomBytes(8).toString("hex")}`,
    encodingAesKey: randomEncodingAesKey(),
    mode,
  };
  const account = "gh_0fa7e51dbe3c";
  const tokens = new TokenDesk();
  const users = new OfficialAccountUserDesk(tokens);
  const media = new WechatMediaDesk(tokens);
  const failures = new FailureQueue();
  const sent: FakeSentMessage[] = [];
  const templateMessages: FakeTemplateMessage[] = [];
  const noticeTemplateId = `tpl${randomBytes(12).toString("base64url")}`;
  /** Per openid: when the person last wrote and how many replies went out since. */
  const windows = new Map<string, { since: number; replies: number }>();

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/cgi-bin/token") {
      if (url.searchParams.get("grant_type") !== "client_credential") return json({ errcode: 40002, errmsg: "invalid grant_type" });
      if (url.searchParams.get("appid") !== config.appId) return json({ errcode: 40013, errmsg: "invalid appid" });
      if (url.searchParams.get("secret") !== config.appSecret) return json({ errcode: 40125, errmsg: "invalid appsecret" });
      return json(tokens.issue());
    }
    const userAnswer = (await users.handle(request, url)) ?? (await media.handle(request, url));
    if (userAnswer) return userAnswer;
    if (request.method === "POST" && url.pathname === "/cgi-bin/message/custom/send") {
      const failure = failures.take();
      if (failure) return failureAnswer(failure, tokens, { errcode: 40003, errmsg: "invalid openid" });
      const body = await jsonBody(request);
      const touser = typeof body?.touser === "string" ? body.touser : "";
      const text = body?.text as { content?: unknown } | undefined;
      const content = typeof text?.content === "string" ? text.content : "";
      if (!tokens.valid(url.searchParams.get("access_token"))) {
        record(sent, touser, content, false);
        return json(invalidCredential);
      }
      if (!body) return json({ errcode: 47001, errmsg: "data format error" });
      const image = body.msgtype === "image" ? media.get((body.image as { media_id?: unknown } | undefined)?.media_id) : undefined;
      if (body.msgtype === "image" && !image) return json({ errcode: 40007, errmsg: "invalid media_id" });
      if (body.msgtype !== "text" && !image) return json({ errcode: 40008, errmsg: "invalid message type" });
      if (!content && !image) return json({ errcode: 44003, errmsg: "empty news data" });
      const window = windows.get(touser);
      if (!window || Date.now() - window.since > replyWindowMs)
        return json({ errcode: 45015, errmsg: "response out of time limit or subscription is canceled" });
      if (window.replies >= replyQuota) return json({ errcode: 45047, errmsg: "out of response count limit" });
      window.replies += 1;
      if (image)
        sent.push({ to: touser, text: "", authorized: true, at: Date.now(), image: { bytes: image.bytes, mime: image.mime ?? "", name: image.name ?? "" } });
      else record(sent, touser, content, true);
      return json({ errcode: 0, errmsg: "ok" });
    }
    if (request.method === "POST" && url.pathname === "/cgi-bin/message/template/send") {
      const failure = failures.take();
      if (failure) return failureAnswer(failure, tokens, { errcode: 40003, errmsg: "invalid openid" });
      const body = await jsonBody(request);
      const authorized = tokens.valid(url.searchParams.get("access_token"));
      const data = body?.data && typeof body.data === "object" && !Array.isArray(body.data) ? (body.data as Record<string, { value?: unknown }>) : {};
      const touser = typeof body?.touser === "string" ? body.touser : "";
      templateMessages.push({
        touser,
        templateId: typeof body?.template_id === "string" ? body.template_id : "",
        url: typeof body?.url === "string" ? body.url : "",
        data,
        authorized,
        at: Date.now(),
      });
      if (!authorized) return json(invalidCredential);
      if (!body) return json({ errcode: 47001, errmsg: "data format error" });
      if (body.template_id !== noticeTemplateId) return json({ errcode: 40037, errmsg: "invalid template_id" });
      if (!windows.has(touser)) return json({ errcode: 43004, errmsg: "require subscribe" });
      if (Object.values(data).some((field) => typeof field?.value !== "string"))
        return json({ errcode: 47003, errmsg: "argument invalid! data.value invalid" });
      return json({ errcode: 0, errmsg: "ok", msgid: Number(`2000${templateMessages.length}`) });
    }
    return json({ errcode: 404, errmsg: "not found" }, 404);
  }

  const server = await serveFetch(handle);

  function push(webhookUrl: string, message: FakeDelivery, signWith: string, timestamp: string): Request {
    const openid = message.senderId ?? "oPerson4fK2Qm7Yd0ZxLq1Wn9Abc";
    windows.set(openid, { since: Date.now(), replies: 0 });
    users.follow({ openid });
    // A person sends a picture alone (an account cannot receive other files).
    const picture = message.media?.find((item) => item.kind === "image");
    const mediaId = picture ? media.keep(picture) : undefined;
    const plain = {
      ToUserName: account,
      FromUserName: openid,
      CreateTime: Number(timestamp),
      ...(mediaId
        ? { MsgType: "image", PicUrl: `http://mmbiz.qpic.cn/mmbiz_jpg/${mediaId.slice(0, 12)}/0`, MediaId: mediaId }
        : { MsgType: "text", Content: message.text }),
      MsgId: message.id ?? fakeId("6054"),
    };
    const nonce = nonceNow();
    const query = new URLSearchParams({ signature: callbackSignature(signWith, timestamp, nonce), timestamp, nonce, openid });
    let body: string;
    if (mode === "plaintext") {
      body = buildXml(plain);
    } else {
      const encrypted = encryptMessage(buildXml(plain), config.encodingAesKey, config.appId);
      query.set("encrypt_type", "aes");
      query.set("msg_signature", callbackSignature(signWith, timestamp, nonce, encrypted));
      body = mode === "compatible" ? buildXml({ ...plain, Encrypt: encrypted }) : buildXml({ ToUserName: account, Encrypt: encrypted });
    }
    return new Request(`${webhookUrl}?${query}`, { method: "POST", headers: { "content-type": "text/xml" }, body });
  }

  return {
    kind: "wechat-official-account",
    apiBase: server.url,
    config,
    delivery: async (webhookUrl, message) => push(webhookUrl, message, config.token, timestampNow()),
    forged: async (webhookUrl, message) => push(webhookUrl, message, `${config.token}x`, timestampNow()),
    stale: async (webhookUrl, message) => push(webhookUrl, message, config.token, timestampNow(-3600)),
    async handshake(webhookUrl) {
      const timestamp = timestampNow();
      const nonce = nonceNow();
      const echostr = String(randomBytes(8).readBigUInt64BE(0));
      const query = new URLSearchParams({ signature: callbackSignature(config.token, timestamp, nonce), echostr, timestamp, nonce });
      return { request: new Request(`${webhookUrl}?${query}`, { method: "GET" }), expectedBody: echostr };
    },
    sent,
    noticeTemplateId,
    templateMessages,
    users,
    get tokensIssued() {
      return tokens.issued;
    },
    failNext: (failure, count) => failures.add(failure, count),
    close: () => server.close(),
  };
}

/** The Official Account fake in safe mode (what the contract suite runs against). */
export const startFake: () => Promise<PlatformFake> = () => startOfficialAccountFake();
