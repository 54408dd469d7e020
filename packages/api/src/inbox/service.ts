import { withAttachments } from "../chat/files/service";
import { and, asc, desc, eq, gte, inArray, isNotNull, lt, lte, or, sql } from "drizzle-orm";
import { decodeCursor, encodeCursor } from "../db/query-helpers";
import { getAppForChat } from "../apps/service/index";
import { queueSend } from "../channels/pipeline";
import { storeMessage } from "../conversation/store";
import { checkChatFile, chatFileView, filesForTurn, storeChatFile } from "../chat/files/service";
import { channelClients, conversations, messages, users, webClients } from "../db/schema/index";
import { ServiceError } from "../errors";
import type { Auth, Deps } from "../kernel";
import { followsClient } from "../access/follow";
import type { Language } from "../i18n/language";
import { isChannelSession } from "./activity";
import { setServiceMode, transferToHuman, webVisitorOf } from "./handover";
import { recordTransfer } from "../analysis/service/transfers";

type ConversationRow = typeof conversations.$inferSelect;

/** The inbox's sessions the caller reaches: the space's client sessions whose client is in the caller's data range. */
function inboxSessions(auth: Auth) {
  return [eq(conversations.spaceId, auth.spaceId), isNotNull(conversations.clientId), ...optional(followsClient(auth, conversations.clientId))];
}

function optional<T>(value: T | undefined): T[] {
  return value === undefined ? [] : [value];
}

/** Sessions exported at once, and the longest span of days (spec §5 export limits). */
export const EXPORT_MAX_SESSIONS = 30;
export const EXPORT_MAX_DAYS = 31;

/** Filters of the sessions list. */
export interface SessionFilter {
  read?: "all" | "unread" | "read" | undefined;
  clientId?: string | undefined;
  mode?: ConversationRow["serviceMode"] | undefined;
  keyword?: string | undefined;
  /** Only this session (when it passes the other filters): how a console checks a live event against its filters. */
  sessionId?: string | undefined;
  limit: number;
  /** From the previous page's `nextCursor`. */
  cursor?: string | undefined;
}

function parseTags(stored: string): string[] {
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === "string") : [];
  } catch {
    return [];
  }
}

/** The inbox's view of a session (spec §3 Customer session). */
function sessionView(row: ConversationRow, clientNames: Map<string, string>) {
  return {
    sessionId: row.id,
    channelId: row.clientId!,
    channelName: clientNames.get(row.clientId!) ?? "",
    channel: row.channel,
    appId: row.appId,
    isGroup: row.isGroup,
    groupName: row.groupName,
    senderName: row.senderName,
    headImageUrl: row.headImageUrl,
    customerId: row.customerId,
    msgContent: row.lastMessage ?? "",
    lastMessageAt: row.lastMessageAt,
    readStatus: row.readStatus,
    serviceMode: row.serviceMode,
    handoverRequestedAt: row.handoverRequestedAt,
    tags: parseTags(row.tags),
    createdAt: row.createdAt,
  };
}

async function clientNamesOf(deps: Pick<Deps, "db">, spaceId: string): Promise<Map<string, string>> {
  const [channels, web] = await Promise.all([
    deps.db.select({ id: channelClients.id, name: channelClients.name }).from(channelClients).where(eq(channelClients.spaceId, spaceId)),
    deps.db.select({ id: webClients.id, name: webClients.name }).from(webClients).where(eq(webClients.spaceId, spaceId)),
  ]);
  return new Map([...channels, ...web].map((client) => [client.id, client.name]));
}

