import type { InboxSession } from "../../lib/api/inbox";

/** A list time: the clock today, else the date (in the interface language). */
export function formatListTime(value: string | null | undefined, language: string, now: Date = new Date()): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const sameDay = date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth() && date.getDate() === now.getDate();
  return new Intl.DateTimeFormat(language, sameDay ? { hour: "2-digit", minute: "2-digit" } : { month: "short", day: "numeric" }).format(date);
}

/** The name a session goes by: the group's, else the sender's (empty when neither is known). */
export function sessionTitle(session: Pick<InboxSession, "isGroup" | "groupName" | "senderName">): string {
  return (session.isGroup ? session.groupName || session.senderName : session.senderName || session.groupName) ?? "";
}
