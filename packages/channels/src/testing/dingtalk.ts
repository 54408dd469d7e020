import { randomBytes } from "node:crypto";
import { dingtalkSign } from "../adapters/dingtalk/sign";
import { fakeId, json, mediaResponse, serveFetch, type FakeDelivery, type FakeFailure, type FakeMedia, type FakeSentMessage, type PlatformFake } from "./fake";

/** What the DingTalk fake received, and by which route. */
export interface DingtalkSentMessage extends FakeSentMessage {
  via: "session-webhook" | "group-send" | "direct-send";
  title: string;
}

/** The DingTalk fake, with control over the session webhooks it issued. */
export interface DingtalkFake extends PlatformFake {
  readonly sent: DingtalkSentMessage[];
  /** Ends every session: their webhooks then answer `300001 session 不存在`. */
  expireSessions(): void;
  /** A callback for an arbitrary body, signed with `timestamp` (milliseconds) as DingTalk would. */
  deliverRaw(webhookUrl: string, body: unknown, options?: { timestamp?: number }): Request;
}

interface Session {
  conversationId: string;
  expiresAt: number;
}

/**
 * A local DingTalk: signs HTTP-mode robot callbacks, serves the session webhooks it hands out
 * (valid 90 minutes), `/v1.0/oauth2/accessToken`, and the robot OpenAPI (`groupMessages/send`,
 * `oToMessages/batchSend`) under `x-acs-dingtalk-access-token`.
 */
