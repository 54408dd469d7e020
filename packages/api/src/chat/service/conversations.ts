import { withAttachments } from "../files/service";
import { and, asc, desc, eq, inArray, ne, or, type SQL } from "drizzle-orm";
import { followsApp, type RangeCaller } from "../../access/follow";
import type { MessageCitation } from "../../conversation/store";
import { conversations, messages } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Deps } from "../../kernel";

/*
 * What the chat pages read of a person's conversations. Opening conversations and storing
 * messages belong to the conversation core (conversation/store.ts).
 */

function parseCitations(stored: string | null): MessageCitation[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? (value as MessageCitation[]) : [];
  } catch {
    return [];
  }
}

/** Conversations of an end user with an app, newest first. */
export async function listConversations(deps: Pick<Deps, "db">, input: { appId: string; endUserId: string; limit: number }) {
  return deps.db
    .select({
      id: conversations.id,
      title: conversations.title,
      channel: conversations.channel,
      handoverRequestedAt: conversations.handoverRequestedAt,
      createdAt: conversations.createdAt,
      updatedAt: conversations.updatedAt,
    })
    .from(conversations)
    .where(and(eq(conversations.appId, input.appId), eq(conversations.endUserId, input.endUserId)))
    .orderBy(desc(conversations.updatedAt))
    .limit(input.limit);
}

/**
 * A conversation of the caller's space is read only while its app is in their data range;
 * conversations with public apps of other spaces stay theirs.
 */
export function reachableConversation(auth: RangeCaller): SQL | undefined {
  const range = followsApp(auth, conversations.appId);
  return range ? or(ne(conversations.spaceId, auth.spaceId), range) : undefined;
}

/** Messages of one conversation the end user owns, oldest first. */
export async function listMessages(deps: Pick<Deps, "db" | "secrets" | "now">, input: { conversationId: string; endUserId: string; reach?: SQL | undefined }) {
  const conversation = await deps.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.id, input.conversationId), eq(conversations.endUserId, input.endUserId), input.reach))
    .get();
  if (!conversation) throw fail.notFound("conversation");
  const rows = await deps.db
    .select({
      id: messages.id,
      role: messages.role,
      content: messages.content,
      status: messages.status,
      model: messages.model,
      citations: messages.citations,
      senderName: messages.senderName,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(and(eq(messages.conversationId, input.conversationId), inArray(messages.role, ["user", "assistant", "operator"])))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  return withAttachments(
    deps,
    rows.map((row) => ({ ...row, citations: parseCitations(row.citations) })),
  );
}

/** Delete context: later answers no longer see earlier messages (they stay readable). */
export async function clearContext(deps: Pick<Deps, "db" | "now">, input: { conversationId: string; endUserId: string; reach?: SQL | undefined }) {
  const now = deps.now().toISOString();
  const updated = await deps.db
    .update(conversations)
    .set({ contextClearedAt: now, updatedAt: now })
    .where(and(eq(conversations.id, input.conversationId), eq(conversations.endUserId, input.endUserId), input.reach))
    .returning({ id: conversations.id });
  if (updated.length === 0) throw fail.notFound("conversation");
  return { clearedAt: now };
}
