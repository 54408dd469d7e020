import { chatFileSchema } from "../chat/files/schemas";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { requireAuth } from "../http/auth";
import { defineRoute, idParam, jsonBody, standardErrors } from "../http/openapi";
import { formFile } from "../chat/files/routes";
import {
  changeServiceMode,
  EXPORT_MAX_DAYS,
  EXPORT_MAX_SESSIONS,
  exportSessions,
  getSession,
  listSessions,
  markAllRead,
  markRead,
  pushOperatorMessage,
  uploadOperatorImage,
  retryDelivery,
  sessionHistory,
} from "./service";

const tags = ["Sessions inbox"];
const sessionParam = idParam("sessionId", "conv_01jd7w3k5q9x2m4n6p8r");
const serviceMode = z.enum(["FULL_AUTO_MODE", "MANUAL_MODE", "GROUP_MODE"]).openapi({
  description: "Who replies: the AI (FULL_AUTO_MODE), a person (MANUAL_MODE), or the AI in a group (GROUP_MODE)",
});

/** A session as the inbox lists it (spec §3 Customer session). */
export const sessionSchema = z
  .object({
    sessionId: z.string(),
    channelId: z.string().openapi({ description: "The web or channel client the session came through" }),
    channelName: z.string(),
    channel: z.string().openapi({ description: "The platform (`web-embed`, `telegram`, `wechat-official-account`…)" }),
    appId: z.string(),
    isGroup: z.boolean(),
    groupName: z.string().nullable(),
    senderName: z.string().nullable(),
    headImageUrl: z.string().nullable(),
    customerId: z.string().nullable(),
    msgContent: z.string().openapi({ description: "The last message, shortened" }),
    lastMessageAt: z.string().nullable(),
    readStatus: z.enum(["UNREAD", "HAVE_READ"]),
    serviceMode,
    handoverRequestedAt: z.string().nullable(),
    tags: z.array(z.string()),
    createdAt: z.string(),
  })
  .openapi("InboxSession");

/** A message of a session's history. */
export const messageSchema = z
  .object({
    id: z.string(),
    role: z.enum(["user", "assistant", "operator"]),
    content: z.string(),
    senderName: z.string().nullable(),
    delivery: z.enum(["pending", "sent", "failed"]).nullable().openapi({ description: "For messages sent out through a channel" }),
    deliveryError: z.string().nullable(),
    createdAt: z.string(),
    attachments: z.array(chatFileSchema).openapi({ description: "Files and images the message carries (empty when none)" }),
  })
  .openapi("InboxMessage");

/** A page of the sessions list. */
export const sessionPageSchema = z
  .object({ items: z.array(sessionSchema), nextCursor: z.string().nullable(), unreadCount: z.number().int() })
  .openapi("InboxSessionPage");

/** A page of a session's history. */
export const historySchema = z.object({ items: z.array(messageSchema), hasMore: z.boolean() }).openapi("InboxHistory");

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .openapi({ example: "2026-11-01" });

