import type { InboundAttachment, InboundMessage } from "../../types";
import { isRecord, parseJsonObject, text } from "../workplace-shared/http";

interface Mention {
  key: string;
  name: string;
}

function mentionsOf(value: unknown): Mention[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((mention): Mention[] =>
    isRecord(mention) && typeof mention.key === "string" ? [{ key: mention.key, name: typeof mention.name === "string" ? mention.name : "" }] : [],
  );
}

/**
 * Text with its `@_user_N` placeholders resolved: the mentions the message starts with (the bot
 * being addressed) are removed, later ones become `@name`; `@_all` becomes `@all`.
 */
export function feishuPlainText(raw: string, mentions: Mention[]): string {
  const byKey = new Map(mentions.map((mention) => [mention.key, mention.name]));
  let value = raw.trimStart();
  for (;;) {
    const leading = /^@_(?:user_\d+|all)\s*/.exec(value);
    if (!leading) break;
    value = value.slice(leading[0].length);
  }
  value = value.replace(/@_user_\d+/g, (key) => (byKey.get(key) ? `@${byKey.get(key)}` : ""));
  value = value.replace(/@_all/g, "@all");
  return value.replace(/[ \t]{2,}/g, " ").trim();
}

/** A rich-text (`post`) body flattened to lines of plain text; images in it become attachments. */
function postContent(content: Record<string, unknown>, mentions: Mention[]): { text: string; attachments: InboundAttachment[] } {
  // Received posts are `{title, content}`; some clients nest them under a locale such as `zh_cn`.
  const body = Array.isArray(content.content) ? content : Object.values(content).find((value) => isRecord(value) && Array.isArray(value.content));
  if (!isRecord(body) || !Array.isArray(body.content)) return { text: "", attachments: [] };
  const attachments: InboundAttachment[] = [];
  const lines = body.content.map((paragraph) =>
    (Array.isArray(paragraph) ? paragraph : [])
      .map((element) => {
        if (!isRecord(element)) return "";
        if (element.tag === "text" || element.tag === "a") return typeof element.text === "string" ? element.text : "";
        if (element.tag === "at") return typeof element.user_id === "string" ? `@${element.user_id}` : "";
        if (element.tag === "img" && typeof element.image_key === "string") attachments.push({ kind: "image", ref: element.image_key });
        return "";
      })
      .join(""),
  );
  const title = typeof body.title === "string" && body.title ? [body.title] : [];
  return { text: feishuPlainText([...title, ...lines].join("\n"), mentions), attachments };
}

function contentOf(messageType: string, content: Record<string, unknown>, mentions: Mention[]): { text: string; attachments: InboundAttachment[] } {
  switch (messageType) {
    case "text":
      return { text: feishuPlainText(typeof content.text === "string" ? content.text : "", mentions), attachments: [] };
    case "post":
      return postContent(content, mentions);
    case "image":
      return { text: "", attachments: text(content.image_key) ? [{ kind: "image", ref: content.image_key as string }] : [] };
    case "file":
    case "audio":
    case "media": {
      const ref = text(content.file_key);
      if (!ref) return { text: "", attachments: [] };
      const kind = messageType === "file" ? "file" : messageType === "audio" ? "audio" : "video";
      const name = text(content.file_name);
      return { text: "", attachments: [{ kind, ref, ...(name ? { name } : {}) }] };
    }
    default:
      return { text: "", attachments: [] };
  }
}

/**
 * The message an `im.message.receive_v1` event (schema 2.0) carries; nothing for other events,
 * v1 events, messages sent by apps (ours included) and message types with neither text nor a file.
 */
export function parseFeishuEvent(payload: unknown): InboundMessage[] {
  if (!isRecord(payload) || payload.schema !== "2.0" || !isRecord(payload.header) || !isRecord(payload.event)) return [];
  const { header, event } = payload;
  if (header.event_type !== "im.message.receive_v1") return [];
  const eventId = text(header.event_id);
  const sender = isRecord(event.sender) ? event.sender : undefined;
  const message = isRecord(event.message) ? event.message : undefined;
  if (!eventId || !sender || !message) return [];
  if (sender.sender_type !== "user") return [];
  const senderIds = isRecord(sender.sender_id) ? sender.sender_id : {};
  const senderId = text(senderIds.open_id) ?? text(senderIds.user_id) ?? text(senderIds.union_id);
  const chatId = text(message.chat_id);
  const messageId = text(message.message_id);
  if (!senderId || !chatId || !messageId) return [];

  const content = typeof message.content === "string" ? parseJsonObject(message.content) : undefined;
  const body = contentOf(typeof message.message_type === "string" ? message.message_type : "", content ?? {}, mentionsOf(message.mentions));
  if (!body.text && body.attachments.length === 0) return [];
  const sentAt = Number(message.create_time ?? header.create_time);
  return [
    {
      dedupeKey: eventId,
      conversation: { id: chatId, isGroup: message.chat_type === "group" },
      sender: { id: senderId, isBot: false },
      text: body.text,
      attachments: body.attachments,
      sentAt: Number.isFinite(sentAt) ? sentAt : 0,
      reply: { chatId, messageId, chatType: typeof message.chat_type === "string" ? message.chat_type : null },
    },
  ];
}
