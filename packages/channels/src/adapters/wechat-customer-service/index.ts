import { ChannelError, type AdapterIO, type Capabilities, type ChannelAdapter, type ChannelConfig, type ChannelDescriptor } from "../../types";
import { downloadWechatMedia, issueToken, postWithToken, uploadWechatImage } from "../wechat-shared/api";
import { isCallbackPayload, plainResponse, verifyEncryptedCallback } from "../wechat-shared/callback";
import { callbackTokenField, corpIdField, encodingAesKeyField } from "../wechat-shared/fields";
import { pullMessages } from "./sync";

const kind = "wechat-customer-service";

/** Name and configuration form of WeChat Customer Service (微信客服). */
export const descriptor: ChannelDescriptor = {
  kind,
  name: { en: "WeChat Customer Service", "zh-CN": "微信客服" },
  defaultApiBase: "https://qyapi.weixin.qq.com",
  fields: [
    corpIdField,
    {
      key: "secret",
      label: { en: "Customer Service Secret", "zh-CN": "微信客服 Secret" },
      help: {
        en: "WeChat Customer Service → API → Secret; add Parley's server IP to the trusted IPs.",
        "zh-CN": "微信客服 → API → Secret；请把 Parley 服务器 IP 加入可信 IP。",
      },
      secret: true,
      required: true,
    },
    callbackTokenField,
    encodingAesKeyField(true),
  ],
};

/** 5 s per callback; no passive reply (messages are pulled); 2048 UTF-8 bytes; 5 messages within 48 h of the customer's last message. */
export const capabilities: Capabilities = {
  ackDeadlineMs: 5000,
  passiveReply: false,
  maxText: { unit: "utf8-bytes", value: 2048 },
  replyWindow: { hours: 48, maxMessages: 5 },
  markdown: false,
  edit: false,
  typing: false,
};

function tokenKey(config: ChannelConfig): string {
  return `${kind}:${config.corpId ?? ""}`;
}

function issue(config: ChannelConfig, io: AdapterIO) {
  const query = new URLSearchParams({ corpid: config.corpId ?? "", corpsecret: config.secret ?? "" });
  return () => issueToken(io, `${io.apiBase}/cgi-bin/gettoken?${query}`, "WeChat customer service access token");
}

/**
 * WeChat Customer Service (微信客服): WeCom-encrypted `kf_msg_or_event` callbacks, messages pulled
 * with `kf/sync_msg` from a cursor kept in the key-value store, answers sent with `kf/send_msg`.
 */
export const adapter: ChannelAdapter = {
  kind,
  descriptor,
  capabilities,
  verify: (request, config, io) =>
    verifyEncryptedCallback(
      request,
      { token: config.token ?? "", encodingAesKey: config.encodingAesKey ?? "", receiveId: config.corpId ?? "" },
      io,
      `${kind}:${config.corpId ?? ""}`,
    ),
  ack: () => plainResponse(""),
  async parse(payload, config, io) {
    if (!isCallbackPayload(payload) || payload.replayed) return [];
    const { fields } = payload;
    if (fields.MsgType !== "event" || fields.Event !== "kf_msg_or_event") return [];
    return pullMessages({ config, tokenKey: tokenKey(config), issue: issue(config, io), syncToken: fields.Token ?? "", openKfId: fields.OpenKfId ?? "" }, io);
  },
  async send(to, text, config, io) {
    if (typeof to.touser !== "string" || !to.touser || typeof to.openKfId !== "string" || !to.openKfId) {
      throw new ChannelError("the reply handle needs touser and openKfId", { retryable: false });
    }
    const answer = await postWithToken(
      io,
      tokenKey(config),
      issue(config, io),
      "/cgi-bin/kf/send_msg",
      { touser: to.touser, open_kfid: to.openKfId, msgtype: "text", text: { content: text } },
      "WeChat customer service send_msg",
    );
    return { ids: answer.msgid === undefined ? [] : [String(answer.msgid)] };
  },
  fetchMedia(attachment, _message, config, io) {
    return downloadWechatMedia(io, tokenKey(config), issue(config, io), attachment.ref, "WeChat customer service media/get");
  },
  async sendImage(to, image, config, io) {
    if (typeof to.touser !== "string" || !to.touser || typeof to.openKfId !== "string" || !to.openKfId) {
      throw new ChannelError("the reply handle needs touser and openKfId", { retryable: false });
    }
    const mediaId = await uploadWechatImage(io, tokenKey(config), issue(config, io), image, "WeChat customer service media/upload");
    const answer = await postWithToken(
      io,
      tokenKey(config),
      issue(config, io),
      "/cgi-bin/kf/send_msg",
      { touser: to.touser, open_kfid: to.openKfId, msgtype: "image", image: { media_id: mediaId } },
      "WeChat customer service send_msg",
    );
    return { ids: answer.msgid === undefined ? [] : [String(answer.msgid)] };
  },
  async probe(config, io) {
    await io.tokens.get(tokenKey(config), issue(config, io));
  },
};
