import { bindFilesToMessage, type ChatFileRow, chatFileView } from "../chat/files/service";
import { and, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { ChatApp } from "../apps/service/index";
import { newId } from "../crypto";
import { prepared } from "../db/prepared";
import { conversations, messages } from "../db/schema/index";
import { fail } from "../errors";
import type { Deps } from "../kernel";
import type { ModelMessage } from "../platform/llm/types";
import { conversationEvents } from "./bus";

/** A conversation as stored. */
export type ConversationRow = typeof conversations.$inferSelect;

/** A source an answer cites: its number in the answer's references ([n]), file name, excerpt and score. */
export interface MessageCitation {
  index: number;
  source: string;
  content: string;
  score?: number;
}

/** A conversation by id, only when it is this app's and this end user's: every turn looks it up. */
const ownConversation = (deps: Pick<Deps, "db">) =>
  prepared(deps.db, "chat.ownConversation", () =>
    deps.db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.id, sql.placeholder("id")),
          eq(conversations.appId, sql.placeholder("appId")),
          eq(conversations.endUserId, sql.placeholder("endUserId")),
        ),
      )
      .prepare(),
  );

/** The conversation `id` when it is this app's and this end user's (the only one a turn may continue). */
export async function findOwnConversation(
  deps: Pick<Deps, "db">,
  input: { id: string; app: ChatApp; endUserId: string },
): Promise<ConversationRow | undefined> {
  return ownConversation(deps).get({ id: input.id, appId: input.app.id, endUserId: input.endUserId });
}

/**
 * Finds the caller's conversation, or starts one. Someone else's conversation id is not found.
 * `found` is the row a caller already looked up (a turn's checks do), so it is not read twice.
 */
