import { confirmDatabaseWrite } from "../chat/service/database-tool";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { getAppForChat } from "../apps/service/index";
import { chatEventSchema } from "../chat/events";
import { streamChatTurn } from "../chat/stream";
import { storeMessage } from "../conversation/store";
import { transferToHuman } from "../inbox/handover";
import { fail, ServiceError } from "../errors";
import { clientOf } from "../http/auth";
import type { AppEnv } from "../http/context";
import { errorEnvelope, ok } from "../http/envelope";
import type { Language } from "../i18n/language";
import { translate } from "../http/translate";
import { defineRoute, idParam, jsonBody, standardErrors } from "../http/openapi";
import { createDiskFileStore, findBuildFolder } from "../kernel/files/disk";
import { visitorEventSchemas } from "../realtime/events";
import { streamVisitorEvents } from "../realtime/visitor-stream";
import {
  createClientBody,
  createSessionBody,
  updateClientBody,
  webClientSchema,
  webClientWithSecretSchema,
  widgetConfigSchema,
  widgetHistorySchema,
  widgetMessageBody,
  widgetSessionSchema,
} from "./schemas";
import {
  clientForPage,
  clientForVisitor,
  createClient,
  createSession,
  deleteClient,
  getClient,
  listClients,
  rotateSecret,
  sessionForVisitor,
  sessionMessages,
  updateClient,
  WEB_EMBED_CHANNEL,
  widgetConfig,
} from "./service";

const ownerTags = ["Web clients"];
const widgetTags = ["Widget"];
const clientParam = idParam("id", "demo");
const visitorClientParam = idParam("clientId", "demo");
/** The window of the per-IP visitor session throttle (its count is `PARLEY_THROTTLE_WIDGET_SESSIONS_PER_IP`). */
export const WIDGET_SESSIONS_WINDOW_SECONDS = 10 * 60;
const sessionParams = visitorClientParam.extend({
  sessionId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "sessionId", in: "path" }, example: "wcs_01jd7w3k5q9x2m4n6p8r" }),
});

export const WIDGET_API_PREFIX = "/api/v1/widget/";

/**
 * CORS for the visitor API: any site may call it (the server itself refuses origins a client
 * does not allow), so the answer names the request's Origin. Preflights are answered here;
 * register before the general /api CORS so it never sees these paths.
 */
export function widgetCors(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.req.path.startsWith(WIDGET_API_PREFIX)) return next();
    const origin = c.req.header("origin");
    if (c.req.method === "OPTIONS") {
      const headers = new Headers({
        "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
        "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept-Language",
        "Access-Control-Max-Age": "600",
        Vary: "Origin",
      });
      if (origin) headers.set("Access-Control-Allow-Origin", origin);
      return new Response(null, { status: 204, headers });
    }
    await next();
    c.res.headers.delete("Access-Control-Allow-Credentials");
    if (origin) c.res.headers.set("Access-Control-Allow-Origin", origin);
    // The widget tells "disabled" from "origin not allowed" (both 403) by this header.
    if (c.error instanceof ServiceError) c.res.headers.set("X-Parley-Error", c.error.messageId);
    c.res.headers.set("Access-Control-Expose-Headers", "X-Request-Id, Retry-After, X-Parley-Error");
    c.res.headers.append("Vary", "Origin");
  };
}

