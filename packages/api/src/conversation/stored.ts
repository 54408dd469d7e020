import { getAppForChat } from "../apps/service/index";
import type { ChatEvent } from "../chat/events";
import { and, eq, inArray } from "drizzle-orm";
import { chatFiles, type conversations, type messages } from "../db/schema/index";
import { ServiceError } from "../errors";
import type { Deps } from "../kernel";
import type { Language } from "../i18n/language";
import { answerTurn } from "./answer";

type ConversationRow = typeof conversations.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

const CJK = /[\u3400-\u9fff]/;
/** The language of a customer's message, for the few texts Parley itself writes into an answer. */
export function languageOf(text: string): Language {
  return CJK.test(text) ? "zh-CN" : "en";
}

/**
 * Lets the app answer a customer's message that is already stored in an inbox session (a
 * channel's message, a delayed reply after a handover). Answers the stored answer's id and
 * text; nothing when the app refused (no credits, rate limit without a reply) or stayed silent
 * for a person.
 */
export async function answerStoredMessage(
  deps: Deps,
  conversation: ConversationRow,
  message: MessageRow,
  options: { channel: string; skipHandover?: boolean; heartbeat?: () => Promise<void>; fileIds?: string[] },
): Promise<{ id: string; text: string } | undefined> {
  const app = await getAppForChat(deps, { appId: conversation.appId });
  const turn = {
    app,
    endUserId: conversation.endUserId,
    channel: options.channel,
    conversationId: conversation.id,
    text: message.content,
    language: languageOf(message.content),
    storedMessageId: message.id,
    ...(options.skipHandover ? { skipHandover: true } : {}),
    // The files of the person's message (a channel's images and documents, already stored).
    ...(options.fileIds?.length ? { fileIds: options.fileIds } : {}),
  };
  let events: AsyncGenerator<ChatEvent>;
  try {
    events = await answerTurn(deps, turn);
  } catch (error) {
    // A platform's person cannot pick another model: the app answers without the pictures (they stay on the message).
    const noVision =
      error instanceof ServiceError && (error.messageId === "chat_model_images_unsupported" || error.messageId === "chat_offline_images_unsupported");
    if (noVision && options.fileIds?.length) {
      const documents = await deps.db
        .select({ id: chatFiles.id })
        .from(chatFiles)
        .where(and(inArray(chatFiles.id, options.fileIds), eq(chatFiles.kind, "document")));
      deps.logger.info("channel images not shown to a model that does not read them", { conversationId: conversation.id, model: error.params.model });
      return answerStoredMessage(deps, conversation, message, { ...options, fileIds: documents.map((row) => row.id) });
    }
    if (error instanceof ServiceError) {
      deps.logger.warn("inbox message not answered", { conversationId: conversation.id, reason: error.messageId });
      return undefined;
    }
    throw error;
  }
  let text = "";
  let id: string | undefined;
  const beat = options.heartbeat ? setInterval(() => void options.heartbeat!().catch(() => {}), 20_000) : undefined;
  try {
    for await (const event of events) {
      if (event.type === "message-start") id = event.messageId;
      else if (event.type === "text-delta") text += event.text;
    }
  } finally {
    if (beat) clearInterval(beat);
  }
  return id && text.trim() ? { id, text } : undefined;
}
