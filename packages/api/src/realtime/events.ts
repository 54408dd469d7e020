import { chatFileSchema } from "../chat/files/schemas";
import { z } from "@hono/zod-openapi";
import type { RealtimeHub } from "./hub";

/**
 * The real-time contract of the two socket.io namespaces (see {@link attachRealtime}):
 * `/console` (signed-in consoles of one space; instance-wide events reach them all) and `/visitor` (one web visitor's session).
 * Services publish through {@link RealtimeHub}; the helpers below type the event names and data.
 */

/** Who wrote a message of a customer session. */
export const sessionMessageRoles = ["user", "assistant", "operator"] as const;
/** Read state of a customer session in the inbox. */
export const readStatuses = ["UNREAD", "HAVE_READ"] as const;
/** Who answers a customer session: the AI, an operator, or the AI in a group. */
export const serviceModes = ["FULL_AUTO_MODE", "MANUAL_MODE", "GROUP_MODE"] as const;

/** A message as the console's inbox shows it. */
export const realtimeMessageSchema = z.object({
  id: z.string(),
  role: z.enum(sessionMessageRoles),
  content: z.string(),
  /** ISO timestamp. */
  createdAt: z.string(),
  /** The operator's (or, in a group, the sender's) name. */
  senderName: z.string().optional(),
  /** Images and files the message carries. */
  attachments: z.array(chatFileSchema).optional(),
});
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;

/** Events of the `/console` namespace, sent to every console of the session's space. */
export const consoleEventSchemas = {
  /** A message was added to a session (visitor, AI or operator). */
  "session.message": z.object({ sessionId: z.string(), message: realtimeMessageSchema }),
  /**
   * A session's summary changed: the changed fields (e.g. `tags`) next to `sessionId`, or the
   * inbox's whole session object as `session`.
   */
  "session.updated": z
    .object({
      sessionId: z.string(),
      session: z.record(z.string(), z.unknown()).optional(),
      tags: z.array(z.string()).optional(),
    })
    .passthrough(),
  /** A session was read or marked unread. */
  "session.read": z.object({ sessionId: z.string(), readStatus: z.enum(readStatuses) }),
  /** A session's service mode changed. */
  "session.mode": z.object({ sessionId: z.string(), serviceMode: z.enum(serviceModes) }),
  /** A message sent out through a messaging channel was accepted by the platform, or failed. */
  "session.delivery": z.object({ sessionId: z.string(), messageId: z.string(), delivery: z.enum(["sent", "failed"]), error: z.string().optional() }),
  /**
   * Who may do what in the space changed: a role's grants or data range, a member's role, a member
   * removed or gone. Consoles read their privileges again (menus and guard follow without a
   * reload); the socket server first checks the space's sockets again, so a removed member's
   * socket leaves the room before the event is sent.
   */
  "access.changed": z.object({
    reason: z.enum(["role", "member", "removed", "owner"]),
    userIds: z.array(z.string()).optional(),
    roleId: z.string().optional(),
  }),
  /**
   * The instance administrator published an announcement (sent to every console of the instance,
   * or of spaces of the announcement's grade): consoles read their unread count again.
   */
  "announcement.published": z.object({ id: z.string(), title: z.string() }),
} as const;

/** Events of the `/visitor` namespace, sent to one web visitor's session. */
export const visitorEventSchemas = {
  /** A message for the visitor outside an answer stream: an operator's reply (or an AI one). */
  message: z.object({
    id: z.string(),
    role: z.enum(["operator", "assistant"]),
    content: z.string(),
    createdAt: z.string(),
    senderName: z.string().optional(),
    /** Images and files the message carries (an operator's image). */
    attachments: z.array(chatFileSchema).optional(),
  }),
  /** The session's service mode changed (e.g. an operator took over). */
  mode: z.object({ serviceMode: z.enum(serviceModes) }),
} as const;

/** Event name → data of the `/console` namespace. */
export type ConsoleEvents = { [K in keyof typeof consoleEventSchemas]: z.infer<(typeof consoleEventSchemas)[K]> };
/** Event name → data of the `/visitor` namespace. */
export type VisitorEvents = { [K in keyof typeof visitorEventSchemas]: z.infer<(typeof visitorEventSchemas)[K]> };

/** Publishes a typed event to every console of a space. */
export function publishToSpace<K extends keyof ConsoleEvents>(hub: RealtimeHub, spaceId: string, event: K, data: ConsoleEvents[K]): void {
  hub.toSpace(spaceId, event, data);
}

/** Publishes a typed event to every console of the instance, or of spaces of one member grade. */
export function publishToInstance<K extends keyof ConsoleEvents>(hub: RealtimeHub, event: K, data: ConsoleEvents[K], grade?: string): void {
  hub.toInstance(event, data, grade);
}

/** Publishes a typed event to one web visitor's session. */
export function publishToVisitor<K extends keyof VisitorEvents>(hub: RealtimeHub, clientId: string, sessionId: string, event: K, data: VisitorEvents[K]): void {
  hub.toVisitor(clientId, sessionId, event, data);
}
