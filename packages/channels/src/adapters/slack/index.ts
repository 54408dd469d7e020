import type { ChannelAdapter } from "../../types";
import { fetchSlackFile, postSlackMessage, testSlackAuth, uploadSlackImage } from "./client";
import { parseSlackEvent } from "./parse";
import { verifySlackRequest } from "./verify";

/**
 * Slack through the Events API: signed deliveries (v0 HMAC, five-minute window), `app_mention` in
 * channels and `message.im` in direct messages, replies with `chat.postMessage` under the bot token.
 * Retried deliveries (`X-Slack-Retry-Num`) keep their `event_id`, so they share one dedupe key.
 */
export const adapter: ChannelAdapter = {
  kind: "slack",
  descriptor: {
    kind: "slack",
    name: { en: "Slack", "zh-CN": "Slack" },
    defaultApiBase: "https://slack.com/api",
    fields: [
      {
        key: "botToken",
        label: { en: "Bot user OAuth token", "zh-CN": "机器人用户 OAuth 令牌" },
        help: { en: "Starts with xoxb-; found under OAuth & Permissions.", "zh-CN": "以 xoxb- 开头，在 OAuth & Permissions 页面获取。" },
        secret: true,
        required: true,
        pattern: "^xoxb-[A-Za-z0-9-]+$",
      },
      {
        key: "signingSecret",
        label: { en: "Signing secret", "zh-CN": "签名密钥" },
        help: { en: "Found under Basic Information → App Credentials.", "zh-CN": "在 Basic Information → App Credentials 中获取。" },
        secret: true,
        required: true,
        pattern: "^[0-9a-f]{32}$",
      },
    ],
  },
  capabilities: {
    ackDeadlineMs: 3000,
    passiveReply: false,
    // Slack truncates past 40,000 characters and advises keeping messages within 4,000.
    maxText: { unit: "chars", value: 4000 },
    markdown: true,
    edit: true,
    typing: false,
  },
  verify: verifySlackRequest,
  ack: () => new Response(null, { status: 200 }),
  parse: async (payload) => parseSlackEvent(payload),
  send: postSlackMessage,
  fetchMedia: (attachment, _message, config, io) => fetchSlackFile(attachment, config, io),
  sendImage: uploadSlackImage,
  probe: testSlackAuth,
};