/** Web clients (owner API), the visitor API, the widget's files and the /web pages. */
export function registerClientRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({ method: "get", path: "/api/v1/web-clients", tags: ownerTags, summary: "The space's web clients", data: z.array(webClientSchema) }),
    async (c) => ok(c, await listClients(c.var.deps, c.var.auth)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/web-clients",
      tags: ownerTags,
      summary: "Create a web client; the identity secret is shown only in this answer",
      status: 201,
      request: { body: jsonBody(createClientBody) },
      data: webClientWithSecretSchema,
    }),
    async (c) => ok(c, await createClient(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/web-clients/{id}",
      tags: ownerTags,
      summary: "One web client",
      request: { params: clientParam },
      data: webClientSchema,
    }),
    async (c) => ok(c, await getClient(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/web-clients/{id}",
      tags: ownerTags,
      summary: "Change a web client",
      request: { params: clientParam, body: jsonBody(updateClientBody) },
      data: webClientSchema,
    }),
    async (c) => ok(c, await updateClient(c.var.deps, c.var.auth, c.req.valid("param").id, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/web-clients/{id}",
      tags: ownerTags,
      summary: "Delete a web client and its visitor sessions",
      request: { params: clientParam },
      data: z.object({ deleted: z.literal(true) }),
    }),
    async (c) => ok(c, await deleteClient(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/web-clients/{id}/rotate-secret",
      tags: ownerTags,
      summary: "Replace the identity secret; the new one is shown only in this answer",
      request: { params: clientParam },
      data: webClientWithSecretSchema,
    }),
    async (c) => ok(c, await rotateSecret(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );

  const visitorErrors = { 403: "The client is disabled (`web_client_disabled`) or the site's origin is not allowed (`origin_not_allowed`)" };
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/widget/{clientId}/config",
      tags: widgetTags,
      public: true,
      summary: "What the widget shows: appearance, opening introduction and guiding questions (cacheable 60 s)",
      description:
        "Every visitor answer names the request Origin in Access-Control-Allow-Origin; refusals carry the message id in `X-Parley-Error` (`web_client_not_found`, `web_client_disabled`, `origin_not_allowed`, `identity_invalid`, `visitor_token_invalid`).",
      request: { params: visitorClientParam },
      data: widgetConfigSchema,
      extraErrors: visitorErrors,
    }),
    async (c) => {
      const row = await clientForVisitor(c.var.deps, c.req.valid("param").clientId, c.req.header("origin"));
      c.header("Cache-Control", "public, max-age=60");
      return ok(c, await widgetConfig(c.var.deps, row));
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/widget/{clientId}/sessions",
      tags: widgetTags,
      public: true,
      status: 201,
      summary: "Start a visitor session (a new conversation); answers the session's bearer token",
      description: "With `identity`, `hash` must be hex HMAC-SHA256(the client's identity secret, userId), else 401 `identity_invalid`.",
      request: { params: visitorClientParam, body: jsonBody(createSessionBody) },
      data: widgetSessionSchema,
      extraErrors: visitorErrors,
    }),
    async (c) => {
      const { deps } = c.var;
      const row = await clientForVisitor(deps, c.req.valid("param").clientId, c.req.header("origin"));
      const wait = await deps.throttle.hit(`widget-sessions-ip:${clientOf(c).ip}`, deps.config.throttle.widgetSessionsPerIp, WIDGET_SESSIONS_WINDOW_SECONDS);
      if (wait > 0) throw fail.rateLimited(wait);
      return ok(c, await createSession(c.var.deps, row, c.req.valid("json")), 201);
    },
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/v1/widget/{clientId}/sessions/{sessionId}/messages",
      tags: widgetTags,
      summary: "Send a visitor message; the answer streams as server-sent events (ChatEvent, as /api/v1/chat/stream)",
      description:
        "Authorization: `Bearer <visitorToken>`. Refusals before the stream starts (bad token 401, content over 2000 characters 400, 403, 404, 870) answer as envelopes.",
      security: [],
      request: { params: sessionParams, body: jsonBody(widgetMessageBody) },
      responses: {
        200: { description: "The answer as a stream of ChatEvents", content: { "text/event-stream": { schema: chatEventSchema } } },
        402: { description: "Insufficient credits (code 870)", content: { "application/json": { schema: errorEnvelope } } },
        403: { description: visitorErrors[403], content: { "application/json": { schema: errorEnvelope } } },
        ...standardErrors,
      },
    }),
    async (c) => {
      const { deps } = c.var;
      const params = c.req.valid("param");
      const body = c.req.valid("json");
      const row = await clientForVisitor(deps, params.clientId, c.req.header("origin"));
      const { session, conversation } = await sessionForVisitor(deps, row, params.sessionId, c.req.header("authorization"));
      // Messages in the stream follow Accept-Language, else the language the session started with.
      const language = c.req.header("accept-language") ? c.var.language : (session.language as Language);
      const chatApp = await getAppForChat(deps, { appId: row.appId });
      const stop = new AbortController();
      c.req.raw.signal.addEventListener("abort", () => stop.abort(), { once: true });
      const turn = {
        app: chatApp,
        endUserId: conversation.endUserId,
        channel: WEB_EMBED_CHANNEL,
        conversationId: conversation.id,
        text: body.content,
        ...(body.fileIds?.length ? { fileIds: body.fileIds } : {}),
        language,
        signal: stop.signal,
      };
      return streamChatTurn(c, deps, turn, stop);
    },
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/widget/{clientId}/sessions/{sessionId}/messages",
      tags: widgetTags,
      public: true,
      summary: "The session's messages, oldest first (Authorization: Bearer <visitorToken>)",
      request: { params: sessionParams },
      data: widgetHistorySchema,
      extraErrors: visitorErrors,
    }),
    async (c) => {
      const params = c.req.valid("param");
      const row = await clientForVisitor(c.var.deps, params.clientId, c.req.header("origin"));
      const { conversation } = await sessionForVisitor(c.var.deps, row, params.sessionId, c.req.header("authorization"));
      return ok(c, { items: await sessionMessages(c.var.deps, conversation.id) });
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/api/v1/widget/{clientId}/sessions/{sessionId}/events",
      tags: widgetTags,
      summary: "The visitor's live events (an operator's message, a mode change) as server-sent events; any API process serves it",
      description:
        "Authorization: `Bearer <visitorToken>` (read it with fetch: EventSource cannot send the header). Checked like the socket.io `/visitor` namespace (client enabled, origin allowed, the session's token; again every minute, the stream ends once refused); refusals answer as envelopes before the stream starts. The same events as the namespace: `event: message` or `event: mode`, `data:` one JSON object (VisitorEvent). Comment lines: `: open` at once, `: ping` every 25 s. Events have no ids and nothing is replayed (`Last-Event-ID` is ignored): after a reconnection, read the session's messages again.",
      security: [],
      request: { params: sessionParams },
      responses: {
        200: {
          description: "The stream of the session's events until the client leaves",
          content: {
            "text/event-stream": {
              schema: z
                .union([visitorEventSchemas.message.openapi("VisitorMessageEvent"), visitorEventSchemas.mode.openapi("VisitorModeEvent")])
                .openapi("VisitorEvent"),
            },
          },
        },
        403: { description: visitorErrors[403], content: { "application/json": { schema: errorEnvelope } } },
        ...standardErrors,
      },
    }),
    async (c) => {
      const params = c.req.valid("param");
      return streamVisitorEvents(c, params.clientId, params.sessionId);
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/widget/{clientId}/sessions/{sessionId}/handover",
      tags: widgetTags,
      public: true,
      summary: "The visitor asks for a person (clients with manual transfer on); answers the session's reply mode and the app's default reply",
      description: "Authorization: `Bearer <visitorToken>`. 403 `manual_transfer_off` when the client does not offer transfer.",
      request: { params: sessionParams },
      data: z.object({ serviceMode: z.enum(["FULL_AUTO_MODE", "MANUAL_MODE", "GROUP_MODE"]), reply: z.string().nullable() }).openapi("WidgetHandover"),
      extraErrors: visitorErrors,
    }),
    async (c) => {
      const { deps } = c.var;
      const params = c.req.valid("param");
      const row = await clientForVisitor(deps, params.clientId, c.req.header("origin"));
      if (!row.manualTransfer) throw new ServiceError("forbidden", "manual_transfer_off");
      const { session, conversation } = await sessionForVisitor(deps, row, params.sessionId, c.req.header("authorization"));
      if (conversation.serviceMode === "MANUAL_MODE") return ok(c, { serviceMode: "MANUAL_MODE" as const, reply: null });
      const chatApp = await getAppForChat(deps, { appId: row.appId });
      const language = c.req.header("accept-language") ? c.var.language : (session.language as Language);
      const reply = (await transferToHuman(deps, chatApp, conversation, { reason: "customer", language })) ?? translate(language, "handover_default_reply");
      await storeMessage(deps, { conversation: { ...conversation, serviceMode: "MANUAL_MODE" }, role: "assistant", content: reply, model: "handover" });
      return ok(c, { serviceMode: "MANUAL_MODE" as const, reply });
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/widget/{clientId}/sessions/{sessionId}/database-writes/{confirmationId}/confirm",
      tags: widgetTags,
      public: true,
      summary: "The visitor confirms a database write the model asked for in this session; it runs once (Authorization: Bearer <visitorToken>)",
      request: { params: sessionParams.extend({ confirmationId: z.string().min(1).max(64).openapi({ example: "dbw_01jd7w3k5q9x2m4n6p8r" }) }) },
      data: z.object({ affectedRows: z.number().int(), sql: z.string() }).openapi("WidgetDatabaseWriteResult"),
      extraErrors: { ...visitorErrors, 409: "The write already ran or expired" },
    }),
    async (c) => {
      const params = c.req.valid("param");
      const row = await clientForVisitor(c.var.deps, params.clientId, c.req.header("origin"));
      const { conversation } = await sessionForVisitor(c.var.deps, row, params.sessionId, c.req.header("authorization"));
      return ok(c, await confirmDatabaseWrite(c.var.deps, { id: params.confirmationId, conversationId: conversation.id, language: c.var.language }));
    },
  );

  registerWidgetFiles(app);
}

