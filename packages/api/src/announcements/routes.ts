import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { adminRoute } from "../instance/routes";
import {
  adminAnnouncementPageSchema,
  adminAnnouncementSchema,
  announcementListQuery,
  announcementPageSchema,
  announcementSchema,
  announcementStatsSchema,
  createAnnouncementBody,
  readAllSchema,
  updateAnnouncementBody,
} from "./schemas";
import {
  announcementStats,
  createAnnouncement,
  deleteAnnouncement,
  listAllAnnouncements,
  listMyAnnouncements,
  readAllMyAnnouncements,
  readMyAnnouncement,
  updateAnnouncement,
} from "./service/announcements";

const tags = ["Announcements"];
const adminOnly = { 403: "Only the instance administrator publishes announcements" };
const announcementParam = idParam("announcementId", "ann_01jd7w3k5q9x2m4n6p8r");

/** Announcements: the instance administrator publishes them; users read theirs (spec §7 Announcements). */
export function registerAnnouncementRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    adminRoute({
      method: "post",
      path: "/api/v1/instance/announcements",
      tags,
      status: 201,
      summary: "Publish an announcement (administrator only)",
      description:
        "To `everyone` or to the members of spaces of one member grade (a member sees it while their current space has that grade). Open consoles it addresses receive `announcement.published` on the `/console` socket when `publishAt` comes (now when left out).",
      request: { body: jsonBody(createAnnouncementBody) },
      data: adminAnnouncementSchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await createAnnouncement(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );

  app.openapi(
    adminRoute({
      method: "get",
      path: "/api/v1/instance/announcements",
      tags,
      summary: "Every announcement with its read count (administrator only)",
      description: "Newest `publishAt` first, scheduled ones included (`published` false).",
      request: { query: announcementListQuery },
      data: adminAnnouncementPageSchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await listAllAnnouncements(c.var.deps, c.req.valid("query"))),
  );

  app.openapi(
    adminRoute({
      method: "patch",
      path: "/api/v1/instance/announcements/{announcementId}",
      tags,
      summary: "Edit an announcement (administrator only)",
      description: "Send any of title, body, audience, publishAt. Read states stay. A scheduled announcement is announced when its (new) publishAt comes.",
      request: { params: announcementParam, body: jsonBody(updateAnnouncementBody) },
      data: adminAnnouncementSchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await updateAnnouncement(c.var.deps, c.req.valid("param").announcementId, c.req.valid("json"))),
  );

  app.openapi(
    adminRoute({
      method: "delete",
      path: "/api/v1/instance/announcements/{announcementId}",
      tags,
      summary: "Delete an announcement and its read states (administrator only)",
      request: { params: announcementParam },
      data: z.object({ id: z.string() }),
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await deleteAnnouncement(c.var.deps, c.req.valid("param").announcementId)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/announcements",
      tags,
      summary: "The announcements addressed to the caller, newest first",
      description:
        "Published ones for everyone or for the grade of the caller's current space, each with the caller's read state (`readAt`), and the unread count.",
      request: { query: announcementListQuery },
      data: announcementPageSchema,
    }),
    async (c) => ok(c, await listMyAnnouncements(c.var.deps, c.var.auth, c.req.valid("query"))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/announcements/stats",
      tags,
      summary: "How many announcements the caller has not read",
      data: announcementStatsSchema,
    }),
    async (c) => ok(c, await announcementStats(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/announcements/read-all",
      tags,
      summary: "Mark every announcement addressed to the caller read",
      data: readAllSchema,
    }),
    async (c) => ok(c, await readAllMyAnnouncements(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/announcements/{announcementId}",
      tags,
      summary: "Read one announcement (marks it read)",
      description: "One not addressed to the caller (another grade, not yet published, deleted) answers 404.",
      request: { params: announcementParam },
      data: announcementSchema,
    }),
    async (c) => ok(c, await readMyAnnouncement(c.var.deps, c.var.auth, c.req.valid("param").announcementId)),
  );
}
