import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { createAppVia } from "../apps/testing";
import type { ChatEvent } from "../chat/events";
import { conversations, messages, webClientSessions } from "../db/schema/index";
import type { RealtimeTarget } from "../realtime/hub";
import type { TestContext, TestUser } from "../testing/harness";

/** A space with an app and a web client (widget) bound to it. */
export interface InboxSpace {
  user: TestUser;
  appId: string;
  clientId: string;
}

/** Creates an app and a web client for it, through the API. */
export async function inboxSpace(
  ctx: TestContext,
  user: TestUser,
  appOverrides: Record<string, unknown> = {},
  clientName = "Shop widget",
): Promise<InboxSpace> {
  const app = await createAppVia(ctx, user, appOverrides);
  const response = await ctx.request("/api/v1/web-clients", { method: "POST", token: user.token, json: { appId: app.id, name: clientName } });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return { user, appId: app.id, clientId: (JSON.parse(text) as { data: { id: string } }).data.id };
}

/** Another web client on the same app. */
export async function addWebClient(ctx: TestContext, space: InboxSpace, name: string): Promise<string> {
  const response = await ctx.request("/api/v1/web-clients", { method: "POST", token: space.user.token, json: { appId: space.appId, name } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** A web visitor's session, with the inbox session (the conversation) behind it. */
export interface Visitor {
  clientId: string;
  /** The widget session id (wcs_…). */
  widgetSessionId: string;
  visitorToken: string;
  /** The inbox session id (the conversation, conv_…). */
  sessionId: string;
}

/** Starts a widget session the way the widget does. */
export async function startVisitor(ctx: TestContext, clientId: string, body: Record<string, unknown> = {}): Promise<Visitor> {
  const response = await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: body });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  const data = (JSON.parse(text) as { data: { sessionId: string; visitorToken: string } }).data;
  const row = await ctx.deps.db.select().from(webClientSessions).where(eq(webClientSessions.id, data.sessionId)).get();
  return { clientId, widgetSessionId: data.sessionId, visitorToken: data.visitorToken, sessionId: row!.conversationId };
}

/** What one visitor message streamed back. */
export interface VisitorTurn {
  events: ChatEvent[];
  text: string;
  finishReason: string | undefined;
  /** The id of the answer the stream announced. */
  messageId: string | undefined;
}

/** Sends a visitor message and reads the whole server-sent-event answer. */
export async function visitorSays(ctx: TestContext, visitor: Visitor, content: string, headers: Record<string, string> = {}): Promise<VisitorTurn> {
  const response = await ctx.request(`/api/v1/widget/${visitor.clientId}/sessions/${visitor.widgetSessionId}/messages`, {
    method: "POST",
    token: visitor.visitorToken,
    json: { content },
    headers,
  });
  const body = await response.text();
  expect(response.status, body).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const events: ChatEvent[] = [];
  for (const block of body.split("\n\n")) {
    const data = /^data: (.+)$/m.exec(block)?.[1];
    if (data) events.push(JSON.parse(data) as ChatEvent);
  }
  const text = events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");
  const end = events.find((event): event is Extract<ChatEvent, { type: "message-end" }> => event.type === "message-end");
  const start = events.find((event): event is Extract<ChatEvent, { type: "message-start" }> => event.type === "message-start");
  return { events, text, finishReason: end?.finishReason, messageId: start?.messageId };
}

/** The visitor's history, as the widget reads it. */
export async function visitorHistory(ctx: TestContext, visitor: Visitor) {
  const response = await ctx.request(`/api/v1/widget/${visitor.clientId}/sessions/${visitor.widgetSessionId}/messages`, { token: visitor.visitorToken });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { items: Array<{ id: string; role: string; content: string; senderName: string | null }> } }).data.items;
}

/** Every real-time event published from now on. */
export function recordRealtime(ctx: TestContext) {
  const events: Array<{ target: RealtimeTarget; event: string; data: any }> = [];
  const stop = ctx.deps.realtime.subscribe((target, event, data) => events.push({ target, event, data }));
  return {
    events,
    stop,
    clear: () => events.splice(0),
    toSpace: (spaceId: string, event?: string) =>
      events.filter((item) => item.target.kind === "space" && item.target.spaceId === spaceId && (!event || item.event === event)),
    toVisitor: (visitor: Visitor, event?: string) =>
      events.filter(
        (item) =>
          item.target.kind === "visitor" &&
          item.target.clientId === visitor.clientId &&
          item.target.sessionId === visitor.widgetSessionId &&
          (!event || item.event === event),
      ),
  };
}

/** The stored conversation behind an inbox session. */
export async function conversationRow(ctx: TestContext, sessionId: string) {
  return (await ctx.deps.db.select().from(conversations).where(eq(conversations.id, sessionId)).get())!;
}

/** The stored messages of a session, oldest first. */
export async function storedMessages(ctx: TestContext, sessionId: string) {
  const rows = await ctx.deps.db.select().from(messages).where(eq(messages.conversationId, sessionId));
  return rows.sort((a, b) => (a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt.localeCompare(b.createdAt)));
}

/** Replaces the app's handover settings (everything else at its default) through the API. */
export async function setManualService(ctx: TestContext, space: InboxSpace, manualService: Record<string, unknown>) {
  const body = {
    humanization: { splitReply: false, mergeReply: false, mergeDelaySeconds: null, delayReplySeconds: 0 },
    manualService: {
      triggers: [],
      defaultReply: null,
      replyMode: "none",
      delayMinutes: null,
      notifyMemberIds: [],
      summaryTemplate: [],
      aiTagging: false,
      ...manualService,
      notify: { email: false, sms: false, wechat: false, webhook: false, webhooks: [], ...(manualService.notify as object | undefined) },
    },
    database: { enabled: false, databaseIds: [] },
  };
  const response = await ctx.request(`/api/v1/apps/${space.appId}/advanced-config`, { method: "PUT", token: space.user.token, json: body });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as { data: any };
}

/** Polls until `check` answers something truthy (background work such as notices). */
type Falsy = undefined | null | false | 0 | "";
export async function eventually<T>(check: () => Promise<T | Falsy> | T | Falsy, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as T;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
