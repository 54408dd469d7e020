import {
  ChannelError,
  type AdapterIO,
  type Capabilities,
  type ChannelAdapter,
  type ChannelConfig,
  type ChannelDescriptor,
  type InboundMessage,
} from "../../types";
import { downloadWechatMedia, issueToken, postWithToken, uploadWechatImage } from "../wechat-shared/api";
import { encryptedEnvelope, isCallbackPayload, plainResponse, verifyEncryptedCallback, xmlResponse } from "../wechat-shared/callback";
import { callbackTokenField, corpIdField, encodingAesKeyField } from "../wechat-shared/fields";
import { contentOf, createdAt } from "../wechat-shared/message";
import { buildXml } from "../wechat-shared/xml";

const kind = "wechat-work";

/** Name and configuration form of a WeCom self-built app. */
export const descriptor: ChannelDescriptor = {
  kind,
  name: { en: "WeCom app", "zh-CN": "企业微信自建应用" },
  defaultApiBase: "https://qyapi.weixin.qq.com",
  fields: [
    corpIdField,
    {
      key: "agentId",
      label: { en: "AgentId", "zh-CN": "应用 AgentId" },
      help: { en: "App Management → your app.", "zh-CN": "应用管理 → 自建应用详情页。" },
      secret: false,
      required: true,
      pattern: "^[0-9]{1,10}$",
    },
    {
      key: "secret",
      label: { en: "Secret", "zh-CN": "应用 Secret" },
      help: { en: "The app's Secret; add Parley's server IP to the app's trusted IPs.", "zh-CN": "自建应用的 Secret；请把 Parley 服务器 IP 加入企业可信 IP。" },
      secret: true,
      required: true,
    },
    {
      key: "contactSecret",
      label: { en: "Customer contact Secret (optional)", "zh-CN": "客户联系 Secret（选填）" },
      help: {
        en: "Customer Contact → API → Secret. Needed to sync customer tags and contacts; without it the app's Secret is used, which WeCom accepts only for apps allowed to call customer contact.",
        "zh-CN": "客户联系 → API → Secret。同步客户标签和客户时需要；不填时使用应用 Secret，企业微信仅对已配置为可调用客户联系的应用接受。",
      },
      secret: true,
      required: false,
    },
    callbackTokenField,
    encodingAesKeyField(true),
  ],
};

/** 5 s per callback attempt; encrypted passive replies; 2048 UTF-8 bytes per text; no reply window for members. */
export const capabilities: Capabilities = {
  ackDeadlineMs: 5000,
  passiveReply: true,
  maxText: { unit: "utf8-bytes", value: 2048 },
  markdown: false,
  edit: false,
  typing: false,
};

function secretsOf(config: ChannelConfig) {
  return { token: config.token ?? "", encodingAesKey: config.encodingAesKey ?? "", receiveId: config.corpId ?? "" };
}

/** The cache key of the app's access token. */
export function tokenKey(config: ChannelConfig): string {
  return `${kind}:${config.corpId ?? ""}:${config.agentId ?? ""}`;
}

/** Fetches an access token for the corp with `secret` (the app's Secret unless given). */
export function issue(config: ChannelConfig, io: AdapterIO, secret = config.secret ?? "") {
  const query = new URLSearchParams({ corpid: config.corpId ?? "", corpsecret: secret });
  return () => issueToken(io, `${io.apiBase}/cgi-bin/gettoken?${query}`, "WeCom access token");
}

/** A member's message in a verified callback: none for events, other apps' messages and replays. */
function parseCallback(payload: unknown, config: ChannelConfig, io: AdapterIO): InboundMessage[] {
  if (!isCallbackPayload(payload) || payload.replayed) return [];
  const { fields } = payload;
  const userid = fields.FromUserName;
  if (!userid || fields.MsgType === "event") return [];
  if (fields.AgentID && config.agentId && fields.AgentID !== config.agentId) return [];
  const content = contentOf(fields);
  if (!content) return [];
  const id = fields.MsgId ? fields.MsgId : `${userid}:${fields.CreateTime ?? ""}`;
  return [
    {
      dedupeKey: `${kind}:${config.corpId ?? ""}:${id}`,
      conversation: { id: userid, isGroup: false },
      sender: { id: userid, isBot: false },
      text: content.text,
      attachments: content.attachments,
      sentAt: createdAt(fields, io.now()),
      reply: { touser: userid },
    },
  ];
}

/** WeCom self-built app (企业微信自建应用): encrypted callbacks in, `message/send` or encrypted passive replies out. */
export const adapter: ChannelAdapter = {
  kind,
  descriptor,
  capabilities,
  verify: (request, config, io) => verifyEncryptedCallback(request, secretsOf(config), io, `${kind}:${config.corpId ?? ""}`),
  ack: () => plainResponse(""),
  parse: async (payload, config, io) => parseCallback(payload, config, io),
  async send(to, text, config, io) {
    if (typeof to.touser !== "string" || !to.touser) throw new ChannelError("the reply handle has no touser", { retryable: false });
    const answer = await postWithToken(
      io,
      tokenKey(config),
      issue(config, io),
      "/cgi-bin/message/send",
      { touser: to.touser, msgtype: "text", agentid: Number(config.agentId), text: { content: text } },
      "WeCom app message",
    );
    // errcode 0 can still name recipients that were dropped.
    if (typeof answer.invaliduser === "string" && answer.invaliduser.split("|").includes(to.touser)) {
      throw new ChannelError(`WeCom app message failed: ${to.touser} is not a member the app can reach`, { retryable: false, platformCode: 81013 });
    }
    return { ids: answer.msgid === undefined ? [] : [String(answer.msgid)] };
  },
  fetchMedia(attachment, _message, config, io) {
    return downloadWechatMedia(io, tokenKey(config), issue(config, io), attachment.ref, "WeCom media/get");
  },
  async sendImage(to, image, config, io) {
    if (typeof to.touser !== "string" || !to.touser) throw new ChannelError("the reply handle has no touser", { retryable: false });
    const mediaId = await uploadWechatImage(io, tokenKey(config), issue(config, io), image, "WeCom media/upload");
    const answer = await postWithToken(
      io,
      tokenKey(config),
      issue(config, io),
      "/cgi-bin/message/send",
      { touser: to.touser, msgtype: "image", agentid: Number(config.agentId), image: { media_id: mediaId } },
      "WeCom app message",
    );
    return { ids: answer.msgid === undefined ? [] : [String(answer.msgid)] };
  },
  passiveReply(message, text, config, io) {
    const timestamp = Math.floor(io.now() / 1000);
    const reply = buildXml({
      ToUserName: String(message.reply.touser ?? ""),
      FromUserName: config.corpId ?? "",
      CreateTime: timestamp,
      MsgType: "text",
      Content: text,
    });
    return xmlResponse(encryptedEnvelope(reply, secretsOf(config), timestamp));
  },
  async probe(config, io) {
    await io.tokens.get(tokenKey(config), issue(config, io));
  },
};
