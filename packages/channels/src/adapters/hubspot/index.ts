import { createHash } from "node:crypto";
import { ChannelError, type ChannelAdapter, type ChannelConfig } from "../../types";
import { isObject, parseJson, stringAt } from "../global-shared/http";
import { callHubSpot } from "./client";
import { fallbackAgentIdentifier, parseWebhook } from "./parse";
import { checkSignatureV3 } from "./signature";

function required(config: ChannelConfig, key: "accessToken" | "channelId"): string {
  const value = config[key]?.trim();
  if (!value) throw new ChannelError(`hubspot: ${key} is not configured`, { retryable: false });
  return value;
}

/** The same answer to the same HubSpot message gets the same id, so a retried publish is not shown twice. */
function idempotencyId(inReplyToId: string, text: string): string {
  return createHash("sha256").update(`${inReplyToId}\n${text}`).digest("hex").slice(0, 40);
}

/**
 * HubSpot through the Custom Channels API, with the Parley agent as the channel's far side.
 *
 * Direction. A custom channel bridges an outside messaging service into a HubSpot inbox or help
 * desk; here the outside service *is* the Parley agent. Someone in HubSpot (a rep, or a visitor's
 * thread routed to the channel) writes in a thread of the Parley channel, and HubSpot posts
 * `OUTGOING_CHANNEL_MESSAGE_CREATED` ("outgoing" from HubSpot) to the channel's webhookUrl, signed
 * with X-HubSpot-Signature-v3: that is Parley's inbound message. The agent's answer is published
 * into the same thread with `POST /conversations/v3/custom-channels/{channelId}/messages` and
 * `messageDirection: "INCOMING"` ("incoming" to HubSpot): the sender is the delivery identifier
 * HubSpot wrote to (the agent's address on the channel), the recipient is the HubSpot side.
 * Only v3 signatures are accepted on the webhook: v1 and v2 carry no timestamp and could be replayed.
 */
export const adapter: ChannelAdapter = {
  kind: "hubspot",
  descriptor: {
    kind: "hubspot",
    name: { en: "HubSpot", "zh-CN": "HubSpot" },
    defaultApiBase: "https://api.hubapi.com",
    fields: [
      {
        key: "appId",
        label: { en: "App ID", "zh-CN": "应用 ID（App ID）" },
        secret: false,
        required: true,
        pattern: "^\\d+$",
      },
      {
        key: "clientSecret",
        label: { en: "Client secret", "zh-CN": "客户端密钥（Client secret）" },
        help: { en: "Signs the webhooks HubSpot sends (X-HubSpot-Signature-v3).", "zh-CN": "用于校验 HubSpot 发送的 Webhook 签名（X-HubSpot-Signature-v3）。" },
        secret: true,
        required: true,
      },
      {
        key: "accessToken",
        label: { en: "Access token", "zh-CN": "访问令牌（Access token）" },
        help: {
          en: "A token with conversations.custom_channels.read/write, used to publish the agent's answers.",
          "zh-CN": "具有 conversations.custom_channels.read/write 权限的令牌，用于发布助手的回答。",
        },
        secret: true,
        required: true,
      },
      {
        key: "channelId",
        label: { en: "Custom channel ID", "zh-CN": "自定义渠道 ID（Channel ID）" },
        secret: false,
        required: true,
      },
      {
        key: "channelAccountId",
        label: { en: "Channel account ID", "zh-CN": "渠道账号 ID（Channel account ID）" },
        help: { en: "The channel account connected to your inbox.", "zh-CN": "已连接到收件箱的渠道账号。" },
        secret: false,
        required: true,
      },
    ],
  },
  capabilities: {
    // HubSpot treats a webhook call as failed after a few seconds and retries it.
    ackDeadlineMs: 5000,
    passiveReply: false,
    // HubSpot documents no text limit for published messages; this keeps answers readable in the inbox.
    maxText: { unit: "chars", value: 10_000 },
    markdown: false,
    edit: false,
    typing: false,
  },

  async verify(request, config, io) {
    if (request.method !== "POST") return { kind: "rejected", status: 400, reason: "HubSpot webhooks arrive by POST" };
    const check = checkSignatureV3(
      config.clientSecret ?? "",
      {
        method: request.method,
        uri: request.url.href,
        body: request.body,
        signature: request.headers.get("x-hubspot-signature-v3"),
        timestamp: request.headers.get("x-hubspot-request-timestamp"),
      },
      io.now(),
    );
    if (check !== "ok") return { kind: "rejected", status: 401, reason: `X-HubSpot-Signature-v3 ${check}` };
    const payload = parseJson(request.body);
    if (!isObject(payload) && !Array.isArray(payload)) return { kind: "rejected", status: 400, reason: "not a HubSpot webhook event" };
    return { kind: "verified", payload };
  },

  ack() {
    return new Response(null, { status: 200 });
  },

  async parse(payload, config, io) {
    return parseWebhook(payload, config, io.now());
  },

  async send(to, text, config, io) {
    const channelId = typeof to.channelId === "string" && to.channelId ? to.channelId : required(config, "channelId");
    const channelAccountId = typeof to.channelAccountId === "string" && to.channelAccountId ? to.channelAccountId : (config.channelAccountId ?? "");
    const inReplyToId = typeof to.inReplyToId === "string" ? to.inReplyToId : "";
    const agent =
      typeof to.agentIdentifierValue === "string" && to.agentIdentifierValue
        ? { type: String(to.agentIdentifierType ?? "CHANNEL_SPECIFIC_OPAQUE_ID"), value: to.agentIdentifierValue }
        : fallbackAgentIdentifier(channelAccountId);
    const body: Record<string, unknown> = {
      text,
      messageDirection: "INCOMING",
      channelAccountId,
      senders: [{ deliveryIdentifier: agent, name: "Parley" }],
      integrationIdempotencyId: idempotencyId(inReplyToId, text),
      timestamp: new Date(io.now()).toISOString(),
    };
    if (typeof to.hubspotIdentifierValue === "string" && to.hubspotIdentifierValue) {
      body.recipients = [{ deliveryIdentifier: { type: String(to.hubspotIdentifierType ?? "CHANNEL_SPECIFIC_OPAQUE_ID"), value: to.hubspotIdentifierValue } }];
    }
    if (typeof to.integrationThreadId === "string" && to.integrationThreadId) body.integrationThreadId = to.integrationThreadId;
    if (inReplyToId) body.inReplyToId = inReplyToId;
    const published = await callHubSpot(
      io,
      "POST",
      `/conversations/v3/custom-channels/${encodeURIComponent(channelId)}/messages`,
      required(config, "accessToken"),
      body,
    );
    return { ids: [stringAt(published, "id") ?? ""] };
  },

  async probe(config, io) {
    const channelId = encodeURIComponent(required(config, "channelId"));
    const account = await callHubSpot(
      io,
      "GET",
      `/conversations/v3/custom-channels/${channelId}/channel-accounts/${encodeURIComponent(config.channelAccountId ?? "")}`,
      required(config, "accessToken"),
    );
    if (!stringAt(account, "id")) throw new ChannelError("hubspot: the channel account was not found", { retryable: false });
  },
};
