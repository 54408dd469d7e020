import type { FakeDelivery, FakeFailure, FakeSentMessage, PlatformFake } from "./fake";
import { fakeId, json, mediaResponse, serveFetch, type FakeMedia } from "./fake";

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
  /** Files people sent, by file_id (what getFile and /file/bot<token>/<path> serve). */
  const files = new Map<string, { path: string; media: FakeMedia }>();
  let nextFile = 1;
  const keepFile = (media: FakeMedia) => {
    const number = nextFile++;
    const fileId = `AgACAgQAAxkBAAI${number}fakeFileId${Math.random().toString(36).slice(2, 10)}`;
    const extension = media.kind === "image" ? "jpg" : (media.name?.split(".").at(-1) ?? "bin");
    files.set(fileId, { path: `${media.kind === "image" ? "photos" : "documents"}/file_${number}.${extension}`, media });
    return fileId;
  };

  const error = (status: number, description: string, parameters?: Record<string, unknown>) =>
    json({ ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) }, status);

  const server = await serveFetch(async (request) => {
    const url = new URL(request.url);
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (download) {
      const file = [...files.values()].find((entry) => entry.path === download[2]);
      if (download[1] !== botToken) return error(401, "Unauthorized");
      return file ? mediaResponse(file.media) : error(404, "Not Found");
    }
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
    if (method === "sendPhoto") return sendPhoto(await request.formData().catch(() => undefined));
    const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
    if (method === "getFile") {
      const file = typeof body.file_id === "string" ? files.get(body.file_id) : undefined;
      if (!file) return error(400, "Bad Request: invalid file_id");
      return json({
        ok: true,
        result: {
          file_id: body.file_id,
          file_unique_id: `u${String(body.file_id).slice(-8)}`,
          ...(file.media.hideSize ? {} : { file_size: file.media.bytes.byteLength }),
          file_path: file.path,
        },
      });
    }
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

  const sendPhoto = async (form: FormData | undefined) => {
    const chatId = form?.get("chat_id");
    const photo = form?.get("photo");
    if (typeof chatId !== "string" || !chatId) return error(400, "Bad Request: chat_id is empty");
    const movedTo = migrated.get(chatId);
    if (movedTo) return error(400, "Bad Request: group chat was upgraded to a supergroup chat", { migrate_to_chat_id: Number(movedTo) });
    if (!(photo instanceof File) || photo.size === 0) return error(400, "Bad Request: there is no photo in the request");
    const bytes = new Uint8Array(await photo.arrayBuffer());
    const isImage = (bytes[0] === 0xff && bytes[1] === 0xd8) || (bytes[0] === 0x89 && bytes[1] === 0x50);
    if (!isImage) return error(400, "Bad Request: IMAGE_PROCESS_FAILED");
    if (bytes.byteLength > 10 * 1024 * 1024) return error(400, "Bad Request: PHOTO_INVALID_DIMENSIONS");
    sent.push({ to: chatId, text: "", authorized: true, at: Date.now(), image: { bytes, mime: photo.type, name: photo.name } });
    const messageId = nextMessageId++;
    const fileId = keepFile({ kind: "image", bytes, mime: "image/jpeg" });
    return json({
      ok: true,
      result: {
        message_id: messageId,
        from: { id: 7000000001, is_bot: true, first_name: "Parley" },
        chat: { id: Number(chatId) },
        date: Math.floor(Date.now() / 1000),
        photo: [{ file_id: fileId, file_unique_id: "p1", width: 320, height: 320, file_size: bytes.byteLength }],
      },
    });
  };

  const mediaFields = (media: FakeMedia[] | undefined) => {
    const fields: Record<string, unknown> = {};
    for (const item of media ?? []) {
      const fileId = keepFile(item);
      const size = item.hideSize ? {} : { file_size: item.bytes.byteLength };
      if (item.kind === "image") {
        // Telegram sends every size it made of the photo, smallest first.
        fields.photo = [
          { file_id: `${fileId}_thumb`, file_unique_id: "t1", width: 90, height: 90, file_size: 1200 },
          { file_id: fileId, file_unique_id: "p1", width: 1280, height: 960, ...size },
        ];
      } else {
        fields.document = {
          file_id: fileId,
          file_unique_id: "d1",
          file_name: item.name ?? "file",
          mime_type: item.mime ?? "application/octet-stream",
          ...size,
        };
      }
    }
    return fields;
  };

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
        ...(message.media?.length ? { ...(message.text ? { caption: message.text } : {}), ...mediaFields(message.media) } : { text: message.text }),
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
