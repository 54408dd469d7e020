import { count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { newId } from "../../crypto";
import { announcementReads, announcements } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { publishToInstance } from "../../realtime/events";
import type { Audience, adminAnnouncementSchema, announcementSchema, createAnnouncementBody, updateAnnouncementBody } from "../schemas";

type AdminAnnouncement = z.infer<typeof adminAnnouncementSchema>;
type UserAnnouncement = z.infer<typeof announcementSchema>;
type Row = typeof announcements.$inferSelect;

/** Rows per page when the caller does not say. */
export const ANNOUNCEMENT_PAGE_SIZE = 20;
/** The most rows one page holds. */
export const ANNOUNCEMENT_PAGE_SIZE_MAX = 100;
/** Longest delay a scheduled announcement's event waits in-process (setTimeout's limit is about 24.8 days). */
const SCHEDULE_MAX_MS = 2 ** 31 - 1;

function paging(query: { pageNo?: number | undefined; pageSize?: number | undefined }) {
  const pageNo = query.pageNo ?? 1;
  const pageSize = Math.min(query.pageSize ?? ANNOUNCEMENT_PAGE_SIZE, ANNOUNCEMENT_PAGE_SIZE_MAX);
  return { pageNo, pageSize, offset: (pageNo - 1) * pageSize };
}

/**
 * The announcements addressed to the caller now: published (publishAt has come) and for everyone
 * or for the effective grade of the caller's current space (Free once its plan period ended),
 * worked out inside the query so each list or count is one statement.
 */
function addressedTo(auth: Auth, now: string): SQL {
  const grade = sql`(SELECT CASE WHEN p.expires_at IS NOT NULL AND p.expires_at <= ${now} THEN 'FREE' ELSE s.member_grade END
    FROM spaces s LEFT JOIN space_plans p ON p.space_id = s.id WHERE s.id = ${auth.spaceId})`;
  return sql`a.publish_at <= ${now} AND (a.audience = 'everyone' OR a.audience = ${grade})`;
}

const isoOf = (value: string) => new Date(value).toISOString();

/** Timers of scheduled announcements' events, per hub (a test process runs many servers). */
const scheduled = new WeakMap<object, Map<string, NodeJS.Timeout>>();

/**
 * Tells open consoles about an announcement once it is published: now when publishAt has come,
 * else by a timer of this process (a restart loses it; consoles also re-read their count now and then).
 */
function announce(deps: Pick<Deps, "now" | "realtime">, row: Pick<Row, "id" | "title" | "audience" | "publishAt">): void {
  const timers = scheduled.get(deps.realtime) ?? new Map<string, NodeJS.Timeout>();
  scheduled.set(deps.realtime, timers);
  clearTimeout(timers.get(row.id));
  timers.delete(row.id);
  const send = () =>
    publishToInstance(deps.realtime, "announcement.published", { id: row.id, title: row.title }, row.audience === "everyone" ? undefined : row.audience);
  const wait = new Date(row.publishAt).getTime() - deps.now().getTime();
  if (wait <= 0) {
    send();
    return;
  }
  if (wait > SCHEDULE_MAX_MS) return;
  const timer = setTimeout(() => {
    timers.delete(row.id);
    send();
  }, wait);
  timer.unref();
  timers.set(row.id, timer);
}

function unschedule(deps: Pick<Deps, "realtime">, id: string): void {
  const timers = scheduled.get(deps.realtime);
  clearTimeout(timers?.get(id));
  timers?.delete(id);
}

function adminView(row: Row, readCount: number, now: string): AdminAnnouncement {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    audience: row.audience as Audience,
    publishAt: row.publishAt,
    published: row.publishAt <= now,
    readCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function readCountOf(deps: Pick<Deps, "db">, id: string): Promise<number> {
  const row = await deps.db.select({ value: count() }).from(announcementReads).where(eq(announcementReads.announcementId, id)).get();
  return row?.value ?? 0;
}

/** Publishes an announcement (instance administrator); open consoles it addresses hear of it when publishAt comes. */
export async function createAnnouncement(
  deps: Pick<Deps, "db" | "now" | "realtime">,
  auth: Auth,
  input: z.infer<typeof createAnnouncementBody>,
): Promise<AdminAnnouncement> {
  const now = deps.now().toISOString();
  const row = await deps.db
    .insert(announcements)
    .values({
      id: newId("ann"),
      title: input.title,
      body: input.body,
      audience: input.audience,
      publishAt: input.publishAt ? isoOf(input.publishAt) : now,
      authorUserId: auth.userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  announce(deps, row);
  return adminView(row, 0, now);
}

/** Every announcement, newest publishAt first, with how many users read each (instance administrator). */
export async function listAllAnnouncements(deps: Pick<Deps, "db" | "now">, query: { pageNo?: number | undefined; pageSize?: number | undefined }) {
  const { pageNo, pageSize, offset } = paging(query);
  const reads = deps.db
    .select({ announcementId: announcementReads.announcementId, value: count().as("read_count") })
    .from(announcementReads)
    .groupBy(announcementReads.announcementId)
    .as("reads");
  const [rows, total] = await Promise.all([
    deps.db
      .select({ row: announcements, readCount: reads.value })
      .from(announcements)
      .leftJoin(reads, eq(reads.announcementId, announcements.id))
      .orderBy(desc(announcements.publishAt), desc(announcements.id))
      .limit(pageSize)
      .offset(offset)
      .all(),
    deps.db.select({ value: count() }).from(announcements).get(),
  ]);
  const now = deps.now().toISOString();
  return { items: rows.map(({ row, readCount }) => adminView(row, readCount ?? 0, now)), total: total?.value ?? 0, pageNo, pageSize };
}

/**
 * Edits an announcement (instance administrator). Read states stay; an announcement moved from
 * the future to now (or to a new time) is announced again when it is published.
 */
export async function updateAnnouncement(
  deps: Pick<Deps, "db" | "now" | "realtime">,
  id: string,
  input: z.infer<typeof updateAnnouncementBody>,
): Promise<AdminAnnouncement> {
  const before = await deps.db.select().from(announcements).where(eq(announcements.id, id)).get();
  if (!before) throw fail.notFound("announcement");
  const now = deps.now().toISOString();
  const changes = {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.body !== undefined ? { body: input.body } : {}),
    ...(input.audience !== undefined ? { audience: input.audience } : {}),
    ...(input.publishAt !== undefined ? { publishAt: isoOf(input.publishAt) } : {}),
    updatedAt: now,
  };
  const row = await deps.db.update(announcements).set(changes).where(eq(announcements.id, id)).returning().get();
  if (!row) throw fail.notFound("announcement");
  // Only an announcement users had not seen yet is announced: a scheduled one moved, or one made visible by the edit.
  if (before.publishAt > now) announce(deps, row);
  return adminView(row, await readCountOf(deps, id), now);
}

/** Deletes an announcement and its read states (instance administrator). */
export async function deleteAnnouncement(deps: Pick<Deps, "db" | "realtime">, id: string): Promise<{ id: string }> {
  const deleted = await deps.db.delete(announcements).where(eq(announcements.id, id)).returning({ id: announcements.id }).all();
  if (deleted.length === 0) throw fail.notFound("announcement");
  unschedule(deps, id);
  return { id };
}

type UserRow = { id: string; title: string; body: string; audience: string; publish_at: string; read_at: string | null };
const userView = (row: UserRow): UserAnnouncement => ({
  id: row.id,
  title: row.title,
  body: row.body,
  audience: row.audience as Audience,
  publishAt: row.publish_at,
  readAt: row.read_at,
});

/** The announcements addressed to the caller, newest first, with their read state and the unread count. */
export async function listMyAnnouncements(deps: Pick<Deps, "db" | "now">, auth: Auth, query: { pageNo?: number | undefined; pageSize?: number | undefined }) {
  const { pageNo, pageSize, offset } = paging(query);
  const now = deps.now().toISOString();
  const where = addressedTo(auth, now);
  const [rows, totals] = await Promise.all([
    deps.db.all<UserRow>(sql`SELECT a.id, a.title, a.body, a.audience, a.publish_at, r.read_at
      FROM announcements a LEFT JOIN announcement_reads r ON r.announcement_id = a.id AND r.user_id = ${auth.userId}
      WHERE ${where} ORDER BY a.publish_at DESC, a.id DESC LIMIT ${pageSize} OFFSET ${offset}`),
    deps.db.all<{ total: number; unread: number | null }>(sql`SELECT COUNT(*) AS total, SUM(r.read_at IS NULL) AS unread
      FROM announcements a LEFT JOIN announcement_reads r ON r.announcement_id = a.id AND r.user_id = ${auth.userId}
      WHERE ${where}`),
  ]);
  return { items: rows.map(userView), total: totals[0]?.total ?? 0, unread: totals[0]?.unread ?? 0, pageNo, pageSize };
}

/** One announcement addressed to the caller; reading it marks it read. One not addressed to them is not found. */
export async function readMyAnnouncement(deps: Pick<Deps, "db" | "now">, auth: Auth, id: string): Promise<UserAnnouncement> {
  const now = deps.now().toISOString();
  // Marks it read only when it is addressed to the caller: the insert selects it under the same rule.
  await deps.db.run(sql`INSERT INTO announcement_reads (user_id, announcement_id, read_at)
    SELECT ${auth.userId}, a.id, ${now} FROM announcements a WHERE a.id = ${id} AND ${addressedTo(auth, now)}
    ON CONFLICT DO NOTHING`);
  const rows = await deps.db.all<UserRow>(sql`SELECT a.id, a.title, a.body, a.audience, a.publish_at, r.read_at
    FROM announcements a LEFT JOIN announcement_reads r ON r.announcement_id = a.id AND r.user_id = ${auth.userId}
    WHERE a.id = ${id} AND ${addressedTo(auth, now)}`);
  if (!rows[0]) throw fail.notFound("announcement");
  return userView(rows[0]);
}

/** Marks every announcement addressed to the caller read, in one statement; answers how many were newly marked. */
export async function readAllMyAnnouncements(deps: Pick<Deps, "db" | "now">, auth: Auth): Promise<{ marked: number }> {
  const now = deps.now().toISOString();
  const rows = await deps.db.all<{ id: string }>(sql`INSERT INTO announcement_reads (user_id, announcement_id, read_at)
    SELECT ${auth.userId}, a.id, ${now} FROM announcements a WHERE ${addressedTo(auth, now)}
    ON CONFLICT DO NOTHING RETURNING announcement_id AS id`);
  return { marked: rows.length };
}

/** How many announcements addressed to the caller they have not read: one query. */
export async function announcementStats(deps: Pick<Deps, "db" | "now">, auth: Auth): Promise<{ unread: number }> {
  const now = deps.now().toISOString();
  const rows = await deps.db.all<{ unread: number }>(sql`SELECT COUNT(*) AS unread FROM announcements a
    WHERE ${addressedTo(auth, now)}
    AND NOT EXISTS (SELECT 1 FROM announcement_reads r WHERE r.announcement_id = a.id AND r.user_id = ${auth.userId})`);
  return { unread: rows[0]?.unread ?? 0 };
}
