import type { InboundAttachment, InboundMessage } from "../../types";
import { arrayAt, isObject, numberAt, objectAt, stringAt, type JsonObject } from "../global-shared/http";

/** Free-form replies are accepted this long after the person's last message. */
export const REPLY_WINDOW_HOURS = 24;

const mediaKinds = { image: "image", sticker: "image", audio: "audio", video: "video", document: "file" } as const;

/**
 * Every person's message in a webhook POST: one POST can carry several entries, changes and
 * messages. `statuses[]` (sent/delivered/read receipts of our own messages) yield nothing, and so
 * do changes for another phone number than `phoneNumberId` (when given).
 */
export function parseNotification(payload: unknown, phoneNumberId: string | undefined): InboundMessage[] {
  const messages: InboundMessage[] = [];
  for (const entry of arrayAt(payload, "entry")) {
    for (const change of arrayAt(entry, "changes")) {
      if (stringAt(change, "field") !== "messages") continue;
      const value = objectAt(change, "value");
      const number = stringAt(objectAt(value, "metadata"), "phone_number_id");
      if (!value || !number || (phoneNumberId && number !== phoneNumberId)) continue;
      const names = new Map<string, string>();
      for (const contact of arrayAt(value, "contacts")) {
        const waId = stringAt(contact, "wa_id");
        const name = stringAt(objectAt(contact, "profile"), "name");
        if (waId && name) names.set(waId, name);
      }
      for (const message of arrayAt(value, "messages")) {
        const parsed = isObject(message) ? parseMessage(message, number, names) : undefined;
        if (parsed) messages.push(parsed);
      }
    }
  }
  return messages;
}

function parseMessage(message: JsonObject, phoneNumberId: string, names: Map<string, string>): InboundMessage | undefined {
  const id = stringAt(message, "id");
  const from = stringAt(message, "from");
  const type = stringAt(message, "type") ?? "";
  if (!id || !from) return undefined;
  const content = contentOf(message, type);
  if (!content) return undefined;
  const sentAt = Number(stringAt(message, "timestamp") ?? numberAt(message, "timestamp") ?? 0) * 1000;
  const name = names.get(from);
  return {
    dedupeKey: id,
    conversation: { id: from, isGroup: false, ...(name ? { name } : {}) },
    sender: { id: from, ...(name ? { name } : {}), isBot: false },
    text: content.text,
    attachments: content.attachments,
    sentAt,
    reply: { phoneNumberId, to: from, windowUntil: sentAt + REPLY_WINDOW_HOURS * 3600_000 },
  };
}

/** The text and attachments of one message type; undefined for types Parley does not answer (reactions, system notices, unsupported). */
function contentOf(message: JsonObject, type: string): { text: string; attachments: InboundAttachment[] } | undefined {
  if (type === "text") return { text: stringAt(objectAt(message, "text"), "body") ?? "", attachments: [] };
  if (type === "button") return { text: stringAt(objectAt(message, "button"), "text") ?? "", attachments: [] };
  if (type === "interactive") {
    const interactive = objectAt(message, "interactive");
    const reply = objectAt(interactive, "button_reply") ?? objectAt(interactive, "list_reply");
    return { text: stringAt(reply, "title") ?? "", attachments: [] };
  }
  if (type in mediaKinds) {
    const media = objectAt(message, type);
    const ref = stringAt(media, "id");
    if (!ref) return undefined;
    const mime = stringAt(media, "mime_type");
    const name = stringAt(media, "filename");
    const kind = mediaKinds[type as keyof typeof mediaKinds];
    return { text: stringAt(media, "caption") ?? "", attachments: [{ kind, ref, ...(mime ? { mime } : {}), ...(name ? { name } : {}) }] };
  }
  if (type === "location") {
    const location = objectAt(message, "location");
    const latitude = numberAt(location, "latitude");
    const longitude = numberAt(location, "longitude");
    if (latitude === undefined || longitude === undefined) return undefined;
    const label = [stringAt(location, "name"), stringAt(location, "address")].filter(Boolean).join(", ");
    return { text: label, attachments: [{ kind: "location", ref: `${latitude},${longitude}` }] };
  }
  return undefined;
}
