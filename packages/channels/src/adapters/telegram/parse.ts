import type { InboundAttachment, InboundMessage } from "../../types";
import { arrayAt, isObject, numberAt, objectAt, stringAt, type JsonObject } from "../global-shared/http";

/** Chat types a bot answers in; `channel` posts are broadcasts, not conversations. */
const conversationTypes = new Set(["private", "group", "supergroup"]);

/**
 * The message an update carries, if Parley should answer it. Only `message` updates count:
 * `edited_message` is ignored (the original was already answered), as are channel posts and
 * anything sent by a bot (including this one).
 */
export function parseUpdate(update: unknown, botToken: string): InboundMessage[] {
  const updateId = numberAt(update, "update_id");
  const message = objectAt(update, "message");
  if (updateId === undefined || !message) return [];
  const chat = objectAt(message, "chat");
  const from = objectAt(message, "from");
  const chatType = stringAt(chat, "type") ?? "";
  const chatId = numberAt(chat, "id");
  if (chatId === undefined || !conversationTypes.has(chatType)) return [];
  if (!from || from.is_bot === true) return [];
  const isGroup = chatType !== "private";
  const firstName = stringAt(from, "first_name") ?? "";
  const lastName = stringAt(from, "last_name");
  const title = stringAt(chat, "title");
  return [
    {
      // update_id is unique per bot, so the bot id keeps two bots' updates apart.
      dedupeKey: `${botToken.split(":")[0]}:${updateId}`,
      conversation: { id: String(chatId), isGroup, ...(title ? { name: title } : {}) },
      sender: {
        id: String(numberAt(from, "id") ?? ""),
        name: [firstName, lastName].filter(Boolean).join(" ") || stringAt(from, "username") || "",
        isBot: false,
      },
      text: stripOwnCommandSuffix(stringAt(message, "text") ?? stringAt(message, "caption") ?? ""),
      attachments: attachmentsOf(message),
      sentAt: (numberAt(message, "date") ?? 0) * 1000,
      reply: { chatId: String(chatId), messageId: numberAt(message, "message_id") ?? null, isGroup },
    },
  ];
}

/** In groups commands arrive as `/ask@SomeBot question`; the `@SomeBot` part is noise for the agent. */
function stripOwnCommandSuffix(text: string): string {
  return text.replace(/^(\/[A-Za-z0-9_]+)@[A-Za-z0-9_]+/, "$1").trim();
}

function attachmentsOf(message: JsonObject): InboundAttachment[] {
  const attachments: InboundAttachment[] = [];
  // Telegram sends every size of a photo; the last is the largest.
  const photo = arrayAt(message, "photo").filter(isObject).at(-1);
  const photoId = stringAt(photo, "file_id");
  if (photoId) attachments.push({ kind: "image", ref: photoId });
  for (const [key, kind] of [
    ["voice", "audio"],
    ["audio", "audio"],
    ["video", "video"],
    ["video_note", "video"],
    ["document", "file"],
  ] as const) {
    const item = objectAt(message, key);
    const ref = stringAt(item, "file_id");
    if (!ref) continue;
    const mime = stringAt(item, "mime_type");
    const name = stringAt(item, "file_name");
    attachments.push({ kind, ref, ...(mime ? { mime } : {}), ...(name ? { name } : {}) });
  }
  const location = objectAt(message, "location");
  const latitude = numberAt(location, "latitude");
  const longitude = numberAt(location, "longitude");
  if (latitude !== undefined && longitude !== undefined) attachments.push({ kind: "location", ref: `${latitude},${longitude}` });
  return attachments;
}
