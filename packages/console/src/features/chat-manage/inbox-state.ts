import type { InboxMessage, InboxSession, ReadFilter } from "../../lib/api/inbox";

/** The list's filters: read type, client (spec §4) and a keyword the server matches. */
export interface InboxFilters {
  read: ReadFilter;
  clientId?: string | undefined;
  /** Part of the sender's name, group name or last message; only the server judges it. */
  keyword?: string | undefined;
}

/** Sessions exported at once and the longest span of days, as the server checks them (spec §5). */
export const EXPORT_LIMITS = { maxSessions: 30, maxDays: 31 } as const;

/** Whether a session belongs in the list under `filters`. */
export function matchesFilters(session: Pick<InboxSession, "readStatus" | "channelId">, filters: InboxFilters): boolean {
  if (filters.clientId && session.channelId !== filters.clientId) return false;
  if (filters.read === "unread") return session.readStatus === "UNREAD";
  if (filters.read === "read") return session.readStatus === "HAVE_READ";
  return true;
}

/** Latest message first; ties by id, as the server orders them. */
export function sortSessions(sessions: readonly InboxSession[]): InboxSession[] {
  return [...sessions].sort((a, b) => {
    const at = (b.lastMessageAt ?? "").localeCompare(a.lastMessageAt ?? "");
    return at !== 0 ? at : b.sessionId.localeCompare(a.sessionId);
  });
}

/** A message as the socket announces it. */
export interface IncomingMessage {
  id: string;
  role: InboxMessage["role"];
  content: string;
  createdAt: string;
  senderName?: string | undefined;
  attachments?: InboxMessage["attachments"] | undefined;
}

/** What the list shows of the last message. */
export function previewOf(content: string): string {
  return content.replace(/\s+/g, " ").trim().slice(0, 200);
}

/**
 * The list after a new message of `sessionId`: the session takes the message as its preview and
 * time, a customer's message marks it unread, and it moves to the top — or leaves the list when
 * it no longer matches the filters (spec §4). `known` is the session when it was not listed
 * (fetched by the caller); without it an unlisted session stays out.
 */
export function applyMessage(
  list: readonly InboxSession[],
  sessionId: string,
  message: IncomingMessage,
  filters: InboxFilters,
  known?: InboxSession,
): InboxSession[] {
  const current = list.find((session) => session.sessionId === sessionId) ?? known;
  const rest = list.filter((session) => session.sessionId !== sessionId);
  if (!current) return [...list];
  const newer = !current.lastMessageAt || message.createdAt >= current.lastMessageAt;
  const updated: InboxSession = {
    ...current,
    ...(newer ? { msgContent: previewOf(message.content), lastMessageAt: message.createdAt } : {}),
    ...(message.role === "user" ? { readStatus: "UNREAD" as const } : {}),
  };
  if (!matchesFilters(updated, filters)) return rest;
  return sortSessions([updated, ...rest]);
}

/** The list with `sessionId` changed in place (read state, mode, tags …); an unlisted session changes nothing. */
export function patchSession(list: readonly InboxSession[], sessionId: string, patch: Partial<InboxSession>): InboxSession[] {
  return list.map((session) => (session.sessionId === sessionId ? { ...session, ...patch, sessionId } : session));
}

/** Keeps the later of two delivery states: a result (sent, failed) beats pending, which beats none. */
function laterDelivery(a: InboxMessage, b: InboxMessage): Pick<InboxMessage, "delivery" | "deliveryError"> {
  const rank = (message: InboxMessage) => (message.delivery === "sent" || message.delivery === "failed" ? 2 : message.delivery === "pending" ? 1 : 0);
  const winner = rank(b) >= rank(a) ? b : a;
  return { delivery: winner.delivery, deliveryError: winner.deliveryError };
}

/**
 * A history with `message` added or merged by id (the reply's answer and the socket's event
 * both bring it), oldest first.
 */
export function upsertMessage(history: readonly InboxMessage[], message: InboxMessage): InboxMessage[] {
  const existing = history.find((item) => item.id === message.id);
  const merged = existing ? { ...existing, ...message, senderName: message.senderName ?? existing.senderName, ...laterDelivery(existing, message) } : message;
  const others = history.filter((item) => item.id !== message.id);
  return [...others, merged].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** A history message from the socket's shape (its delivery is not known yet). */
export function fromIncoming(message: IncomingMessage): InboxMessage {
  return {
    id: message.id,
    role: message.role,
    content: message.content,
    senderName: message.senderName ?? null,
    delivery: null,
    deliveryError: null,
    createdAt: message.createdAt,
    attachments: message.attachments ?? [],
  };
}

/** The history after a delivery result for one message. */
export function applyDelivery(history: readonly InboxMessage[], messageId: string, delivery: "sent" | "failed", error?: string): InboxMessage[] {
  return history.map((message) =>
    message.id === messageId ? { ...message, delivery, deliveryError: delivery === "failed" ? (error ?? message.deliveryError) : null } : message,
  );
}

/** The history after a retry was accepted: the message as answered, unless it was delivered meanwhile. */
export function applyRetry(history: readonly InboxMessage[], retried: InboxMessage): InboxMessage[] {
  return history.map((message) => (message.id === retried.id && message.delivery !== "sent" ? { ...message, ...retried } : message));
}

/** Older messages placed before the loaded ones, without duplicates. */
export function prependOlder(history: readonly InboxMessage[], older: readonly InboxMessage[]): InboxMessage[] {
  const ids = new Set(history.map((message) => message.id));
  return [...older.filter((message) => !ids.has(message.id)), ...history];
}

/** Days from `from` to `to` counted inclusively (YYYY-MM-DD), or NaN for a malformed day. */
export function daySpan(from: string, to: string): number {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (!day.test(from) || !day.test(to)) return Number.NaN;
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** What is wrong with an export request (a translation key), or undefined — the server's rules. */
export function checkExport(sessionIds: readonly string[], from: string, to: string): string | undefined {
  if (sessionIds.length === 0) return "chatManage.export.noneSelected";
  if (new Set(sessionIds).size > EXPORT_LIMITS.maxSessions) return "chatManage.export.tooMany";
  const span = daySpan(from, to);
  if (Number.isNaN(span)) return "chatManage.export.rangeRequired";
  if (span < 1) return "chatManage.export.rangeOrder";
  if (span > EXPORT_LIMITS.maxDays) return "chatManage.export.rangeTooLong";
  return undefined;
}

/** YYYY-MM-DD of a date in local time. */
export function dayOf(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
