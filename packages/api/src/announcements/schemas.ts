import { z } from "@hono/zod-openapi";
import { pageQuerySchema } from "../http/schemas";
import { memberGrades } from "../spaces/service/privileges";

/** The most characters a title has. */
export const TITLE_MAX = 100;
/** The most characters a Markdown body has. */
export const BODY_MAX = 20_000;
/** Who an announcement is for: everyone, or the members of spaces of one grade. */
export const audiences = ["everyone", ...memberGrades] as const;
/** One of {@link audiences}. */
export type Audience = (typeof audiences)[number];

const timestamp = z.string().openapi({ format: "date-time", example: "2026-11-26T08:00:00.000Z" });

const title = z
  .string()
  .trim()
  .min(1, { message: "msg:announcement_title_required" })
  .max(TITLE_MAX, { message: "msg:announcement_title_too_long" })
  .openapi({ description: `1 to ${TITLE_MAX} characters`, example: "New: announcements" });
const body = z
  .string()
  .max(BODY_MAX, { message: "msg:announcement_body_too_long" })
  .openapi({ description: `Markdown, at most ${BODY_MAX} characters; raw HTML is shown as text`, example: "We now have **announcements**." });
const audience = z
  .enum(audiences, { message: "msg:announcement_audience_invalid" })
  .openapi({ description: "`everyone`, or the member grade of the spaces whose members see it", example: "everyone" });
const publishAt = z.string().datetime({ offset: true }).openapi({
  description: "When users start to see it; now when left out. An event reaches open consoles when it is published",
  example: "2026-11-26T08:00:00.000Z",
});

/** Body of POST /api/v1/instance/announcements. */
export const createAnnouncementBody = z
  .object({ title, body, audience: audience.default("everyone"), publishAt: publishAt.optional() })
  .openapi("CreateAnnouncementRequest", { example: { title: "Scheduled maintenance", body: "Saturday **02:00–03:00 UTC**.", audience: "everyone" } });

/** Body of PATCH /api/v1/instance/announcements/{announcementId}. */
export const updateAnnouncementBody = z
  .object({ title: title.optional(), body: body.optional(), audience: audience.optional(), publishAt: publishAt.optional() })
  .refine((value) => Object.values(value).some((field) => field !== undefined), { message: "msg:announcement_change_required", path: ["title"] })
  .openapi("UpdateAnnouncementRequest", { example: { title: "Maintenance moved to Sunday" } });

/** An announcement as the administrator sees it, with how many users read it. */
export const adminAnnouncementSchema = z
  .object({
    id: z.string().openapi({ example: "ann_01jd7w3k5q9x2m4n6p8r" }),
    title: z.string(),
    body: z.string(),
    audience: z.enum(audiences),
    publishAt: timestamp,
    published: z.boolean().openapi({ description: "publishAt has come: users see it" }),
    readCount: z.number().int().openapi({ description: "Users who read it", example: 12 }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi("InstanceAnnouncement");

/** Every announcement, newest first, for the administrator. */
export const adminAnnouncementPageSchema = z
  .object({
    items: z.array(adminAnnouncementSchema),
    total: z.number().int(),
    pageNo: z.number().int(),
    pageSize: z.number().int(),
  })
  .openapi("InstanceAnnouncementPage");

/** An announcement addressed to the caller, with their read state. */
export const announcementSchema = z
  .object({
    id: z.string().openapi({ example: "ann_01jd7w3k5q9x2m4n6p8r" }),
    title: z.string(),
    body: z.string().openapi({ description: "Markdown" }),
    audience: z.enum(audiences),
    publishAt: timestamp,
    readAt: timestamp.nullable().openapi({ description: "When the caller read it; null: unread" }),
  })
  .openapi("Announcement");

/** A page of the caller's announcements, newest first. */
export const announcementPageSchema = z
  .object({
    items: z.array(announcementSchema),
    total: z.number().int().openapi({ description: "Announcements addressed to the caller" }),
    unread: z.number().int().openapi({ description: "Of those, unread by the caller" }),
    pageNo: z.number().int(),
    pageSize: z.number().int(),
  })
  .openapi("AnnouncementPage");

/** The caller's unread count. */
export const announcementStatsSchema = z.object({ unread: z.number().int().openapi({ example: 2 }) }).openapi("AnnouncementStats");

/** What read-all changed. */
export const readAllSchema = z
  .object({ marked: z.number().int().openapi({ description: "Announcements newly marked read", example: 2 }) })
  .openapi("AnnouncementsReadAll");

/** Paging of the announcement lists. */
export const announcementListQuery = pageQuerySchema;
