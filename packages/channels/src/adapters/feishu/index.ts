import type { ChannelAdapter } from "../../types";
import { fetchFeishuMedia, probeFeishu, sendFeishuImage, sendFeishuText } from "./client";
import { parseFeishuEvent } from "./parse";
import { verifyFeishuRequest } from "./verify";

/**
 * Feishu (Lark) event subscription v2: encrypted and signed deliveries when an Encrypt Key is set,
 * the Verification Token checked in every mode, `im.message.receive_v1` parsed (group and p2p
 * chats), and replies through `im/v1/messages` with a cached tenant_access_token.
 */
export const adapter: ChannelAdapter = {
  kind: "feishu",
  descriptor: {
    kind: "feishu",
    name: { en: "Feishu / Lark", "zh-CN": "飞书" },
    defaultApiBase: "https://open.feishu.cn",
    fields: [
      {
        key: "appId",
        label: { en: "App ID", "zh-CN": "App ID" },
        help: { en: "Credentials & Basic Info page of the app; starts with cli_.", "zh-CN": "应用的“凭证与基础信息”页面，以 cli_ 开头。" },
        secret: false,
        required: true,
        pattern: "^cli_[A-Za-z0-9]+$",
      },
      {
        key: "appSecret",
        label: { en: "App Secret", "zh-CN": "App Secret" },
        secret: true,
        required: true,
      },
      {
        key: "verificationToken",
        label: { en: "Verification Token", "zh-CN": "Verification Token（校验令牌）" },
        help: { en: "Events & Callbacks → Encryption Strategy.", "zh-CN": "事件与回调 → 加密策略。" },
        secret: true,
        required: true,
      },
      {
        key: "encryptKey",
        label: { en: "Encrypt Key", "zh-CN": "Encrypt Key（加密密钥）" },
        help: {
          en: "Optional but recommended: with it Feishu encrypts and signs every delivery.",
          "zh-CN": "可选，但建议设置：设置后飞书会对每次推送加密并签名。",
        },
        secret: true,
        required: false,
      },
    ],
  },
  capabilities: {
    // Events must be answered within 3 s (the URL check within 1 s; it is answered from verify).
    ackDeadlineMs: 3000,
    passiveReply: false,
    // A text request body may be up to 150 KB; the text is JSON-encoded twice (content is a JSON
    // string), so 30,000 bytes stays under the limit even if every character needs escaping.
    maxText: { unit: "utf8-bytes", value: 30_000 },
    markdown: false,
    edit: false,
    typing: false,
  },
  verify: verifyFeishuRequest,
  ack: () => Response.json({}),
  parse: async (payload) => parseFeishuEvent(payload),
  send: sendFeishuText,
  fetchMedia: fetchFeishuMedia,
  sendImage: sendFeishuImage,
  probe: probeFeishu,
};
