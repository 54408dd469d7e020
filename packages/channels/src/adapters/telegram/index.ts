import { safeEqual } from "../../crypto";
import { ChannelError, type ChannelAdapter, type ChannelConfig } from "../../types";
import { isObject, numberAt, parseJson } from "../global-shared/http";
import { imageBlob } from "../global-shared/media";
import { callBotApi, downloadTelegramFile, TelegramApiError } from "./client";
import { parseUpdate } from "./parse";
import { webhookSecret } from "./secret";

const SECRET_HEADER = "x-telegram-bot-api-secret-token";

function botToken(config: ChannelConfig): string {
  const token = config.botToken?.trim();
  if (!token) throw new ChannelError("telegram: the bot token is not configured", { retryable: false });
  return token;
}

/**
 * Telegram Bot API over a webhook: `register` calls `setWebhook` with a secret token that every
 * update then carries in a header (no MAC, no timestamp, so retries are caught by `update_id`).
 */
export const adapter: ChannelAdapter = {
  kind: "telegram",
  descriptor: {
    kind: "telegram",
    name: { en: "Telegram", "zh-CN": "Telegram" },
    defaultApiBase: "https://api.telegram.org",
    fields: [
      {
        key: "botToken",
        label: { en: "Bot token", "zh-CN": "机器人令牌（Bot Token）" },
        help: { en: "From @BotFather, e.g. 123456:ABC-DEF…", "zh-CN": "在 @BotFather 处获取，例如 123456:ABC-DEF…" },
        secret: true,
        required: true,
        pattern: "^\\d+:[A-Za-z0-9_-]+$",
      },
      {
        key: "secretToken",
        label: { en: "Webhook secret token", "zh-CN": "Webhook 密钥（secret_token）" },
        help: {
          en: "1–256 characters of A–Z, a–z, 0–9, _ and -. Leave empty to derive one from the bot token.",
          "zh-CN": "1–256 个字符，只能包含 A–Z、a–z、0–9、_ 和 -。留空则由机器人令牌自动生成。",
        },
        secret: true,
        required: false,
        pattern: "^[A-Za-z0-9_-]{1,256}$",
      },
    ],
  },
  capabilities: {
    // Telegram documents no deadline; it redelivers after a failed or slow answer, so answer at once.
    ackDeadlineMs: 10_000,
    passiveReply: false,
    maxText: { unit: "chars", value: 4096 },
    // Replies are sent as plain text (no parse_mode).
    markdown: false,
    edit: false,
    typing: false,
  },

  async verify(request, config) {
    if (request.method !== "POST") return { kind: "rejected", status: 400, reason: "telegram delivers updates by POST" };
    const given = request.headers.get(SECRET_HEADER);
    if (!given || !config.botToken || !safeEqual(given, webhookSecret(config))) {
      return { kind: "rejected", status: 401, reason: "secret token missing or wrong" };
    }
    const update = parseJson(request.body);
    if (!isObject(update) || numberAt(update, "update_id") === undefined) {
      return { kind: "rejected", status: 400, reason: "not a Telegram update" };
    }
    return { kind: "verified", payload: update };
  },

  ack() {
    // An empty 200: a JSON body would be taken as a Bot API method call.
    return new Response(null, { status: 200 });
  },

  async parse(payload, config) {
    return parseUpdate(payload, config.botToken ?? "");
  },

  async send(to, text, config, io) {
    const chatId = to.chatId;
    if (typeof chatId !== "string" && typeof chatId !== "number") {
      throw new ChannelError("telegram: the reply handle has no chatId", { retryable: false });
    }
    const body: Record<string, unknown> = { chat_id: chatId, text };
    // In a group, quote the question so the answer is visibly tied to it.
    if (to.isGroup === true && typeof to.messageId === "number") {
      body.reply_parameters = { message_id: to.messageId, allow_sending_without_reply: true };
    }
    const token = botToken(config);
    const result = await callBotApi("sendMessage", body, token, io).catch((error: unknown) => {
      // A group upgraded to a supergroup gets a new id; Telegram names it once, so follow it.
      if (!(error instanceof TelegramApiError) || error.migrateToChatId === undefined) throw error;
      delete body.reply_parameters;
      return callBotApi("sendMessage", { ...body, chat_id: error.migrateToChatId }, token, io);
    });
    return { ids: [String(numberAt(result, "message_id") ?? "")] };
  },

  async fetchMedia(attachment, _message, config, io) {
    const file = await downloadTelegramFile(attachment.ref, botToken(config), io);
    // Telegram keeps the sender's document name and type on the message, not on the file.
    return {
      bytes: file.bytes,
      ...((attachment.mime ?? file.mime) ? { mime: attachment.mime ?? file.mime } : {}),
      ...((attachment.name ?? file.name) ? { name: attachment.name ?? file.name } : {}),
    };
  },

  async sendImage(to, image, config, io) {
    const chatId = to.chatId;
    if (typeof chatId !== "string" && typeof chatId !== "number") {
      throw new ChannelError("telegram: the reply handle has no chatId", { retryable: false });
    }
    const form = (target: string | number) => {
      const body = new FormData();
      body.set("chat_id", String(target));
      body.set("photo", imageBlob(image), image.name);
      return body;
    };
    const token = botToken(config);
    const result = await callBotApi("sendPhoto", form(chatId), token, io).catch((error: unknown) => {
      if (!(error instanceof TelegramApiError) || error.migrateToChatId === undefined) throw error;
      return callBotApi("sendPhoto", form(error.migrateToChatId), token, io);
    });
    return { ids: [String(numberAt(result, "message_id") ?? "")] };
  },

  async register(webhookUrl, config, io) {
    await callBotApi("setWebhook", { url: webhookUrl, secret_token: webhookSecret(config), allowed_updates: ["message"] }, botToken(config), io);
  },

  async probe(config, io) {
    const me = await callBotApi("getMe", {}, botToken(config), io);
    if (!isObject(me) || me.is_bot !== true) throw new ChannelError("telegram getMe: not a bot", { retryable: false });
  },
};