/** Sessions of the space's clients, latest message first, with the filters of the inbox. */
export async function listSessions(deps: Pick<Deps, "db">, auth: Auth, filter: SessionFilter) {
  const conditions = [...inboxSessions(auth), isNotNull(conversations.lastMessageAt)];
  if (filter.read === "unread") conditions.push(eq(conversations.readStatus, "UNREAD"));
  if (filter.read === "read") conditions.push(eq(conversations.readStatus, "HAVE_READ"));
  if (filter.clientId) conditions.push(eq(conversations.clientId, filter.clientId));
  if (filter.mode) conditions.push(eq(conversations.serviceMode, filter.mode));
  if (filter.sessionId) conditions.push(eq(conversations.id, filter.sessionId));
  if (filter.keyword) {
    const like = `%${filter.keyword.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    conditions.push(
      sql`(${conversations.senderName} LIKE ${like} ESCAPE '\\' OR ${conversations.groupName} LIKE ${like} ESCAPE '\\' OR ${conversations.lastMessage} LIKE ${like} ESCAPE '\\')`,
    );
  }
  if (filter.cursor) {
    const [at, id] = decodeCursor(filter.cursor);
    conditions.push(or(lt(conversations.lastMessageAt, at), and(eq(conversations.lastMessageAt, at), lt(conversations.id, id)))!);
  }
  const rows = await deps.db
    .select()
    .from(conversations)
    .where(and(...conditions))
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(filter.limit + 1);
  const page = rows.slice(0, filter.limit);
  const names = await clientNamesOf(deps, auth.spaceId);
  const unread = await deps.db
    .select({ count: sql<number>`count(*)` })
    .from(conversations)
    .where(and(...inboxSessions(auth), eq(conversations.readStatus, "UNREAD")))
    .get();
  return {
    items: page.map((row) => sessionView(row, names)),
    nextCursor: rows.length > filter.limit ? encodeCursor(page.at(-1)!.lastMessageAt, page.at(-1)!.id) : null,
    unreadCount: Number(unread?.count ?? 0),
  };
}

async function loadSession(deps: Pick<Deps, "db">, auth: Auth, sessionId: string): Promise<ConversationRow> {
  const row = await deps.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, sessionId), ...inboxSessions(auth)))
    .get();
  if (!row) throw new ServiceError("not_found", "session_not_found");
  return row;
}

export async function getSession(deps: Pick<Deps, "db">, auth: Auth, sessionId: string) {
  return sessionView(await loadSession(deps, auth, sessionId), await clientNamesOf(deps, auth.spaceId));
}

/** A session's messages, oldest first: the last `limit`, or those before `before` (a message id). */
export async function sessionHistory(
  deps: Pick<Deps, "db" | "secrets" | "now">,
  auth: Auth,
  sessionId: string,
  input: { limit: number; before?: string | undefined },
) {
  const session = await loadSession(deps, auth, sessionId);
  const conditions = [eq(messages.conversationId, session.id), inArray(messages.role, ["user", "assistant", "operator"])];
  if (input.before) {
    const pivot = await deps.db
      .select({ createdAt: messages.createdAt })
      .from(messages)
      .where(and(eq(messages.id, input.before), eq(messages.conversationId, session.id)))
      .get();
    if (!pivot) throw new ServiceError("validation", "validation_failed", { field: "before", reason: "not a message of this session" }, { field: "before" });
    conditions.push(or(lt(messages.createdAt, pivot.createdAt), and(eq(messages.createdAt, pivot.createdAt), lt(messages.id, input.before)))!);
  }
  const rows = await deps.db
    .select({
      id: messages.id,
      role: messages.role,
      content: messages.content,
      senderName: messages.senderName,
      status: messages.status,
      delivery: messages.delivery,
      deliveryError: messages.deliveryError,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(and(...conditions))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit).reverse();
  const items = await withAttachments(
    deps,
    page.map((row) => ({ ...row, role: row.role as "user" | "assistant" | "operator" })),
  );
  return { items, hasMore: rows.length > input.limit };
}

/** Opening a session reads it (UNREAD → HAVE_READ); the space's consoles follow. */
export async function markRead(deps: Pick<Deps, "db" | "realtime">, auth: Auth, sessionId: string) {
  const session = await loadSession(deps, auth, sessionId);
  if (session.readStatus !== "HAVE_READ") {
    await deps.db.update(conversations).set({ readStatus: "HAVE_READ" }).where(eq(conversations.id, session.id));
    deps.realtime.toSpace(auth.spaceId, "session.read", { sessionId: session.id, readStatus: "HAVE_READ" });
  }
  return { sessionId: session.id, readStatus: "HAVE_READ" as const };
}

/** A session filter's client must be a web or channel client of the caller's space (400 naming `clientId` otherwise). */
async function checkInboxClient(deps: Pick<Deps, "db">, auth: Auth, clientId: string) {
  const web = await deps.db
    .select({ id: webClients.id })
    .from(webClients)
    .where(and(eq(webClients.id, clientId), eq(webClients.spaceId, auth.spaceId), followsClient(auth, webClients.id)))
    .get();
  if (web) return;
  const channel = await deps.db
    .select({ id: channelClients.id })
    .from(channelClients)
    .where(and(eq(channelClients.id, clientId), eq(channelClients.spaceId, auth.spaceId), followsClient(auth, channelClients.id)))
    .get();
  if (!channel) throw new ServiceError("validation", "inbox_client_unknown", { id: clientId }, { field: "clientId" });
}

/** Reads every unread session (of one client when given). */
export async function markAllRead(deps: Pick<Deps, "db" | "realtime">, auth: Auth, clientId?: string) {
  if (clientId) await checkInboxClient(deps, auth, clientId);
  const updated = await deps.db
    .update(conversations)
    .set({ readStatus: "HAVE_READ" })
    .where(and(...inboxSessions(auth), eq(conversations.readStatus, "UNREAD"), ...(clientId ? [eq(conversations.clientId, clientId)] : [])))
    .returning({ id: conversations.id });
  for (const row of updated) deps.realtime.toSpace(auth.spaceId, "session.read", { sessionId: row.id, readStatus: "HAVE_READ" });
  return { read: updated.length };
}

/**
 * Switches a session's reply mode. Taking over (MANUAL_MODE) and handing back are confirmed
 * steps (spec §4): without `confirm` nothing changes.
 */
export async function changeServiceMode(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "models" | "now" | "realtime" | "secrets" | "sms">,
  auth: Auth,
  sessionId: string,
  input: { serviceMode: ConversationRow["serviceMode"]; confirm: boolean },
  /** The operator's language: the notice members get is written in it. */
  language: Language = "en",
) {
  const session = await loadSession(deps, auth, sessionId);
  if (!input.confirm) throw new ServiceError("validation", "session_mode_confirm", {}, { field: "confirm" });
  // Group reply is the AI answering in a group chat: a one-to-one session has no such mode.
  if (input.serviceMode === "GROUP_MODE" && !session.isGroup) {
    throw new ServiceError(
      "validation",
      "validation_failed",
      { field: "serviceMode", reason: "only group sessions have group reply" },
      { field: "serviceMode" },
    );
  }
  if (input.serviceMode === "MANUAL_MODE" && session.serviceMode !== "MANUAL_MODE") {
    const app = await getAppForChat(deps, { appId: session.appId });
    await transferToHuman(deps, app, session, { reason: "operator", language });
  } else if (input.serviceMode !== session.serviceMode) {
    await setServiceMode(deps, session, input.serviceMode);
  }
  return getSession(deps, auth, sessionId);
}

/**
 * An operator's message to the customer: stored, then sent through the session's channel (or
 * pushed to the web visitor's socket). Writing in a session the AI runs takes it over.
 */
/** Who an operator's images belong to, as chat files (their own uploads, not the customer's). */
const operatorOwner = (auth: Auth) => `operator:${auth.userId}`;

/**
 * Stores an image an operator will send in a session (JPEG or PNG under 5 MB, by its bytes). It
 * is the operator's upload for that session until a message carries it.
 */
export async function uploadOperatorImage(deps: Deps, auth: Auth, sessionId: string, file: { name: string; bytes: Uint8Array }) {
  const session = await loadSession(deps, auth, sessionId);
  checkChatFile(file.bytes, file.name, { imagesOnly: true });
  const row = await storeChatFile(deps, {
    spaceId: session.spaceId,
    appId: session.appId,
    endUserId: operatorOwner(auth),
    channel: session.channel,
    conversationId: session.id,
    name: file.name,
    bytes: file.bytes,
  });
  return chatFileView(deps, row);
}

export async function pushOperatorMessage(deps: Deps, auth: Auth, sessionId: string, input: { content: string; fileIds?: string[] | undefined }) {
  const session = await loadSession(deps, auth, sessionId);
  // Only the operator's own uploads for this session, not yet sent (another's file id is not found).
  const files = await filesForTurn(
    deps,
    { spaceId: session.spaceId, appId: session.appId, endUserId: operatorOwner(auth), conversationId: session.id },
    input.fileIds ?? [],
  );
  if (!input.content.trim() && files.length === 0) throw new ServiceError("validation", "field_required", { field: "content" }, { field: "content" });
  const operator = await deps.db.select({ name: users.name }).from(users).where(eq(users.id, auth.userId)).get();
  if (session.serviceMode !== "MANUAL_MODE") {
    // Typing into a session the AI runs takes it over: a transfer to a person like any other
    // (spec §7 transfer-to-manual records), counted once; the operator is there, so no notices.
    await setServiceMode(deps, session, "MANUAL_MODE");
    await recordTransfer(deps, session, { reason: "operator", detail: null, at: deps.now().toISOString() });
  }
  const isChannel = isChannelSession(session);
  const senderName = operator?.name ?? "";
  const id = await storeMessage(deps, {
    conversation: session,
    role: "operator",
    content: input.content,
    ...(senderName ? { senderName } : {}),
    delivery: isChannel ? "pending" : "sent",
    // Bound to the message before it is announced, so its delivery finds them.
    ...(files.length ? { files } : {}),
  });
  const createdAt = deps.now().toISOString();
  const attachments = files.map((file) => chatFileView(deps, file));
  // A pending message goes out through the session's channel when stored (the channels listen for it).
  if (!isChannel) {
    const visitor = await webVisitorOf(deps, session);
    if (visitor)
      deps.realtime.toVisitor(visitor.clientId, visitor.sessionId, "message", {
        id,
        role: "operator",
        content: input.content,
        createdAt,
        ...(attachments.length ? { attachments } : {}),
        ...(senderName ? { senderName } : {}),
      });
  }
  const stored = await deps.db
    .select({ delivery: messages.delivery, deliveryError: messages.deliveryError, createdAt: messages.createdAt })
    .from(messages)
    .where(eq(messages.id, id))
    .get();
  return {
    id,
    role: "operator" as const,
    content: input.content,
    senderName: senderName || null,
    delivery: stored?.delivery ?? null,
    deliveryError: stored?.deliveryError ?? null,
    createdAt: stored?.createdAt ?? createdAt,
    attachments,
  };
}

/**
 * Sends again a message of the session whose delivery failed (a refusal such as a blocked bot):
 * back to pending, then queued like a first send. Anything else is a conflict — a delivered or
 * pending message is never sent twice.
 */
export async function retryDelivery(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, sessionId: string, messageId: string) {
  const session = await loadSession(deps, auth, sessionId);
  const message = await deps.db
    .select({ id: messages.id, role: messages.role, delivery: messages.delivery })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.conversationId, session.id), inArray(messages.role, ["user", "assistant", "operator"])))
    .get();
  if (!message) throw new ServiceError("not_found", "message_not_found");
  if (!isChannelSession(session)) throw new ServiceError("conflict", "message_retry_not_failed");
  // The check and the change are one statement: of two retries at once, one wins.
  const reset = await deps.db
    .update(messages)
    .set({ delivery: "pending", deliveryError: null })
    .where(and(eq(messages.id, message.id), eq(messages.delivery, "failed")))
    .returning({ id: messages.id });
  if (reset.length === 0) throw new ServiceError("conflict", "message_retry_not_failed");
  await queueSend(deps, { id: session.clientId!, spaceId: session.spaceId }, session.id, message.id);
  const stored = await deps.db
    .select({
      id: messages.id,
      role: messages.role,
      content: messages.content,
      senderName: messages.senderName,
      delivery: messages.delivery,
      deliveryError: messages.deliveryError,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(eq(messages.id, message.id))
    .get();
  const [view] = await withAttachments(deps, [{ ...stored!, role: stored!.role as "user" | "assistant" | "operator" }]);
  return view!;
}

function csvCell(value: string): string {
  // Cells starting with = + - @ would run as formulas in spreadsheets.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** An ISO time in a zone `offsetMinutes` behind UTC (Date#getTimezoneOffset's sign): `2026-11-11T07:30:00.000+08:00`. */
export function localIso(utc: string, offsetMinutes: number): string {
  const shifted = new Date(Date.parse(utc) - offsetMinutes * 60_000).toISOString().slice(0, -1);
  const ahead = -offsetMinutes;
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${shifted}${ahead < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(ahead) / 60))}:${pad(Math.abs(ahead) % 60)}`;
}

/**
 * Messages of up to {@link EXPORT_MAX_SESSIONS} sessions between two days (at most
 * {@link EXPORT_MAX_DAYS} apart) as CSV (UTF-8 with a byte-order mark, for spreadsheets). The days
 * are those of the zone `timezoneOffsetMinutes` behind UTC (as Date#getTimezoneOffset gives it;
 * UTC when absent); with an offset, a "local time" column follows the UTC one.
 */
export async function exportSessions(
  deps: Pick<Deps, "db">,
  auth: Auth,
  input: { sessionIds: string[]; from: string; to: string; timezoneOffsetMinutes?: number | undefined },
) {
  const ids = [...new Set(input.sessionIds)];
  if (ids.length === 0 || ids.length > EXPORT_MAX_SESSIONS) {
    throw new ServiceError("validation", "session_export_too_many", { max: EXPORT_MAX_SESSIONS }, { field: "sessionIds" });
  }
  const offset = input.timezoneOffsetMinutes ?? 0;
  // Midnight in a zone 480 minutes ahead (offset -480) is 16:00 UTC the day before.
  const from = new Date(Date.parse(`${input.from}T00:00:00.000Z`) + offset * 60_000);
  const to = new Date(Date.parse(`${input.to}T23:59:59.999Z`) + offset * 60_000);
  const days = (to.getTime() - from.getTime()) / 86_400_000;
  if (!(days > 0) || days > EXPORT_MAX_DAYS) throw new ServiceError("validation", "session_export_span", { days: EXPORT_MAX_DAYS }, { field: "to" });
  const sessions = await deps.db
    .select()
    .from(conversations)
    .where(and(...inboxSessions(auth), inArray(conversations.id, ids)));
  if (sessions.length !== ids.length) throw new ServiceError("not_found", "session_not_found");
  const names = await clientNamesOf(deps, auth.spaceId);
  const rows = await deps.db
    .select({
      conversationId: messages.conversationId,
      role: messages.role,
      content: messages.content,
      senderName: messages.senderName,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(
      and(
        inArray(messages.conversationId, ids),
        inArray(messages.role, ["user", "assistant", "operator"]),
        gte(messages.createdAt, from.toISOString()),
        lte(messages.createdAt, to.toISOString()),
      ),
    )
    .orderBy(asc(messages.conversationId), asc(messages.createdAt), asc(messages.id));
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const local = input.timezoneOffsetMinutes !== undefined;
  const lines = [["session", "channel", "customer", "time", ...(local ? ["local time"] : []), "from", "message"].join(",")];
  for (const row of rows) {
    const session = byId.get(row.conversationId)!;
    const who =
      row.role === "user" ? (row.senderName ?? session.senderName ?? "customer") : row.role === "operator" ? `operator ${row.senderName ?? ""}`.trim() : "AI";
    lines.push(
      [
        row.conversationId,
        names.get(session.clientId!) ?? session.channel,
        session.groupName ?? session.senderName ?? "",
        row.createdAt,
        ...(local ? [localIso(row.createdAt, offset)] : []),
        who,
        row.content,
      ]
        .map((value) => csvCell(String(value)))
        .join(","),
    );
  }
  return { filename: `sessions-${input.from}-${input.to}.csv`, body: `\uFEFF${lines.join("\r\n")}\r\n` };
}
