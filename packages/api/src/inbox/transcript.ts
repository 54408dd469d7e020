import { and, desc, eq, inArray } from "drizzle-orm";
import type { ChatApp } from "../apps/service/index";
import { type conversations, messages } from "../db/schema/index";
import type { Deps } from "../kernel";
import type { Language } from "../i18n/language";

type ConversationRow = typeof conversations.$inferSelect;

/** The last messages of a conversation, oldest first. */
export async function recentMessages(deps: Pick<Deps, "db">, conversationId: string, limit = 20) {
  const rows = await deps.db
    .select({ role: messages.role, content: messages.content, senderName: messages.senderName })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), inArray(messages.role, ["user", "assistant", "operator"])))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
  return rows.reverse();
}

/** The conversation as text, one line per message, each named after who wrote it. */
export function transcriptOf(conversation: ConversationRow, rows: Awaited<ReturnType<typeof recentMessages>>): string {
  return rows
    .map((row) => {
      const who =
        row.role === "user" ? (row.senderName ?? conversation.senderName ?? "Customer") : row.role === "operator" ? (row.senderName ?? "Operator") : "AI";
      return `${who}: ${row.content}`;
    })
    .join("\n");
}

/** The last messages of a conversation as text (what the model reads to summarise or tag it). */
export async function transcript(deps: Pick<Deps, "db">, conversation: ConversationRow): Promise<string> {
  return transcriptOf(conversation, await recentMessages(deps, conversation.id));
}

/** Asks the app's model for text; undefined with the offline responder (it cannot summarise). */
export async function askModel(deps: Pick<Deps, "models">, app: ChatApp, prompt: string, language: Language): Promise<string | undefined> {
  const resolved = deps.models.resolve(app.defaultModel) ?? deps.models.fallback();
  if (resolved.model.offline) return undefined;
  let text = "";
  for await (const part of resolved.provider.stream({ model: resolved.model.id, messages: [{ role: "user", content: prompt }], temperature: 0, language })) {
    if (part.type === "text-delta") text += part.text;
  }
  return text.trim() || undefined;
}
