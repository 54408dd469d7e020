import {
  ChannelError,
  type AdapterIO,
  type Capabilities,
  type ChannelAdapter,
  type ChannelConfig,
  type ChannelDescriptor,
  type InboundMessage,
} from "../../types";
import { measure, splitText } from "../../runtime";
import { downloadWechatMedia, issueToken, postWithToken, uploadWechatImage } from "../wechat-shared/api";
import { encryptedEnvelope, isCallbackPayload, plainResponse, xmlResponse } from "../wechat-shared/callback";
import { callbackTokenField, encodingAesKeyField } from "../wechat-shared/fields";
import { contentOf, createdAt } from "../wechat-shared/message";
import { buildXml } from "../wechat-shared/xml";
import { modeOf, verifyOfficialAccount } from "./verify";

const kind = "wechat-official-account";

/** Name and configuration form of a WeChat Official Account. */
export const descriptor: ChannelDescriptor = {
  kind,
  name: { en: "WeChat Official Account", "zh-CN": "微信公众号" },
  defaultApiBase: "https://api.weixin.qq.com",
  fields: [
    {
      key: "appId",
      label: { en: "AppID", "zh-CN": "开发者 ID (AppID)" },
      help: { en: "Settings and Development → Basic Configuration.", "zh-CN": "设置与开发 → 基本配置。" },
      secret: false,
      required: true,
      pattern: "^wx[0-9A-Za-z]{16}$",
    },
    {
      key: "appSecret",
      label: { en: "AppSecret", "zh-CN": "开发者密码 (AppSecret)" },
      help: {
        en: "Used to fetch the access token; add Parley's server IP to the IP allow-list.",
        "zh-CN": "用于获取 access_token；请把 Parley 服务器 IP 加入 IP 白名单。",
      },
      secret: true,
      required: true,
    },
    callbackTokenField,
    encodingAesKeyField(false),
    {
      key: "mode",
      label: { en: "Message encryption mode", "zh-CN": "消息加解密方式" },
      help: {
        en: "Must match the mode chosen on the platform; compatible and safe modes need the EncodingAESKey.",
        "zh-CN": "须与公众平台上选择的方式一致；兼容模式和安全模式需要 EncodingAESKey。",
      },
      secret: false,
      required: true,
      default: "safe",
      options: [
        { value: "plaintext", label: { en: "Plaintext", "zh-CN": "明文模式" } },
        { value: "compatible", label: { en: "Compatible", "zh-CN": "兼容模式" } },
        { value: "safe", label: { en: "Safe (recommended)", "zh-CN": "安全模式（推荐）" } },
      ],
    },
    {
      key: "noticeTemplateId",
      label: { en: "Notice template ID (optional)", "zh-CN": "通知模板 ID（选填）" },
      help: {
        en: "For Parley's notices to bound members (handover, client offline). Add a template from the library with the fields {{first.DATA}} (title), {{keyword1.DATA}} (subject: the customer or client), {{keyword2.DATA}} (time) and {{remark.DATA}} (summary); tapping it opens the console. Without it, notices go as customer-service messages, which WeChat accepts only within 48 hours of the member's last message to this account.",
        "zh-CN":
          "用于 Parley 发给已绑定成员的通知（转人工、客户端离线）。请在模板库中添加含 {{first.DATA}}（标题）、{{keyword1.DATA}}（事项：客户或客户端）、{{keyword2.DATA}}（时间）、{{remark.DATA}}（摘要）字段的模板；点击通知打开控制台。不填时以客服消息发送，微信只在成员最后一次给本公众号发消息后 48 小时内接受。",
      },
      secret: false,
      required: false,
      pattern: "^[A-Za-z0-9_-]{8,64}$",
    },
  ],
};

/**
 * 5 s per delivery attempt; passive replies in the HTTP answer; 2048 UTF-8 bytes per text; the
 * customer-service API accepts 5 messages within 48 h of the person's last message.
 */
export const capabilities: Capabilities = {
  ackDeadlineMs: 5000,
  passiveReply: true,
  maxText: { unit: "utf8-bytes", value: 2048 },
  replyWindow: { hours: 48, maxMessages: 5 },
  markdown: false,
  edit: false,
  typing: false,
};

/** The cache key of the account's access token. */
export function tokenKey(config: ChannelConfig): string {
  return `${kind}:${config.appId ?? ""}`;
}

/** Fetches an access token for the account. */
export function issue(config: ChannelConfig, io: AdapterIO) {
  const query = new URLSearchParams({ grant_type: "client_credential", appid: config.appId ?? "", secret: config.appSecret ?? "" });
  return () => issueToken(io, `${io.apiBase}/cgi-bin/token?${query}`, "WeChat access token");
}

/** The person's messages in a verified delivery: none for events (subscribe, menu clicks, scans…) and replays. */
function parseDelivery(payload: unknown, config: ChannelConfig, io: AdapterIO): InboundMessage[] {
  if (!isCallbackPayload(payload) || payload.replayed) return [];
  const { fields } = payload;
  const openid = fields.FromUserName;
  if (!openid || fields.MsgType === "event" || openid === fields.ToUserName) return [];
  const content = contentOf(fields);
  if (!content) return [];
  const id = fields.MsgId ? fields.MsgId : `${openid}:${fields.CreateTime ?? ""}`;
  return [
    {
      dedupeKey: `${kind}:${config.appId ?? ""}:${id}`,
      conversation: { id: openid, isGroup: false },
      sender: { id: openid, isBot: false },
      text: content.text,
      attachments: content.attachments,
      sentAt: createdAt(fields, io.now()),
      reply: { openid, account: fields.ToUserName ?? "" },
    },
  ];
}

