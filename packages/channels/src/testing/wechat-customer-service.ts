import { randomBytes } from "node:crypto";
import { buildXml } from "../adapters/wechat-shared/xml";
import { fakeId, json, serveFetch, type FakeDelivery, type FakeSentMessage, type PlatformFake } from "./fake";
import {
  FailureQueue,
  failureAnswer,
  jsonBody,
  randomEncodingAesKey,
  record,
  timestampNow,
  TokenDesk,
  wecomCallback,
  wecomGettoken,
  wecomHandshake,
  WechatMediaDesk,
} from "./wechat-shared";

/** One `msg_list` entry as `kf/sync_msg` returns it. */
export type SyncItem = Record<string, unknown> & { msgid: string; origin: number; msgtype: string };

/** The Customer Service fake, with the queue behind `sync_msg` open to tests. */
export interface CustomerServiceFake extends PlatformFake {
  /** The customer-service account (open_kfid) the callbacks name. */
  openKfId: string;
  /** Appends entries to the queue `sync_msg` reads from (servicer messages, events, media…). */
  enqueue(...items: SyncItem[]): void;
  /** A signed `kf_msg_or_event` callback with a fresh sync Token, without queuing anything. */
  notify(webhookUrl: string): Request;
  /** Bodies of the `sync_msg` calls received. */
  readonly syncCalls: Record<string, unknown>[];
}

/** Options of the Customer Service fake. */
export interface CustomerServiceFakeOptions {
  /** Entries per `sync_msg` page at most (the platform's limit is the request's `limit`, ≤ 1000). */
  pageSize?: number;
}

const replyWindowMs = 48 * 3600 * 1000;
const replyQuota = 5;
const syncTokenLifetimeMs = 10 * 60 * 1000;
const defaultCustomer = "wmPerson7Hq2kZ0oXr5dLpN1aB3c";

/**
 * A local WeChat Customer Service platform: WeCom-encrypted `kf_msg_or_event` callbacks carrying a
 * Token and OpenKfId, `/cgi-bin/gettoken`, `/cgi-bin/kf/sync_msg` over a message queue with
 * cursors and `has_more` paging, and `/cgi-bin/kf/send_msg` limited to customers who wrote within
 * 48 h (5 replies). Error codes 95000/95007/95001/40096 are as recalled from WeCom's global code list.
 */
