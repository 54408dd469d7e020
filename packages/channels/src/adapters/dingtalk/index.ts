import type { ChannelAdapter } from "../../types";
import { downloadDingtalkFile, probeDingtalk, sendDingtalkMarkdown } from "./client";
import { parseDingtalkCallback } from "./parse";
import { verifyDingtalkRequest } from "./verify";

/**
 * DingTalk enterprise robots in HTTP (outgoing) mode: callbacks signed with the app secret over
 * the timestamp (±1 hour), direct and group conversations, `msgId` dedupe, answers in markdown
 * through the session webhook or, once it expires, the robot OpenAPI with a cached access token.
 */
export const adapter: ChannelAdapter = {
  kind: "dingtalk",
  descriptor: {
    kind: "dingtalk",
    name: { en: "DingTalk", "zh-CN": "钉钉" },
    defaultApiBase: "https://api.dingtalk.com",
    fields: [
      {
        key: "appKey",
        label: { en: "Client ID (AppKey)", "zh-CN": "Client ID（原 AppKey）" },
        help: { en: "Credentials & Basic Info page of the app.", "zh-CN": "应用的“凭证与基础信息”页面。" },
        secret: false,
        required: true,
      },
      {
        key: "appSecret",
        label: { en: "Client Secret (AppSecret)", "zh-CN": "Client Secret（原 AppSecret）" },
        help: { en: "Also signs the robot's callbacks.", "zh-CN": "同时用于校验机器人回调的签名。" },
        secret: true,
        required: true,
      },
      {
        key: "robotCode",
        label: { en: "Robot code", "zh-CN": "机器人 RobotCode" },
        help: {
          en: "Robot configuration page; for most internal-app robots it equals the Client ID.",
          "zh-CN": "机器人配置页面；企业内部应用机器人通常与 Client ID 相同。",
        },
        secret: false,
        required: false,
      },
    ],
  },
  capabilities: {
    // DingTalk documents no callback deadline or retry for robots; answer as fast as the others.
    ackDeadlineMs: 3000,
    passiveReply: false,
    // The OpenAPI's msgParam may hold 15,000 bytes; the markdown is JSON-escaped inside it, so 7,000
    // bytes of text (and its title) stay within the limit even if every byte needs escaping.
    maxText: { unit: "utf8-bytes", value: 7000 },
    markdown: true,
    edit: false,
    typing: false,
  },
  verify: verifyDingtalkRequest,
  ack: () => Response.json({}),
  parse: async (payload) => parseDingtalkCallback(payload),
  send: sendDingtalkMarkdown,
  fetchMedia: (attachment, _message, config, io) => downloadDingtalkFile(attachment, config, io),
  probe: probeDingtalk,
};
