import { getAppForChat } from "../apps/service/index";
import type { ChatEvent } from "../chat/events";
import type { conversations, messages } from "../db/schema/index";
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
    // A platform's person cannot pick another model: the app answers without the pictures it cannot read.
    ...(options.fileIds?.length ? { fileIds: options.fileIds, imagesOptional: true } : {}),
  };
  let events: AsyncGenerator<ChatEvent>;
  try {
    events = await answerTurn(deps, turn);
  } catch (error) {
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