export async function startCustomerServiceFake(options: CustomerServiceFakeOptions = {}): Promise<CustomerServiceFake> {
  const pageSize = options.pageSize ?? 1000;
  const config = {
    corpId: `ww${randomBytes(8).toString("hex")}`,
    secret: randomBytes(32).toString("base64url").slice(0, 43),
    token: `tok${randomBytes(8).toString("hex")}`,
    encodingAesKey: randomEncodingAesKey(),
  };
  const openKfId = `wk${randomBytes(12).toString("base64url")}`;
  const tokens = new TokenDesk();
  const failures = new FailureQueue();
  const sent: FakeSentMessage[] = [];
  const queue: SyncItem[] = [];
  const syncTokens = new Map<string, number>();
  const syncCalls: Record<string, unknown>[] = [];
  const customers = new Map<string, { since: number; replies: number }>();
  const media = new WechatMediaDesk(tokens);

  function syncMsg(url: URL, body: Record<string, unknown> | undefined): Response {
    if (!tokens.valid(url.searchParams.get("access_token"))) return json({ errcode: 40014, errmsg: "invalid access_token" });
    if (!body) return json({ errcode: 47001, errmsg: "data format error" });
    syncCalls.push(body);
    if (body.token !== undefined) {
      const issuedAt = syncTokens.get(String(body.token));
      if (issuedAt === undefined || Date.now() - issuedAt > syncTokenLifetimeMs) return json({ errcode: 95007, errmsg: "invalid msg token" });
    }
    if (body.open_kfid !== undefined && body.open_kfid !== openKfId) return json({ errcode: 95000, errmsg: "invalid open_kfid" });
    const cursor = typeof body.cursor === "string" ? body.cursor : "";
    const start = cursor ? Number.parseInt(Buffer.from(cursor, "base64url").toString("utf8").replace(/^at:/, ""), 10) : 0;
    if (!Number.isInteger(start) || start < 0 || start > queue.length) return json({ errcode: 40113, errmsg: "invalid cursor" });
    const limit = Math.min(typeof body.limit === "number" && body.limit > 0 ? body.limit : 1000, 1000, pageSize);
    const page = queue.slice(start, start + limit);
    const next = start + page.length;
    return json({
      errcode: 0,
      errmsg: "ok",
      next_cursor: Buffer.from(`at:${next}`).toString("base64url"),
      has_more: next < queue.length ? 1 : 0,
      msg_list: page,
    });
  }

  function sendMsg(url: URL, body: Record<string, unknown> | undefined): Response {
    const failure = failures.take();
    if (failure) return failureAnswer(failure, tokens, { errcode: 40096, errmsg: "invalid external userid" });
    const touser = typeof body?.touser === "string" ? body.touser : "";
    const text = body?.text as { content?: unknown } | undefined;
    const content = typeof text?.content === "string" ? text.content : "";
    if (!tokens.valid(url.searchParams.get("access_token"))) {
      record(sent, touser, content, false);
      return json({ errcode: 40014, errmsg: "invalid access_token" });
    }
    if (!body) return json({ errcode: 47001, errmsg: "data format error" });
    if (body.open_kfid !== openKfId) return json({ errcode: 95000, errmsg: "invalid open_kfid" });
    const image = body.msgtype === "image" ? media.get((body.image as { media_id?: unknown } | undefined)?.media_id) : undefined;
    if (body.msgtype === "image" && !image) return json({ errcode: 40007, errmsg: "invalid media_id" });
    if (!image && (body.msgtype !== "text" || !content)) return json({ errcode: 40008, errmsg: "invalid message type" });
    const customer = customers.get(touser);
    if (!customer) return json({ errcode: 40096, errmsg: "invalid external userid" });
    if (Date.now() - customer.since > replyWindowMs || customer.replies >= replyQuota) return json({ errcode: 95001, errmsg: "send msg count limit" });
    customer.replies += 1;
    if (image)
      sent.push({ to: touser, text: "", authorized: true, at: Date.now(), image: { bytes: image.bytes, mime: image.mime ?? "", name: image.name ?? "" } });
    else record(sent, touser, content, true);
    return json({ errcode: 0, errmsg: "ok", msgid: randomBytes(12).toString("base64url") });
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/cgi-bin/gettoken") return wecomGettoken(url, config.corpId, config.secret, tokens);
    if (request.method === "POST" && url.pathname === "/cgi-bin/kf/sync_msg") return syncMsg(url, await jsonBody(request));
    if (request.method === "POST" && url.pathname === "/cgi-bin/kf/send_msg") return sendMsg(url, await jsonBody(request));
    const mediaAnswer = await media.handle(request, url);
    if (mediaAnswer) return mediaAnswer;
    return json({ errcode: 404, errmsg: "not found" }, 404);
  }

  const server = await serveFetch(handle);

  function notify(webhookUrl: string, options: { signingToken?: string; timestamp?: string } = {}): Request {
    const syncToken = `ENC${randomBytes(24).toString("base64url")}`;
    syncTokens.set(syncToken, Date.now());
    const timestamp = options.timestamp ?? timestampNow();
    const inner = buildXml({
      ToUserName: config.corpId,
      CreateTime: Number(timestamp),
      MsgType: "event",
      Event: "kf_msg_or_event",
      Token: syncToken,
      OpenKfId: openKfId,
    });
    return wecomCallback(webhookUrl, inner, config, { ...options, timestamp });
  }

  /** The typed part of a `msg_list` entry: a picture or file as its media_id, else the text. */
  function mediaItem(message: FakeDelivery) {
    const item = message.media?.[0];
    if (!item) return { msgtype: "text", text: { content: message.text } };
    const type = item.kind === "image" ? "image" : "file";
    return { msgtype: type, [type]: { media_id: media.keep(item) } };
  }

  function enqueueText(message: FakeDelivery): void {
    const externalUserId = message.senderId ?? defaultCustomer;
    customers.set(externalUserId, { since: Date.now(), replies: 0 });
    queue.push({
      msgid: message.id ?? fakeId("from_msgid_"),
      open_kfid: openKfId,
      external_userid: externalUserId,
      send_time: Math.floor(Date.now() / 1000),
      origin: 3,
      ...mediaItem(message),
    });
  }

  return {
    kind: "wechat-customer-service",
    apiBase: server.url,
    config,
    openKfId,
    async delivery(webhookUrl, message) {
      enqueueText(message);
      return notify(webhookUrl);
    },
    forged: async (webhookUrl) => notify(webhookUrl, { signingToken: `${config.token}x` }),
    stale: async (webhookUrl) => notify(webhookUrl, { timestamp: timestampNow(-3600) }),
    handshake: async (webhookUrl) => wecomHandshake(webhookUrl, config),
    enqueue(...items) {
      for (const item of items) {
        if (item.origin === 3 && typeof item.external_userid === "string") customers.set(item.external_userid, { since: Date.now(), replies: 0 });
        queue.push(item);
      }
    },
    notify: (webhookUrl) => notify(webhookUrl),
    syncCalls,
    sent,
    get tokensIssued() {
      return tokens.issued;
    },
    failNext: (failure, count) => failures.add(failure, count),
    close: () => server.close(),
  };
}

/** The Customer Service fake with the platform's page size (what the contract suite runs against). */
export const startFake: () => Promise<PlatformFake> = () => startCustomerServiceFake();
