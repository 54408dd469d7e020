import type { InboundAttachment, InboundMessage } from "../../types";
import { isRecord, text } from "../workplace-shared/http";

function downloadable(kind: InboundAttachment["kind"], content: Record<string, unknown>): InboundAttachment[] {
  const ref = text(content.downloadCode) ?? text(content.pictureDownloadCode);
  if (!ref) return [];
  const name = text(content.fileName);
  return [{ kind, ref, ...(name ? { name } : {}) }];
}

/** Text and attachments of a callback, by `msgtype`. */
function body(payload: Record<string, unknown>): { text: string; attachments: InboundAttachment[] } {
  const content = isRecord(payload.content) ? payload.content : {};
  switch (payload.msgtype) {
    case "text":
      return { text: isRecord(payload.text) && typeof payload.text.content === "string" ? payload.text.content.trim() : "", attachments: [] };
    case "picture":
      return { text: "", attachments: downloadable("image", content) };
    case "audio":
      // DingTalk transcribes voice messages; the transcript is the text.
      return { text: typeof content.recognition === "string" ? content.recognition.trim() : "", attachments: downloadable("audio", content) };
    case "video":
      return { text: "", attachments: downloadable("video", content) };
    case "file":
      return { text: "", attachments: downloadable("file", content) };
    case "richText": {
      const parts = Array.isArray(content.richText) ? content.richText : [];
      const attachments: InboundAttachment[] = [];
      const texts: string[] = [];
      for (const part of parts) {
        if (!isRecord(part)) continue;
        if (typeof part.text === "string") texts.push(part.text);
        else if (part.type === "picture") attachments.push(...downloadable("image", part));
      }
      return { text: texts.join("").trim(), attachments };
    }
    default:
      return { text: "", attachments: [] };
  }
}

/**
 * The message an HTTP-mode robot callback carries (`conversationType` "1" direct, "2" group), with
 * everything `send` needs to answer: the session webhook while it lives, and the conversation and
 * sender ids for the OpenAPI after it expires. Nothing for the robot's own messages.
 */
export function parseDingtalkCallback(payload: unknown): InboundMessage[] {
  if (!isRecord(payload)) return [];
  const msgId = text(payload.msgId);
  const conversationId = text(payload.conversationId);
  const senderId = text(payload.senderId);
  if (!msgId || !conversationId || !senderId) return [];
  if (payload.chatbotUserId !== undefined && senderId === payload.chatbotUserId) return [];
  const content = body(payload);
  if (!content.text && content.attachments.length === 0) return [];
  const isGroup = payload.conversationType === "2";
  const staffId = text(payload.senderStaffId);
  const name = text(payload.senderNick);
  const title = text(payload.conversationTitle);
  const createdAt = Number(payload.createAt);
  const expiresAt = Number(payload.sessionWebhookExpiredTime);
  return [
    {
      dedupeKey: msgId,
      conversation: { id: conversationId, isGroup, ...(isGroup && title ? { name: title } : {}) },
      sender: { id: staffId ?? senderId, isBot: false, ...(name ? { name } : {}) },
      text: content.text,
      attachments: content.attachments,
      sentAt: Number.isFinite(createdAt) ? createdAt : 0,
      reply: {
        sessionWebhook: text(payload.sessionWebhook) ?? null,
        sessionWebhookExpiredTime: Number.isFinite(expiresAt) ? expiresAt : 0,
        conversationId,
        conversationType: isGroup ? "2" : "1",
        senderStaffId: staffId ?? null,
        senderId,
      },
    },
  ];
}
