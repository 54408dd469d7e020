import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { randomBytes } from "node:crypto";
import { getCookie, setCookie } from "hono/cookie";
import { getAppForChat } from "../apps/service/index";
import { chatEventSchema } from "../chat/events";
import { streamChatTurn } from "../chat/stream";
import { createSession, sessionForVisitor, WEB_EMBED_CHANNEL } from "../clients/service";
import { widgetMessageBody, widgetSessionSchema } from "../clients/schemas";
import { ServiceError } from "../errors";
import { clientOf } from "../http/auth";
import type { AppEnv } from "../http/context";
import { errorEnvelope, ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody, standardErrors } from "../http/openapi";
import { translate } from "../http/translate";
import {
  collectStateSchema,
  instanceListingSchema,
  publishBody,
  publishingSchema,
  searchQuery,
  searchResultSchema,
  spaceStoreSettingsSchema,
  squarePageSchema,
  squareQuery,
  storeAppDetailSchema,
  storeAppPageSchema,
  storeCopySchema,
  storeListQuery,
  storeSettingsSchema,
  takeDownBody,
  thumbStateSchema,
} from "./schemas";
import { getStoreSettings, guestClient, putStoreSettings, throttleGuestMessage, throttleGuestSession } from "./service/guest";
import { copyStoreApp, getStoreApp, guestListing, listSquare, liveListing, listStoreApps, reactToStoreApp, searchAll, viewerOf } from "./service/listings";
import {
  getSpaceStoreSettings,
  listInstanceListings,
  publishApp,
  publishingState,
  publishWorkflow,
  putSpaceStoreSettings,
  takeDownListing,
  unpublish,
} from "./service/publishing";

const tags = ["Store"];
const appParam = idParam("appId", "app_01jd7w3k5q9x2m4n6p8r");
const workflowParam = idParam("workflowId", "wf_01jd7w3k5q9x2m4n6p8r");
const listingParam = idParam("listingId", "lst_01jd7w3k5q9x2m4n6p8r");
const codeParam = z.object({
  code: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "code", in: "path" }, example: "k3m9q2x7wz" }),
});
const sessionParams = codeParam.extend({
  sessionId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "sessionId", in: "path" } }),
});
/** The cookie that names a guest across their store sessions (rate limits count per visitor). */
const VISITOR_COOKIE = "parley_store_visitor";

/**
 * Publishing, the store (/home), the square and the top-bar search (spec §1, §2, §4). Guests
 * read the store and try its apps through the widget's conversation path, charged to the
 * publisher's space within the instance's guest limits.
 */