export async function startDingtalkFake(): Promise<DingtalkFake> {
  const appKey = `ding${randomBytes(8).toString("hex")}`;
  const appSecret = randomBytes(24).toString("base64url");
  const robotCode = `dingrobot${randomBytes(6).toString("hex")}`;
  const chatbotUserId = `$:LWCP_v1:$${randomBytes(12).toString("base64")}`;
  const sent: DingtalkSentMessage[] = [];
  const failures: FakeFailure[] = [];
  const sessions = new Map<string, Session>();
  const liveTokens = new Set<string>();
  const conversations = new Set<string>();
  const staff = new Set<string>();
  let tokensIssued = 0;
  /** Pictures and files people sent, by downloadCode. */
  const files = new Map<string, FakeMedia>();
  let origin = "";

  // The session webhook speaks the old robot API (errcode/errmsg); the OpenAPI answers HTTP status + {code, message}.
  const webhookFailure = (failure: FakeFailure | undefined): Response | undefined => {
    if (failure === "rate-limited") return json({ errcode: 130101, errmsg: "send too fast, exceed 20 times per minute" });
    if (failure === "server-error") return json({ errcode: -1, errmsg: "系统繁忙" }, 502);
    if (failure === "rejected") return json({ errcode: 400102, errmsg: "机器人已停用" });
    return undefined;
  };
  const openApiFailure = (failure: FakeFailure | undefined): Response | undefined => {
    if (failure === "rate-limited") return json({ code: "Forbidden.AccessDenied.QpsLimitForApi", message: "当前接口QPS超过限制" }, 403);
    if (failure === "server-error") return json({ code: "ServiceUnavailable", message: "服务暂不可用" }, 503);
    if (failure === "rejected") return json({ code: "resource.not.found", message: "robot 不存在" }, 400);
    if (failure === "token-expired") {
      liveTokens.clear();
      return json({ code: "InvalidAuthentication", message: "不合法的access_token" }, 401);
    }
    return undefined;
  };

  const record = (to: string, text: string, title: string, via: DingtalkSentMessage["via"], authorized: boolean) =>
    sent.push({ to, text, title, via, authorized, at: Date.now() });

  const readMessage = (body: Record<string, unknown>) => {
    const param = typeof body.msgParam === "string" ? (JSON.parse(body.msgParam) as Record<string, unknown>) : {};
    const text = typeof param.text === "string" ? param.text : typeof param.content === "string" ? param.content : "";
    return { text, title: typeof param.title === "string" ? param.title : "" };
  };

  const server = await serveFetch(async (request) => {
    const url = new URL(request.url);
    const stored = /^\/oss\/([^/]+)$/.exec(url.pathname);
    if (request.method === "GET" && stored) {
      // The signed storage address needs no token.
      const media = url.searchParams.get("Signature") === "fake" ? files.get(decodeURIComponent(stored[1]!)) : undefined;
      return media
        ? mediaResponse(media)
        : new Response("<Error><Code>AccessDenied</Code></Error>", { status: 403, headers: { "content-type": "application/xml" } });
    }
    if (request.method !== "POST") return json({ code: "MethodNotAllowed", message: "method not allowed" }, 405);
    const body = ((await request.json().catch(() => undefined)) ?? {}) as Record<string, unknown>;
    if (url.pathname === "/v1.0/robot/messageFiles/download") {
      if (!liveTokens.has(request.headers.get("x-acs-dingtalk-access-token") ?? ""))
        return json({ code: "InvalidAuthentication", message: "不合法的access_token" }, 401);
      if (body.robotCode !== robotCode) return json({ code: "resource.not.found", message: "robot 不存在" }, 400);
      const code = typeof body.downloadCode === "string" ? body.downloadCode : "";
      if (!files.has(code)) return json({ code: "invalidParameter.downloadCode.invalid", message: "downloadCode 不合法" }, 400);
      return json({ downloadUrl: `${origin}/oss/${encodeURIComponent(code)}?Expires=${Math.floor(Date.now() / 1000) + 3600}&Signature=fake` });
    }

    if (url.pathname === "/robot/sendBySession") {
      const failure = failures.shift();
      if (failure === "token-expired") {
        // A session webhook has no token: what expires is the session itself.
        sessions.clear();
        return json({ errcode: 300001, errmsg: "session 不存在" });
      }
      const failed = webhookFailure(failure);
      if (failed) return failed;
      const session = sessions.get(url.searchParams.get("session") ?? "");
      if (!session || session.expiresAt <= Date.now()) return json({ errcode: 300001, errmsg: "session 不存在" });
      const markdown =
        body.msgtype === "markdown" && typeof body.markdown === "object" && body.markdown ? (body.markdown as Record<string, unknown>) : undefined;
      const textBody = body.msgtype === "text" && typeof body.text === "object" && body.text ? (body.text as Record<string, unknown>) : undefined;
      const text = typeof markdown?.text === "string" ? markdown.text : typeof textBody?.content === "string" ? textBody.content : "";
      if (!text) return json({ errcode: 40035, errmsg: "缺少参数 text" });
      record(session.conversationId, text, typeof markdown?.title === "string" ? markdown.title : "", "session-webhook", true);
      return json({ errcode: 0, errmsg: "ok" });
    }

    if (url.pathname === "/v1.0/oauth2/accessToken") {
      if (body.appKey !== appKey || body.appSecret !== appSecret)
        return json({ code: "invalidClientIdOrSecret", message: "无效的clientId或者clientSecret" }, 400);
      const token = randomBytes(16).toString("hex");
      liveTokens.add(token);
      tokensIssued += 1;
      return json({ accessToken: token, expireIn: 7200 });
    }

    const isGroup = url.pathname === "/v1.0/robot/groupMessages/send";
    if (!isGroup && url.pathname !== "/v1.0/robot/oToMessages/batchSend") return json({ code: "InvalidAction.NotFound", message: "not found" }, 404);
    const failed = openApiFailure(failures.shift());
    if (failed) return failed;
    const { text, title } = readMessage(body);
    const to = isGroup ? String(body.openConversationId ?? "") : Array.isArray(body.userIds) ? body.userIds.join(",") : "";
    if (!liveTokens.has(request.headers.get("x-acs-dingtalk-access-token") ?? "")) {
      record(to, text, title, isGroup ? "group-send" : "direct-send", false);
      return json({ code: "InvalidAuthentication", message: "不合法的access_token" }, 401);
    }
    if (body.robotCode !== robotCode) return json({ code: "resource.not.found", message: "robot 不存在" }, 400);
    if (body.msgKey !== "sampleMarkdown" && body.msgKey !== "sampleText") return json({ code: "invalidParameter.msgKey", message: "msgKey 不合法" }, 400);
    if (isGroup) {
      if (!conversations.has(to)) return json({ code: "invalidParameter.openConversationId", message: "openConversationId 不合法" }, 400);
    } else {
      const invalid = (body.userIds as unknown[] | undefined)?.filter((id) => !staff.has(String(id))) ?? [];
      if (invalid.length > 0) return json({ processQueryKey: randomBytes(8).toString("hex"), invalidStaffIdList: invalid, flowControlledStaffIdList: [] });
    }
    record(to, text, title, isGroup ? "group-send" : "direct-send", true);
    return json({ processQueryKey: randomBytes(8).toString("hex"), ...(isGroup ? {} : { invalidStaffIdList: [], flowControlledStaffIdList: [] }) });
  });

  const callback = (message: FakeDelivery) => {
    const isGroup = message.isGroup ?? false;
    const staffId = message.senderId ?? "manager4231";
    const conversationId = message.conversationId ?? `cid${isGroup ? "group" : "p2p"}${Buffer.from(staffId).toString("hex")}==`;
    const session = randomBytes(16).toString("hex");
    const expiresAt = Date.now() + 90 * 60 * 1000;
    sessions.set(session, { conversationId, expiresAt });
    conversations.add(conversationId);
    staff.add(staffId);
    return {
      conversationId,
      atUsers: isGroup ? [{ dingtalkId: chatbotUserId }] : [],
      chatbotCorpId: "dingcorp0001",
      chatbotUserId,
      msgId: message.id ?? fakeId("msg"),
      senderNick: message.senderName ?? "张三",
      isAdmin: false,
      senderStaffId: staffId,
      sessionWebhookExpiredTime: expiresAt,
      createAt: Date.now(),
      senderCorpId: "dingcorp0001",
      conversationType: isGroup ? "2" : "1",
      senderId: `$:LWCP_v1:$${Buffer.from(staffId).toString("base64")}`,
      ...(isGroup ? { conversationTitle: "客服群", isInAtList: true } : {}),
      sessionWebhook: `${server.url}/robot/sendBySession?session=${session}`,
      robotCode,
      ...mediaContent(message, isGroup),
    };
  };

  function mediaContent(message: FakeDelivery, isGroup: boolean) {
    const media = message.media?.[0];
    if (!media) return { msgtype: "text", text: { content: isGroup ? ` ${message.text}` : message.text } };
    const downloadCode = `mIofN681YE3f/${randomBytes(18).toString("base64url")}`;
    files.set(downloadCode, media);
    return media.kind === "image"
      ? { msgtype: "picture", content: { downloadCode, pictureDownloadCode: downloadCode } }
      : { msgtype: "file", content: { downloadCode, fileName: media.name ?? "file", spaceId: "2000001", fileId: "190000001" } };
  }
  origin = server.url;

  const deliverRaw = (webhookUrl: string, body: unknown, options: { timestamp?: number; secret?: string } = {}) => {
    const timestamp = String(options.timestamp ?? Date.now());
    return new Request(webhookUrl, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json; charset=utf-8", timestamp, sign: dingtalkSign(options.secret ?? appSecret, timestamp) },
    });
  };

  return {
    kind: "dingtalk",
    apiBase: server.url,
    config: { appKey, appSecret, robotCode },
    sent,
    get tokensIssued() {
      return tokensIssued;
    },
    expireSessions() {
      sessions.clear();
    },
    deliverRaw,
    async delivery(webhookUrl, message) {
      return deliverRaw(webhookUrl, callback(message));
    },
    async forged(webhookUrl, message) {
      return deliverRaw(webhookUrl, callback(message), { secret: randomBytes(24).toString("base64url") });
    },
    async stale(webhookUrl, message) {
      return deliverRaw(webhookUrl, callback(message), { timestamp: Date.now() - 2 * 3600 * 1000 });
    },
    failNext(failure, count = 1) {
      for (let index = 0; index < count; index += 1) failures.push(failure);
    },
    close: () => server.close(),
  };
}

/** Starts a local DingTalk (see {@link startDingtalkFake}). */
export const startFake: () => Promise<PlatformFake> = startDingtalkFake;
