import { randomBytes } from "node:crypto";
import { buildXml } from "../adapters/wechat-shared/xml";
import { fakeId, json, serveFetch, type FakeDelivery, type FakeSentMessage, type PlatformFake } from "./fake";
import { WecomCustomerDesk } from "./wecom-customers";
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

const defaultMember = "ZhangSan";

/** The WeCom fake: a {@link PlatformFake} that also keeps the corp's customers and customer tags. */
export interface WecomFake extends PlatformFake {
  readonly customers: WecomCustomerDesk;
}

/**
 * A local WeCom platform for one self-built app: encrypted callbacks signed like WeCom's, the
 * encrypted-echostr URL check, `/cgi-bin/gettoken` (for the app's Secret and the customer contact
 * Secret) and `/cgi-bin/message/send` (members who wrote to the app are reachable; anyone else is
 * answered 81013 with `invaliduser`), and customer contact ({@link WecomCustomerDesk}).
 */
export async function startWecomFake(): Promise<WecomFake> {
  const config = {
    corpId: `ww${randomBytes(8).toString("hex")}`,
    agentId: "1000002",
    secret: randomBytes(32).toString("base64url").slice(0, 43),
    token: `tok${randomBytes(8).toString("hex")}`,
    encodingAesKey: randomEncodingAesKey(),
    contactSecret: randomBytes(32).toString("base64url").slice(0, 43),
  };
  const tokens = new TokenDesk();
  const contactTokens = new TokenDesk();
  const customers = new WecomCustomerDesk(contactTokens, tokens);
  const failures = new FailureQueue();
  const sent: FakeSentMessage[] = [];
  const members = new Set<string>([defaultMember]);
  const media = new WechatMediaDesk(tokens);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/cgi-bin/gettoken") {
      if (url.searchParams.get("corpsecret") === config.contactSecret) return wecomGettoken(url, config.corpId, config.contactSecret, contactTokens);
      return wecomGettoken(url, config.corpId, config.secret, tokens);
    }
    const customerAnswer = (await customers.handle(request, url)) ?? (await media.handle(request, url));
    if (customerAnswer) return customerAnswer;
    if (request.method === "POST" && url.pathname === "/cgi-bin/message/send") {
      const failure = failures.take();
      if (failure) return failureAnswer(failure, tokens, { errcode: 81013, errmsg: "user & party & tag all invalid" });
      const body = await jsonBody(request);
      const touser = typeof body?.touser === "string" ? body.touser : "";
      const text = body?.text as { content?: unknown } | undefined;
      const content = typeof text?.content === "string" ? text.content : "";
      if (!tokens.valid(url.searchParams.get("access_token"))) {
        record(sent, touser, content, false);
        return json({ errcode: 40014, errmsg: "invalid access_token" });
      }
      if (!body) return json({ errcode: 47001, errmsg: "data format error" });
      if (String(body.agentid) !== config.agentId) return json({ errcode: 40056, errmsg: "invalid agentid" });
      const image = body.msgtype === "image" ? media.get((body.image as { media_id?: unknown } | undefined)?.media_id) : undefined;
      if (body.msgtype === "image" && !image) return json({ errcode: 40007, errmsg: "invalid media_id" });
      if (body.msgtype !== "text" && !image) return json({ errcode: 40008, errmsg: "invalid message type" });
      if (!content && !image) return json({ errcode: 41016, errmsg: "missing content" });
      if (!members.has(touser)) return json({ errcode: 81013, errmsg: "user & party & tag all invalid", invaliduser: touser });
      if (image)
        sent.push({ to: touser, text: "", authorized: true, at: Date.now(), image: { bytes: image.bytes, mime: image.mime ?? "", name: image.name ?? "" } });
      else record(sent, touser, content, true);
      return json({ errcode: 0, errmsg: "ok", invaliduser: "", msgid: randomBytes(12).toString("base64url") });
    }
    return json({ errcode: 404, errmsg: "not found" }, 404);
  }

  const server = await serveFetch(handle);

  function callback(webhookUrl: string, message: FakeDelivery, options: { signingToken?: string; timestamp?: string } = {}): Request {
    const userid = message.senderId ?? defaultMember;
    members.add(userid);
    const timestamp = options.timestamp ?? timestampNow();
    const picture = message.media?.find((item) => item.kind === "image");
    const mediaId = picture ? media.keep(picture) : undefined;
    const inner = buildXml({
      ToUserName: config.corpId,
      FromUserName: userid,
      CreateTime: Number(timestamp),
      ...(mediaId
        ? { MsgType: "image", PicUrl: `https://wework.qpic.cn/wwpic/${mediaId.slice(0, 10)}/0`, MediaId: mediaId }
        : { MsgType: "text", Content: message.text }),
      MsgId: message.id ?? fakeId("4561"),
      AgentID: Number(config.agentId),
    });
    return wecomCallback(webhookUrl, inner, config, { ...options, timestamp, outer: { AgentID: config.agentId } });
  }

  return {
    kind: "wechat-work",
    apiBase: server.url,
    config,
    delivery: async (webhookUrl, message) => callback(webhookUrl, message),
    forged: async (webhookUrl, message) => callback(webhookUrl, message, { signingToken: `${config.token}x` }),
    stale: async (webhookUrl, message) => callback(webhookUrl, message, { timestamp: timestampNow(-3600) }),
    handshake: async (webhookUrl) => wecomHandshake(webhookUrl, config),
    sent,
    customers,
    get tokensIssued() {
      return tokens.issued + contactTokens.issued;
    },
    failNext: (failure, count) => failures.add(failure, count),
    close: () => server.close(),
  };
}

/** The WeCom fake (what the contract suite runs against). */
export const startFake: () => Promise<PlatformFake> = () => startWecomFake();
