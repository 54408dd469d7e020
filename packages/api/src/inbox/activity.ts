import type { ChatFileView } from "../chat/files/service";
import { eq } from "drizzle-orm";
import { conversations } from "../db/schema/index";
import type { Deps } from "../kernel";
import { WEB_EMBED_CHANNEL } from "../clients/service";
import { conversationEvents, type ConversationEvents } from "../conversation/bus";

type ConversationRow = typeof conversations.$inferSelect;

/** A session of a messaging platform (its answers go out through a channel client), not of the web widget. */
export function isChannelSession(conversation: Pick<ConversationRow, "clientId" | "channel">): boolean {
  return conversation.clientId !== null && conversation.channel !== WEB_EMBED_CHANNEL;
}

/** A message as the inbox and its sockets show it. */
export interface InboxMessage {
  id: string;
  role: "user" | "assistant" | "operator";
  content: string;
  createdAt: string;
  senderName?: string;
  attachments?: ChatFileView[];
}

/** The list shows this much of the last message. */
const PREVIEW_CHARACTERS = 200;

/**
 * Keeps a client conversation's inbox fields in step with a new message: the last message and
 * its time move the session to the top; a message from the customer marks it unread. Consoles of
 * the space hear about it at once.
 */
export async function recordSessionActivity(deps: Pick<Deps, "db" | "realtime">, conversation: ConversationRow, message: InboxMessage): Promise<void> {
  const incoming = message.role === "user";
  // A message of files alone shows their names, e.g. "[photo.png]".
  const said = message.content.trim() || (message.attachments ?? []).map((file) => `[${file.name}]`).join(" ");
  const preview = said.replace(/\s+/g, " ").trim().slice(0, PREVIEW_CHARACTERS);
  await deps.db
    .update(conversations)
    .set({ lastMessage: preview, lastMessageAt: message.createdAt, ...(incoming ? { readStatus: "UNREAD" as const } : {}) })
    .where(eq(conversations.id, conversation.id));
  deps.realtime.toSpace(conversation.spaceId, "session.message", { sessionId: conversation.id, message });
  if (incoming) deps.realtime.toSpace(conversation.spaceId, "session.read", { sessionId: conversation.id, readStatus: "UNREAD" });
}

/**
 * Keeps inbox sessions in step with every message stored in a client's conversation. Subscribed
 * at start-up, so the conversation core does not import the inbox.
 */
export function followStoredMessages(): void {
  conversationEvents.on("message.stored", recordOnStore);
}

async function recordOnStore({ deps, conversation, message }: ConversationEvents["message.stored"]) {
  if (!conversation.clientId) return;
  const { id, role, content, createdAt, senderName } = message;
  await recordSessionActivity(deps, conversation, { id, role, content, createdAt, ...(senderName ? { senderName } : {}) });
}
