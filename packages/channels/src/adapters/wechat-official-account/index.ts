import { ChannelError, type AdapterIO, type Capabilities, type ChannelAdapter, type ChannelConfig, type ChannelDescriptor, type InboundMessage } from "../../types";
import { issueToken, postWithToken } from "../wechat-shared/api";
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
      help: { en: "Used to fetch the access token; add Parley's server IP to the IP allow-list.", "zh-CN": "用于获取 access_token；请把 Parley 服务器 IP 加入 IP 白名单。" },
      secret: true,
      required: true,
    },
    callbackTokenField,
    encodingAesKeyField(false),
    {
      key: "mode",
      label: { en: "Message encryption mode", "zh-CN": "消息加解密方式" },
      help: { en: "Must match the mode chosen on the platform; compatible and safe modes need the EncodingAESKey.", "zh-CN": "须与公众平台上选择的方式一致；兼容模式和安全模式需要 EncodingAESKey。" },
      secret: false,
      required: true,
      default: "safe",
      options: [
        { value: "plaintext", label: { en: "Plaintext", "zh-CN": "明文模式" } },
        { value: "compatible", label: { en: "Compatible", "zh-CN": "兼容模式" } },
        { value: "safe", label: { en: "Safe (recommended)", "zh-CN": "安全模式（推荐）" } },
      ],
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

function tokenKey(config: ChannelConfig): string {
  return `${kind}:${config.appId ?? ""}`;
}

function issue(config: ChannelConfig, io: AdapterIO) {
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
    return xmlResponse(encryptedEnvelope(reply, { token: config.token ?? "", encodingAesKey: config.encodingAesKey ?? "", receiveId: config.appId ?? "" }, timestamp));
  },
  async probe(config, io) {
    await io.tokens.get(tokenKey(config), issue(config, io));
  },
};