export async function openConversation(
  deps: Pick<Deps, "db" | "now">,
  input: { app: ChatApp; endUserId: string; channel: string; conversationId?: string; title: string; found?: ConversationRow },
): Promise<ConversationRow> {
  if (input.conversationId) {
    if (input.found?.id === input.conversationId) return input.found;
    const row = await ownConversation(deps).get({ id: input.conversationId, appId: input.app.id, endUserId: input.endUserId });
    if (!row) throw fail.notFound("conversation");
    return row;
  }
  const now = deps.now().toISOString();
  const row = {
    id: newId("conv"),
    spaceId: input.app.spaceId,
    appId: input.app.id,
    endUserId: input.endUserId,
    channel: input.channel,
    title: input.title.slice(0, 80),
    contextClearedAt: null,
    handoverRequestedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  // RETURNING hands back the stored row with its defaults: no second read.
  const stored = await prepared(deps.db, "chat.insertConversation", () =>
    deps.db
      .insert(conversations)
      .values({
        id: sql.placeholder("id"),
        spaceId: sql.placeholder("spaceId"),
        appId: sql.placeholder("appId"),
        endUserId: sql.placeholder("endUserId"),
        channel: sql.placeholder("channel"),
        title: sql.placeholder("title"),
        contextClearedAt: sql.placeholder("contextClearedAt"),
        createdAt: sql.placeholder("createdAt"),
        updatedAt: sql.placeholder("updatedAt"),
      })
      .returning()
      .prepare(),
  ).get(row);
  if (!stored) throw new Error("conversation vanished after insert");
  return stored;
}

/**
 * The memory handed to the model: the last `memoryTurns` turns (a turn is a user message and
 * its answer) newer than the retention window and the last context clear. Failed answers are
 * skipped; stopped ones count with what was delivered.
 */
export async function loadMemory(
  deps: Pick<Deps, "db" | "now">,
  conversation: ConversationRow,
  app: ChatApp,
  excludeMessageId?: string,
): Promise<ModelMessage[]> {
  if (app.memoryTurns <= 0) return [];
  const retentionStart = new Date(deps.now().getTime() - app.memoryRetentionMinutes * 60_000).toISOString();
  const since = conversation.contextClearedAt && conversation.contextClearedAt > retentionStart ? conversation.contextClearedAt : retentionStart;
  const rows = await deps.db
    .select({ id: messages.id, role: messages.role, content: messages.content, status: messages.status })
    .from(messages)
    .where(and(eq(messages.conversationId, conversation.id), gt(messages.createdAt, since), inArray(messages.role, ["user", "assistant", "operator"])))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(app.memoryTurns * 2);
  // What an operator wrote by hand is the service's side of the conversation, like an answer.
  return rows
    .reverse()
    .filter((row) => row.id !== excludeMessageId && row.status !== "error" && row.content.trim() !== "")
    .map((row) => ({ role: row.role === "user" ? ("user" as const) : ("assistant" as const), content: row.content }));
}

/** Stores one message and announces it ("message.stored"). */
export async function storeMessage(
  deps: Deps,
  input: {
    conversation: ConversationRow;
    role: "user" | "assistant" | "operator";
    content: string;
    /** A group member's or an operator's name. */
    senderName?: string;
    /** Set for messages to be sent out through a channel. */
    delivery?: "pending" | "sent" | "failed";
    status?: "complete" | "stopped" | "error";
    model?: string;
    toolCalls?: unknown;
    /** Sources the answer cites, kept so history shows them. */
    citations?: MessageCitation[];
    /** Files the message carries: bound to the conversation and the message as it is stored. */
    files?: readonly ChatFileRow[];
    id?: string;
    /** Move the conversation's `updatedAt`; the answer does it once per turn. */
    touch?: boolean;
  },
): Promise<string> {
  const id = input.id ?? newId("msg");
  const now = deps.now().toISOString();
  await prepared(deps.db, "chat.insertMessage", () =>
    deps.db
      .insert(messages)
      .values({
        id: sql.placeholder("id"),
        spaceId: sql.placeholder("spaceId"),
        conversationId: sql.placeholder("conversationId"),
        role: sql.placeholder("role"),
        content: sql.placeholder("content"),
        status: sql.placeholder("status"),
        model: sql.placeholder("model"),
        toolCalls: sql.placeholder("toolCalls"),
        citations: sql.placeholder("citations"),
        attachments: sql.placeholder("attachments"),
        senderName: sql.placeholder("senderName"),
        delivery: sql.placeholder("delivery"),
        createdAt: sql.placeholder("createdAt"),
      })
      // An answer stored while it streamed (status `streaming`) is completed in place.
      .onConflictDoUpdate({
        target: messages.id,
        set: {
          content: sql`excluded.content`,
          status: sql`excluded.status`,
          model: sql`excluded.model`,
          toolCalls: sql`excluded.tool_calls`,
          citations: sql`excluded.citations`,
        },
      })
      .prepare(),
  ).run({
    id,
    spaceId: input.conversation.spaceId,
    conversationId: input.conversation.id,
    role: input.role,
    content: input.content,
    status: input.status ?? "complete",
    model: input.model ?? null,
    toolCalls: input.toolCalls === undefined ? null : JSON.stringify(input.toolCalls),
    citations: input.citations && input.citations.length > 0 ? JSON.stringify(input.citations) : null,
    attachments: input.files?.length ? JSON.stringify(input.files.map((file) => file.id)) : null,
    senderName: input.senderName ?? null,
    delivery: input.delivery ?? null,
    createdAt: now,
  });
  if (input.touch !== false) {
    await prepared(deps.db, "chat.touchConversation", () =>
      deps.db
        .update(conversations)
        .set({ updatedAt: sql`${sql.placeholder("updatedAt")}` })
        .where(eq(conversations.id, sql.placeholder("id")))
        .prepare(),
    ).run({ updatedAt: now, id: input.conversation.id });
  }
  if (input.files?.length) {
    await bindFilesToMessage(
      deps,
      input.files.map((file) => file.id),
      input.conversation.id,
      id,
    );
  }
  const message = {
    id,
    role: input.role,
    content: input.content,
    createdAt: now,
    ...(input.files?.length ? { attachments: input.files.map((file) => chatFileView(deps, file)) } : {}),
    ...(input.senderName ? { senderName: input.senderName } : {}),
    ...(input.delivery ? { delivery: input.delivery } : {}),
  };
  // The inbox (session activity) and the channels (deliveries) listen for this.
  await conversationEvents.emit("message.stored", { deps, conversation: input.conversation, message });
  return id;
}

/**
 * Marks a conversation as waiting for a person (no-hit strategy "manual"). The first request's
 * time is kept; later ones do not move it. Chat management's inbox picks these up.
 */
export async function requestHandover(deps: Pick<Deps, "db" | "now">, conversationId: string): Promise<void> {
  await deps.db
    .update(conversations)
    .set({ handoverRequestedAt: deps.now().toISOString() })
    .where(and(eq(conversations.id, conversationId), isNull(conversations.handoverRequestedAt)));
}
