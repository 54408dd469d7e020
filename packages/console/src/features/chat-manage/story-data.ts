import type { InboxMessage, InboxSession } from "../../lib/api/inbox";

/** A session for stories. */
export function storySession(id: string, patch: Partial<InboxSession> = {}): InboxSession {
  return {
    sessionId: id,
    channelId: "ch_telegram",
    channelName: "Support on Telegram",
    channel: "telegram",
    appId: "app_1",
    isGroup: false,
    groupName: null,
    senderName: "Ada Lovelace",
    headImageUrl: null,
    customerId: "cus_1",
    msgContent: "Hello, where is my parcel?",
    lastMessageAt: new Date().toISOString(),
    readStatus: "HAVE_READ",
    serviceMode: "FULL_AUTO_MODE",
    handoverRequestedAt: null,
    tags: [],
    createdAt: new Date().toISOString(),
    ...patch,
  };
}

/** A message for stories. */
export function storyMessage(id: string, role: InboxMessage["role"], content: string, patch: Partial<InboxMessage> = {}): InboxMessage {
  return { id, role, content, senderName: null, delivery: null, deliveryError: null, createdAt: "2026-11-21T10:14:00Z", attachments: [], ...patch };
}