/**
 * packages/widget/dist, found next to this package the way the console's dist is: from the
 * source (packages/api/src/clients) or from the built server (packages/api/dist).
 */
export function widgetDistDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, "../../../widget/dist"), path.resolve(here, "../../widget/dist")];
  return findBuildFolder(candidates, "widget.js");
}

const PAGE_CSP = "default-src 'self'; connect-src 'self'; img-src 'self' data: https:; style-src 'self'";

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

/** `/widget.js`, `/widget/*` and the full-page and iframe chat pages. */
function registerWidgetFiles(app: OpenAPIHono<AppEnv>) {
  const widgetFiles = createDiskFileStore(widgetDistDir());
  // A path that is not a plain key (`..`, backslashes) is refused by the store: not found.
  const serveFile = (relative: string) => widgetFiles.read(relative).catch(() => undefined);
  const typeOf = (file: string) =>
    file.endsWith(".css")
      ? "text/css; charset=utf-8"
      : file.endsWith(".map") || file.endsWith(".json")
        ? "application/json; charset=utf-8"
        : "application/javascript; charset=utf-8";
  const answer = async (c: Context<AppEnv>, relative: string) => {
    const content = await serveFile(relative);
    c.header("Access-Control-Allow-Origin", "*");
    if (!content) return c.text("Widget file not found (is packages/widget built?)", 404);
    c.header("Content-Type", typeOf(relative));
    c.header("Cache-Control", "public, max-age=300");
    return c.body(content as Uint8Array<ArrayBuffer>);
  };
  app.get("/widget.js", (c) => answer(c, "widget.js"));
  app.get("/widget/*", (c) => answer(c, decodeURIComponent(c.req.path.slice("/widget/".length))));

  for (const mode of ["agent", "iframe"] as const) {
    app.get(`/web/${mode}/:clientId`, async (c) => {
      const clientId = c.req.param("clientId");
      c.header("Content-Security-Policy", PAGE_CSP);
      const row = await clientForPage(c.var.deps, clientId);
      if (!row) {
        return c.html(
          '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><p>This chat does not exist.</p></body></html>',
          404,
        );
      }
      const dataMode = mode === "agent" ? "page" : "iframe";
      return c.html(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(row.name)}</title></head><body><script src="/widget.js" data-client-id="${escapeHtml(row.id)}" data-mode="${dataMode}"></script></body></html>`,
      );
    });
  }
}