export function registerStoreRoutes(app: OpenAPIHono<AppEnv>) {
  for (const [kind, path, param] of [
    ["app", "/api/v1/apps/{appId}/publishing", appParam],
    ["workflow", "/api/v1/workflows/{workflowId}/publishing", workflowParam],
  ] as const) {
    const idOf = (value: { appId?: string; workflowId?: string }) => (kind === "app" ? value.appId! : value.workflowId!);
    app.openapi(
      defineRoute({
        method: "get",
        path,
        tags,
        summary: `Where the ${kind} is published, and any take-down reason (null: not published)`,
        request: { params: param },
        data: publishingSchema.nullable(),
      }),
      async (c) => ok(c, await publishingState(c.var.deps, c.var.auth, kind, idOf(c.req.valid("param")))),
    );
    app.openapi(
      defineRoute({
        method: "post",
        path,
        tags,
        summary: `Publish the ${kind} to the store or the square; each refused rule names its field`,
        request: { params: param, body: jsonBody(publishBody) },
        data: publishingSchema,
      }),
      async (c) => {
        const id = idOf(c.req.valid("param"));
        const { audience } = c.req.valid("json");
        return ok(c, kind === "app" ? await publishApp(c.var.deps, c.var.auth, id, audience) : await publishWorkflow(c.var.deps, c.var.auth, id, audience));
      },
    );
    app.openapi(
      defineRoute({
        method: "delete",
        path,
        tags,
        summary: `Unpublish the ${kind}`,
        request: { params: param },
        data: z.object({ unpublished: z.literal(true) }),
      }),
      async (c) => ok(c, await unpublish(c.var.deps, c.var.auth, kind, idOf(c.req.valid("param")))),
    );
  }
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/instance/store-listings/{listingId}/take-down",
      tags,
      summary: "The instance administrator takes a listing down; the publisher sees the reason",
      request: { params: listingParam, body: jsonBody(takeDownBody) },
      data: publishingSchema,
    }),
    async (c) => ok(c, await takeDownListing(c.var.deps, c.var.auth, c.req.valid("param").listingId, c.req.valid("json").reason)),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/instance/store-listings",
      tags,
      summary: "Every listing of the store and the squares (instance administrator)",
      data: z.array(instanceListingSchema),
    }),
    async (c) => ok(c, await listInstanceListings(c.var.deps, c.var.auth)),
  );
  app.openapi(
    defineRoute({ method: "get", path: "/api/v1/instance/store-settings", tags, summary: "Guest limits of store apps", data: storeSettingsSchema }),
    async (c) => ok(c, await getStoreSettings(c.var.deps)),
  );
  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/instance/store-settings",
      tags,
      summary: "Set the guest limits of store apps (instance administrator)",
      request: { body: jsonBody(storeSettingsSchema) },
      data: storeSettingsSchema,
    }),
    async (c) => ok(c, await putStoreSettings(c.var.deps, c.var.auth, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/space-store-settings",
      tags,
      summary: "The square setting of the current space",
      data: spaceStoreSettingsSchema,
    }),
    async (c) => ok(c, await getSpaceStoreSettings(c.var.deps, c.var.auth)),
  );
  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/space-store-settings",
      tags,
      summary: "Open the space's square to everyone, or to its members only (owner or administrator)",
      request: { body: jsonBody(spaceStoreSettingsSchema) },
      data: spaceStoreSettingsSchema,
    }),
    async (c) => ok(c, await putSpaceStoreSettings(c.var.deps, c.var.auth, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/store/apps",
      tags,
      public: true,
      summary: "Apps published to the store, by category and search text (public; a bearer token adds the caller's marks)",
      request: { query: storeListQuery },
      data: storeAppPageSchema,
    }),
    async (c) => ok(c, await listStoreApps(c.var.deps, await viewerOf(c.var.deps, c.req.header("authorization")), c.req.valid("query"))),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/store/apps/{code}",
      tags,
      public: true,
      summary: "A listed app's public page",
      request: { params: codeParam },
      data: storeAppDetailSchema,
    }),
    async (c) => ok(c, await getStoreApp(c.var.deps, await viewerOf(c.var.deps, c.req.header("authorization")), c.req.valid("param").code)),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/square",
      tags,
      public: true,
      summary: "The square: apps and workflows published for the viewer's team spaces, and for everyone by spaces that allow it",
      request: { query: squareQuery },
      data: squarePageSchema,
    }),
    async (c) => ok(c, await listSquare(c.var.deps, await viewerOf(c.var.deps, c.req.header("authorization")), c.req.valid("query"))),
  );
  for (const kind of ["thumb", "collect"] as const) {
    for (const method of ["post", "delete"] as const) {
      app.openapi(
        defineRoute({
          method,
          path: `/api/v1/store/apps/{code}/${kind}`,
          tags,
          summary: `${method === "post" ? "Set" : "Clear"} the caller's ${kind} on a listed app (repeats change nothing)`,
          request: { params: codeParam },
          data: kind === "thumb" ? thumbStateSchema : collectStateSchema,
        }),
        async (c) => ok(c, (await reactToStoreApp(c.var.deps, c.var.auth, c.req.valid("param").code, kind, method === "post")) as never),
      );
    }
  }
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/store/apps/{code}/copy",
      tags,
      status: 201,
      summary: "Copy a listed app into the current space (settings, opening and usable plugins; knowledge is not copied)",
      request: { params: codeParam },
      data: storeCopySchema,
    }),
    async (c) => ok(c, await copyStoreApp(c.var.deps, c.var.auth, c.req.valid("param").code, translate(c.var.language, "store_copy_suffix")), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/search",
      tags,
      summary: "Top-bar search: the space's apps, store apps and templates (kind tells them apart)",
      request: { query: searchQuery },
      data: searchResultSchema,
    }),
    async (c) => ok(c, await searchAll(c.var.deps, c.var.auth, c.req.valid("query").q, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/store/apps/{code}/sessions",
      tags,
      public: true,
      status: 201,
      summary: "A guest starts trying a listed app: a widget session through the app's store client (limited per IP)",
      request: { params: codeParam },
      data: widgetSessionSchema,
    }),
    async (c) => {
      const { deps } = c.var;
      const listing = await guestListing(deps, await viewerOf(deps, c.req.header("authorization")), c.req.valid("param").code);
      const client = await guestClient(deps, listing.store_listings.webClientId);
      await throttleGuestSession(deps, clientOf(c).ip);
      const known = getCookie(c, VISITOR_COOKIE);
      const visitorId = known && /^sv_[\w-]{8,40}$/.test(known) ? known : `sv_${randomBytes(12).toString("base64url")}`;
      if (visitorId !== known) setCookie(c, VISITOR_COOKIE, visitorId, { httpOnly: true, sameSite: "Lax", path: "/", maxAge: 365 * 24 * 3600 });
      return ok(c, await createSession(deps, client, { visitorId, language: c.var.language }), 201);
    },
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/v1/store/apps/{code}/sessions/{sessionId}/messages",
      tags,
      summary: "A guest's message to a listed app; the answer streams as server-sent events (ChatEvent), charged to the publisher's space",
      description:
        "Authorization: `Bearer <visitorToken>`. Over the instance's guest limit: 429 `store_guest_limit`. The publisher out of credits: 402 (code 870) `store_owner_out_of_credits`.",
      security: [],
      request: { params: sessionParams, body: jsonBody(widgetMessageBody) },
      responses: {
        200: { description: "The answer as a stream of ChatEvents", content: { "text/event-stream": { schema: chatEventSchema } } },
        402: { description: "The publisher is out of credits (code 870)", content: { "application/json": { schema: errorEnvelope } } },
        ...standardErrors,
      },
    }),
    async (c) => {
      const { deps } = c.var;
      const params = c.req.valid("param");
      // The session token proves the guest was let in when the session started.
      const listing = await liveListing(deps, params.code);
      const client = await guestClient(deps, listing.store_listings.webClientId);
      const { session, conversation } = await sessionForVisitor(deps, client, params.sessionId, c.req.header("authorization"));
      await throttleGuestMessage(deps, clientOf(c).ip, session.visitorId);
      const chatApp = await getAppForChat(deps, { appId: client.appId });
      const stop = new AbortController();
      c.req.raw.signal.addEventListener("abort", () => stop.abort(), { once: true });
      const turn = {
        app: chatApp,
        endUserId: conversation.endUserId,
        channel: WEB_EMBED_CHANNEL,
        conversationId: conversation.id,
        text: c.req.valid("json").content,
        language: c.var.language,
        signal: stop.signal,
      };
      try {
        return await streamChatTurn(c, deps, turn, stop);
      } catch (error) {
        // The guest cannot top up: say plainly that the publisher's credits ran out.
        if (error instanceof ServiceError && error.kind === "insufficient_credits")
          throw new ServiceError("insufficient_credits", "store_owner_out_of_credits");
        throw error;
      }
    },
  );
}
