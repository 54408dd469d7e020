import { safeEqual } from "../../crypto";
import { type AdapterIO, ChannelError, type ChannelAdapter, type ChannelConfig, type ReplyHandle } from "../../types";
import { arrayAt, isObject, parseJson, stringAt } from "../global-shared/http";
import { callGraph, downloadWhatsAppMedia, uploadWhatsAppImage } from "./client";
import { parseNotification, REPLY_WINDOW_HOURS } from "./parse";
import { verifyHubSignature } from "./signature";

function accessToken(config: ChannelConfig): string {
  const token = config.accessToken?.trim();
  if (!token) throw new ChannelError("whatsapp: the access token is not configured", { retryable: false });
  return token;
}

/**
 * WhatsApp Cloud API (Meta Graph): a GET subscription check answered with `hub.challenge`, POSTs
 * signed with `X-Hub-Signature-256`, replies through `/{phone-number-id}/messages` inside the
 * 24-hour customer-service window. Meta signs no timestamp, so replays are caught by the wamid.
 */
export const adapter: ChannelAdapter = {
  kind: "whatsapp",
  descriptor: {
    kind: "whatsapp",
    name: { en: "WhatsApp", "zh-CN": "WhatsApp" },
    defaultApiBase: "https://graph.facebook.com",
    fields: [
      {
        key: "phoneNumberId",
        label: { en: "Phone number ID", "zh-CN": "电话号码 ID（Phone number ID）" },
        help: { en: "WhatsApp Manager → API setup (not the phone number itself).", "zh-CN": "在 WhatsApp Manager 的 API 设置中查看（不是电话号码本身）。" },
        secret: false,
        required: true,
        pattern: "^\\d+$",
      },
      {
        key: "accessToken",
        label: { en: "Access token", "zh-CN": "访问令牌（Access token）" },
        help: { en: "A system-user token with whatsapp_business_messaging.", "zh-CN": "具有 whatsapp_business_messaging 权限的系统用户令牌。" },
        secret: true,
        required: true,
      },
      {
        key: "appSecret",
        label: { en: "App secret", "zh-CN": "应用密钥（App secret）" },
        help: { en: "Meta app → Settings → Basic; signs every webhook.", "zh-CN": "Meta 应用 → 设置 → 基本；用于校验每个 Webhook 的签名。" },
        secret: true,
        required: true,
      },
      {
        key: "verifyToken",
        label: { en: "Verify token", "zh-CN": "验证令牌（Verify token）" },
        help: { en: "Any string; enter the same one in the Meta webhook settings.", "zh-CN": "任意字符串；在 Meta 的 Webhook 设置中填写相同的值。" },
        secret: true,
        required: true,
      },
    ],
  },
  capabilities: {
    // Meta documents no deadline; it retries failed deliveries, so answer at once.
    ackDeadlineMs: 10_000,
    passiveReply: false,
    maxText: { unit: "chars", value: 4096 },
    replyWindow: { hours: REPLY_WINDOW_HOURS },
    // WhatsApp has its own *bold* _italic_ marks, not markdown.
    markdown: false,
    edit: false,
    typing: false,
  },

  async verify(request, config) {
    if (request.method === "GET") {
      const query = request.url.searchParams;
      const token = query.get("hub.verify_token") ?? "";
      const challenge = query.get("hub.challenge") ?? "";
      if (query.get("hub.mode") !== "subscribe" || !challenge || !config.verifyToken || !safeEqual(token, config.verifyToken)) {
        return { kind: "rejected", status: 403, reason: "subscription check with a wrong verify token" };
      }
      return { kind: "handshake", response: new Response(challenge, { status: 200, headers: { "content-type": "text/plain" } }) };
    }
    if (request.method !== "POST") return { kind: "rejected", status: 400, reason: "unexpected method" };
    if (!verifyHubSignature(config.appSecret ?? "", request.body, request.headers.get("x-hub-signature-256"))) {
      return { kind: "rejected", status: 401, reason: "X-Hub-Signature-256 missing or wrong" };
    }
    const payload = parseJson(request.body);
    if (!isObject(payload) || stringAt(payload, "object") !== "whatsapp_business_account" || !Array.isArray(payload.entry)) {
      return { kind: "rejected", status: 400, reason: "not a WhatsApp Business notification" };
    }
    return { kind: "verified", payload };
  },

  ack() {
    return new Response(null, { status: 200 });
  },

  async parse(payload, config) {
    return parseNotification(payload, config.phoneNumberId?.trim() || undefined);
  },

  async send(to, text, config, io) {
    return postMessage(to, config, io, { type: "text", text: { body: text, preview_url: false } });
  },

  fetchMedia(attachment, _message, config, io) {
    return downloadWhatsAppMedia(attachment.ref, accessToken(config), io);
  },

  async sendImage(to, image, config, io) {
    const { phoneNumberId } = recipientOf(to, config, io);
    const mediaId = await uploadWhatsAppImage(phoneNumberId, image, accessToken(config), io);
    return postMessage(to, config, io, { type: "image", image: { id: mediaId } });
  },

  async probe(config, io) {
    const answer = await callGraph(
      `/${encodeURIComponent(config.phoneNumberId ?? "")}?fields=display_phone_number,verified_name`,
      { method: "GET" },
      accessToken(config),
      io,
    );
    if (!stringAt(answer, "id")) {
      throw new ChannelError("whatsapp: the phone number was not found", { retryable: false });
    }
  },
};

/** The reply handle's recipient and sending number; refused when the 24-hour window has closed. */
function recipientOf(to: ReplyHandle, config: ChannelConfig, io: AdapterIO): { recipient: string; phoneNumberId: string } {
  const recipient = to.to;
  const phoneNumberId = typeof to.phoneNumberId === "string" && to.phoneNumberId ? to.phoneNumberId : config.phoneNumberId;
  if (typeof recipient !== "string" || !recipient || !phoneNumberId) {
    throw new ChannelError("whatsapp: the reply handle has no recipient", { retryable: false });
  }
  // Outside the window Meta answers 131047; saying so here spares the call.
  if (typeof to.windowUntil === "number" && io.now() > to.windowUntil) {
    throw new ChannelError("whatsapp: the 24-hour customer-service window has closed (a template message is needed)", {
      retryable: false,
      platformCode: 131047,
    });
  }
  return { recipient, phoneNumberId };
}

/** Sends one message of the given type (`text`, `image`) to the handle's recipient; answers the message ids. */
async function postMessage(to: ReplyHandle, config: ChannelConfig, io: AdapterIO, content: Record<string, unknown>): Promise<{ ids: string[] }> {
  const { recipient, phoneNumberId } = recipientOf(to, config, io);
  const answer = await callGraph(
    `/${encodeURIComponent(phoneNumberId)}/messages`,
    { method: "POST", body: { messaging_product: "whatsapp", recipient_type: "individual", to: recipient, ...content } },
    accessToken(config),
    io,
  );
  return {
    ids: arrayAt(answer, "messages")
      .map((message) => stringAt(message, "id") ?? "")
      .filter(Boolean),
  };
}