/** The sessions inbox of chat management (/console/chatManage). */
export function registerInboxRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/inbox/sessions",
      tags,
      summary: "Sessions of the space's web and channel clients, latest message first",
      request: {
        query: z.object({
          read: z.enum(["all", "unread", "read"]).default("all"),
          clientId: z.string().max(64).optional(),
          serviceMode: serviceMode.optional(),
          keyword: z
            .string()
            .max(100)
            .optional()
            .openapi({ description: "Part of the sender's name, the group's name or the last message (case-insensitive for ASCII)" }),
          sessionId: z
            .string()
            .max(64)
            .optional()
            .openapi({ description: "Only this session, when it passes the other filters (to check a live event against them)" }),
          limit: z.coerce.number().int().min(1).max(100).default(30),
          cursor: z.string().max(400).optional(),
        }),
      },
      data: sessionPageSchema,
    }),
    async (c) => {
      const query = c.req.valid("query");
      return ok(
        c,
        await listSessions(c.var.deps, c.var.auth, {
          read: query.read,
          clientId: query.clientId,
          mode: query.serviceMode,
          keyword: query.keyword,
          sessionId: query.sessionId,
          limit: query.limit,
          cursor: query.cursor,
        }),
      );
    },
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/inbox/sessions/{sessionId}",
      tags,
      summary: "One session",
      request: { params: sessionParam },
      data: sessionSchema,
    }),
    async (c) => ok(c, await getSession(c.var.deps, c.var.auth, c.req.valid("param").sessionId)),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/inbox/sessions/{sessionId}/messages",
      tags,
      summary: "A session's history, oldest first (the latest page, or the page before `before`)",
      request: { params: sessionParam, query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), before: z.string().max(64).optional() }) },
      data: historySchema,
    }),
    async (c) => {
      const query = c.req.valid("query");
      return ok(c, await sessionHistory(c.var.deps, c.var.auth, c.req.valid("param").sessionId, { limit: query.limit, before: query.before }));
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/inbox/sessions/{sessionId}/messages",
      tags,
      status: 201,
      summary: "Reply as an operator: sent through the session's channel (or pushed to the web visitor); a session the AI runs is taken over",
      request: {
        params: sessionParam,
        body: jsonBody(
          z
            .object({
              content: z.string().trim().max(4000).openapi({ description: "The text; may be empty when `fileIds` names images" }),
              fileIds: z
                .array(z.string().max(64))
                .max(10)
                .optional()
                .openapi({ description: "Images uploaded for this session with POST /api/v1/inbox/sessions/{sessionId}/files" }),
            })
            .openapi("OperatorMessage"),
        ),
      },
      data: messageSchema,
    }),
    async (c) => ok(c, await pushOperatorMessage(c.var.deps, c.var.auth, c.req.valid("param").sessionId, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/inbox/sessions/{sessionId}/files",
      tags,
      status: 201,
      summary: "Upload an image to send in a session (JPEG or PNG under 5 MB, recognised by its bytes); send it by naming its id in a reply's fileIds",
      request: {
        params: sessionParam,
        body: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: z
                .object({ file: z.any().openapi({ type: "string", format: "binary", description: "A JPEG or PNG image under 5 MB" }) })
                .openapi("OperatorImageUpload"),
            },
          },
        },
      },
      data: chatFileSchema,
      extraErrors: { 413: "The image is over 5 MB", 415: "The file is not a JPEG or PNG image, by its bytes" },
    }),
    async (c) => {
      const file = await formFile(c.req.valid("form") as Record<string, unknown>);
      return ok(c, await uploadOperatorImage(c.var.deps, c.var.auth, c.req.valid("param").sessionId, file), 201);
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/inbox/sessions/{sessionId}/messages/{messageId}/retry",
      tags,
      summary: "Send again a message whose delivery failed: back to pending and queued (409 when its delivery is not failed)",
      request: { params: sessionParam.merge(idParam("messageId", "msg_01jd7w3k5q9x2m4n6p8r")) },
      data: messageSchema,
    }),
    async (c) => {
      const { sessionId, messageId } = c.req.valid("param");
      return ok(c, await retryDelivery(c.var.deps, c.var.auth, sessionId, messageId));
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/inbox/sessions/{sessionId}/read",
      tags,
      summary: "Mark a session read (opening it in the console does this)",
      request: { params: sessionParam },
      data: z.object({ sessionId: z.string(), readStatus: z.literal("HAVE_READ") }),
    }),
    async (c) => ok(c, await markRead(c.var.deps, c.var.auth, c.req.valid("param").sessionId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/inbox/read-all",
      tags,
      summary: "Mark every unread session read (of one client when given)",
      request: { body: jsonBody(z.object({ clientId: z.string().max(64).optional() }).openapi("ReadAll")) },
      data: z.object({ read: z.number().int() }),
    }),
    async (c) => ok(c, await markAllRead(c.var.deps, c.var.auth, c.req.valid("json").clientId)),
  );
  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/inbox/sessions/{sessionId}/mode",
      tags,
      summary: "Take a session over (MANUAL_MODE) or hand it back to the AI; `confirm` must be true",
      request: { params: sessionParam, body: jsonBody(z.object({ serviceMode, confirm: z.boolean() }).openapi("ChangeServiceMode")) },
      data: sessionSchema,
    }),
    async (c) => ok(c, await changeServiceMode(c.var.deps, c.var.auth, c.req.valid("param").sessionId, c.req.valid("json"), c.var.language)),
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/v1/inbox/export",
      tags,
      summary: `Download the messages of up to ${EXPORT_MAX_SESSIONS} sessions over at most ${EXPORT_MAX_DAYS} days as CSV`,
      security: [{ bearer: [] }],
      middleware: [requireAuth({ operation: "POST /api/v1/inbox/export" })],
      request: {
        body: jsonBody(
          z
            .object({
              sessionIds: z.array(z.string().max(64)).min(1).max(EXPORT_MAX_SESSIONS),
              from: day.openapi({ description: "First day, in the zone of timezoneOffsetMinutes" }),
              to: day.openapi({ description: "Last day (included), in the zone of timezoneOffsetMinutes" }),
              timezoneOffsetMinutes: z.number().int().min(-840).max(840).optional().openapi({
                description:
                  "Minutes the operator's zone is behind UTC, as JavaScript's Date#getTimezoneOffset gives it (-480 for UTC+8); from/to are that zone's days and the CSV gets a local time column. Default: UTC",
                example: -480,
              }),
            })
            .openapi("ExportSessions"),
        ),
      },
      responses: {
        200: { description: "CSV (UTF-8 with BOM), as an attachment", content: { "text/csv": { schema: z.string() } } },
        ...standardErrors,
      },
    }),
    async (c) => {
      const file = await exportSessions(c.var.deps, c.var.auth, c.req.valid("json"));
      return c.body(file.body, 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${file.filename}"` });
    },
  );
}
