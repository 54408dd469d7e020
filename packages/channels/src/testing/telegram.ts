import type { FakeDelivery, FakeFailure, FakeSentMessage, PlatformFake } from "./fake";
import { fakeId, json, serveFetch } from "./fake";

/** The Telegram fake, with what `setWebhook` was last told. */
export interface TelegramFake extends PlatformFake {
  /** The last `setWebhook` call's parameters (undefined before any). */
  readonly webhook: { url: string; secret_token?: string; allowed_updates?: string[] } | undefined;
  /** Makes group `from` a supergroup `to`: sends to `from` then fail with Telegram's migrate_to_chat_id. */
  migrateChat(from: string, to: string): void;
}

/**
 * A local Bot API: `POST /bot<token>/sendMessage|setWebhook|getMe` with Telegram's
 * `{ok, result}` / `{ok:false, error_code, description, parameters}` answers, and updates
 * delivered with the `X-Telegram-Bot-Api-Secret-Token` header.
 */
export async function startTelegramFake(): Promise<TelegramFake> {
  const botToken = "7000000001:AAFakeTelegramBotTokenForParleyTests_x";
  const secretToken = "parley-fake-secret_1";
  const sent: FakeSentMessage[] = [];
  const failures: FakeFailure[] = [];
  const updateIds = new Map<string, number>();
  let nextUpdateId = 500_000_000;
  let nextMessageId = 1;
  let webhook: TelegramFake["webhook"];
  const migrated = new Map<string, string>();

  const error = (status: number, description: string, parameters?: Record<string, unknown>) =>
    json({ ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) }, status);

  const server = await serveFetch(async (request) => {
    const url = new URL(request.url);
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return error(404, "Not Found");
    const [, token, method] = match;
    if (token !== botToken) {
      if (method === "sendMessage") {
        const body = (await request.json().catch(() => ({}))) as { chat_id?: unknown; text?: unknown };
        sent.push({ to: String(body.chat_id ?? ""), text: String(body.text ?? ""), authorized: false, at: Date.now() });
      }
      return error(401, "Unauthorized");
    }
    const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
    if (method === "getMe") {
      return json({ ok: true, result: { id: 7000000001, is_bot: true, first_name: "Parley", username: "parley_fake_bot" } });
    }
    if (method === "setWebhook") {
      webhook = body as NonNullable<TelegramFake["webhook"]>;
      return json({ ok: true, result: true, description: "Webhook was set" });
    }
    if (method !== "sendMessage") return error(404, "Not Found: method not found");
    const failure = failures.shift();
    if (failure === "rate-limited") return error(429, "Too Many Requests: retry after 3", { retry_after: 3 });
    if (failure === "server-error") return error(500, "Internal Server Error");
    if (failure === "token-expired") return error(401, "Unauthorized");
    if (failure === "rejected") return error(400, "Bad Request: chat not found");
    const movedTo = migrated.get(String(body.chat_id));
    if (movedTo) return error(400, "Bad Request: group chat was upgraded to a supergroup chat", { migrate_to_chat_id: Number(movedTo) });
    if (typeof body.text !== "string" || !body.text.trim()) return error(400, "Bad Request: message text is empty");
    if ([...body.text].length > 4096) return error(400, "Bad Request: message is too long");
    sent.push({ to: String(body.chat_id), text: body.text, authorized: true, at: Date.now() });
    const messageId = nextMessageId++;
    return json({
      ok: true,
      result: {
        message_id: messageId,
        from: { id: 7000000001, is_bot: true, first_name: "Parley" },
        chat: { id: Number(body.chat_id) },
        date: Math.floor(Date.now() / 1000),
        text: body.text,
      },
    });
  });

  const update = (message: FakeDelivery) => {
    const id = message.id ?? fakeId("update");
    let updateId = updateIds.get(id);
    if (updateId === undefined) {
      updateId = nextUpdateId++;
      updateIds.set(id, updateId);
    }
    const senderId = Number(/^\d+$/.test(message.senderId ?? "") ? message.senderId : 100000 + (hash(message.senderId ?? "person") % 900000));
    const chatId = message.isGroup ? -1001234567890 : senderId;
    return {
      update_id: updateId,
      message: {
        message_id: updateId - 499_999_000,
        from: { id: senderId, is_bot: false, first_name: message.senderName ?? "Ada", language_code: "en" },
        chat: message.isGroup
          ? { id: message.conversationId ? Number(message.conversationId) : chatId, title: "Parley testers", type: "supergroup" }
          : { id: chatId, first_name: message.senderName ?? "Ada", type: "private" },
        date: Math.floor(Date.now() / 1000),
        text: message.text,
      },
    };
  };

  const deliver = (webhookUrl: string, message: FakeDelivery, secret: string) =>
    new Request(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
      body: JSON.stringify(update(message)),
    });

  return {
    kind: "telegram",
    apiBase: server.url,
    config: { botToken, secretToken },
    get webhook() {
      return webhook;
    },
    migrateChat(from, to) {
      migrated.set(from, to);
    },
    async delivery(webhookUrl, message) {
      return deliver(webhookUrl, message, secretToken);
    },
    async forged(webhookUrl, message) {
      return deliver(webhookUrl, message, `${secretToken}x`);
    },
    sent,
    get tokensIssued() {
      // Bot tokens are static: Telegram has no token endpoint.
      return 0;
    },
    failNext(failure, count = 1) {
      for (let index = 0; index < count; index += 1) failures.push(failure);
    },
    close: server.close,
  };
}

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + char.charCodeAt(0)) >>> 0;
  return value;
}

/** Starts the Telegram fake. */
export const startFake: () => Promise<PlatformFake> = startTelegramFake;