/** A notice from Parley to a member who bound their WeChat to the account. */
export interface OfficialAccountNotice {
  /** What happened, e.g. "A conversation with Support bot is waiting for a person". */
  title: string;
  /** Who or what it is about (the customer, the client); at most 20 characters are shown. */
  subject: string;
  /** The details (summary). */
  text: string;
  /** Where tapping the notice leads (the console). */
  url: string;
  /** When it happened, milliseconds since the epoch. */
  at: number;
}

/** How a notice went out. */
export interface OfficialAccountNoticeResult {
  via: "template" | "customer-service";
  ids: string[];
}

function cut(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("")}…`;
}

/** `YYYY-MM-DD HH:mm` in China Standard Time (UTC+8), how WeChat users read times. */
function chinaTime(ms: number): string {
  return new Date(ms + 8 * 3600 * 1000).toISOString().slice(0, 16).replace("T", " ");
}

/**
 * Sends a notice to `openid`: as a template message when the account has a `noticeTemplateId`
 * (fields first, keyword1, keyword2, remark; the notice opens `url`), else as a customer-service
 * text message, which WeChat accepts only within 48 h of the person's last message (45015
 * otherwise). Uses the account's cached access token. Throws a {@link ChannelError} when refused.
 */
export async function sendOfficialAccountNotice(
  openid: string,
  notice: OfficialAccountNotice,
  config: ChannelConfig,
  io: AdapterIO,
): Promise<OfficialAccountNoticeResult> {
  if (!openid) throw new ChannelError("no openid to send the notice to", { retryable: false });
  const templateId = config.noticeTemplateId?.trim();
  if (templateId) {
    const answer = await postWithToken(
      io,
      tokenKey(config),
      issue(config, io),
      "/cgi-bin/message/template/send",
      {
        touser: openid,
        template_id: templateId,
        url: notice.url,
        data: {
          first: { value: cut(notice.title, 60) },
          keyword1: { value: cut(notice.subject, 20) },
          keyword2: { value: chinaTime(notice.at) },
          remark: { value: cut(notice.text, 200) },
        },
      },
      "WeChat template message",
    );
    return { via: "template", ids: answer.msgid === undefined ? [] : [String(answer.msgid)] };
  }
  // The link must survive the cut: the body is shortened to leave room for it.
  const room = capabilities.maxText.value - measure(`\n${notice.url}`, "utf8-bytes");
  const body = splitText(`${notice.title}\n${notice.text}`, { unit: "utf8-bytes", value: room })[0] ?? notice.title;
  const sent = await adapter.send({ openid }, `${body}\n${notice.url}`, config, io);
  return { via: "customer-service", ids: sent.ids };
}

/** WeChat Official Account (公众号): message push in, customer-service messages or passive replies out. */
export const adapter: ChannelAdapter = {
  kind,
  descriptor,
  capabilities,
  verify: verifyOfficialAccount,
  ack: () => plainResponse("success"),
  parse: async (payload, config, io) => parseDelivery(payload, config, io),
  async send(to, text, config, io) {
    if (typeof to.openid !== "string" || !to.openid) throw new ChannelError("the reply handle has no openid", { retryable: false });
    const answer = await postWithToken(
      io,
      tokenKey(config),
      issue(config, io),
      "/cgi-bin/message/custom/send",
      { touser: to.openid, msgtype: "text", text: { content: text } },
      "WeChat customer service message",
    );
    return { ids: answer.msgid === undefined ? [] : [String(answer.msgid)] };
  },
  fetchMedia(attachment, _message, config, io) {
    return downloadWechatMedia(io, tokenKey(config), issue(config, io), attachment.ref, "WeChat media/get");
  },
  async sendImage(to, image, config, io) {
    if (typeof to.openid !== "string" || !to.openid) throw new ChannelError("the reply handle has no openid", { retryable: false });
    const mediaId = await uploadWechatImage(io, tokenKey(config), issue(config, io), image, "WeChat media/upload");
    const answer = await postWithToken(
      io,
      tokenKey(config),
      issue(config, io),
      "/cgi-bin/message/custom/send",
      { touser: to.openid, msgtype: "image", image: { media_id: mediaId } },
      "WeChat customer service message",
    );
    return { ids: answer.msgid === undefined ? [] : [String(answer.msgid)] };
  },
  passiveReply(message, text, config, io) {
    const timestamp = Math.floor(io.now() / 1000);
    const reply = buildXml({
      ToUserName: String(message.reply.openid ?? ""),
      FromUserName: String(message.reply.account ?? ""),
      CreateTime: timestamp,
      MsgType: "text",
      Content: text,
    });
    if (modeOf(config) === "plaintext") return xmlResponse(reply);
    return xmlResponse(
      encryptedEnvelope(reply, { token: config.token ?? "", encodingAesKey: config.encodingAesKey ?? "", receiveId: config.appId ?? "" }, timestamp),
    );
  },
  async probe(config, io) {
    await io.tokens.get(tokenKey(config), issue(config, io));
  },
};
