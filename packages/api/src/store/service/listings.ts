import { and, count, desc, eq, inArray, isNull, or, type SQL } from "drizzle-orm";
import { apps, plugins, spaceMembers, storeListings, storeSpaceSettings, workflows } from "../../db/schema/index";
import { keywordMatch } from "../../db/query-helpers";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { authenticate } from "../../identity/service/sessions";
import { appSeniorView, insertWithCode, marksOf } from "../../apps/service/apps";
import { newId } from "../../crypto";
import { withQuota } from "../../plans/service/quotas";
import { applyReaction, type ReactionKind } from "../../apps/service/reactions";
import { parseJsonArray } from "../../apps/service/load";
import { findBuiltin } from "../../plugins/service/builtins/index";
import { rangeCondition } from "../../access/range";
import type { Language } from "../../i18n/language";
import { listTemplates } from "../../templates/service/templates";

/** Longest search text; longer is refused with a message naming the limit (spec: 10 KB searches). */
export const STORE_QUERY_MAX = 100;
/** Page size of store and square lists: the default and the maximum. */
export const STORE_PAGE_SIZE = 24;

/** Who is looking: a signed-in user (their spaces decide the square) or a guest. */
export interface Viewer {
  userId: string;
  spaceIds: string[];
}

/** The viewer behind an optional bearer token; a missing or stale token is a guest, never an error. */
export async function viewerOf(deps: Pick<Deps, "db" | "now">, authorization: string | undefined): Promise<Viewer | undefined> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  if (!token) return undefined;
  try {
    const auth = await authenticate(deps, token, undefined);
    const rows = await deps.db.select({ spaceId: spaceMembers.spaceId }).from(spaceMembers).where(eq(spaceMembers.userId, auth.userId));
    return { userId: auth.userId, spaceIds: rows.map((row) => row.spaceId) };
  } catch {
    return undefined;
  }
}

/** The search text, trimmed; over {@link STORE_QUERY_MAX} characters is a 400 naming `q`. */
export function searchText(q: string | undefined): string | undefined {
  const text = q?.trim();
  if (text && [...text].length > STORE_QUERY_MAX) throw fail.invalid("store_query_too_long", "q", { max: STORE_QUERY_MAX });
  return text || undefined;
}

function paging(query: { pageNo?: number | undefined; pageSize?: number | undefined }) {
  const pageNo = Math.max(1, Math.floor(query.pageNo ?? 1));
  const pageSize = Math.min(STORE_PAGE_SIZE, Math.max(1, Math.floor(query.pageSize ?? STORE_PAGE_SIZE)));
  return { pageNo, pageSize, offset: (pageNo - 1) * pageSize };
}

type AppRow = typeof apps.$inferSelect;
type ListingRow = typeof storeListings.$inferSelect;

/**
 * The public card of a listed app: only what a guest may see. Never the settings prompt,
 * knowledge, plugins, advanced settings, ids of the space or its people.
 */
function storeAppView(app: AppRow, listing: ListingRow, marks: { thumbed: boolean; collected: boolean }) {
  return {
    kind: "app" as const,
    listingId: listing.id,
    audience: listing.audience,
    code: app.code,
    name: app.name,
    type: app.type,
    description: app.description,
    avatarUrl: app.avatarUrl,
    category: app.category,
    thumbCount: app.thumbCount,
    collectCount: app.collectCount,
    thumbed: marks.thumbed,
    collected: marks.collected,
    publishedAt: listing.publishedAt,
  };
}

const live = and(isNull(storeListings.takenDownAt), eq(storeListings.kind, "app"), eq(apps.isPublic, true));

async function withMarks(deps: Pick<Deps, "db">, viewer: Viewer | undefined, rows: { apps: AppRow; store_listings: ListingRow }[]) {
  const marks = viewer
    ? await marksOf(
        deps,
        viewer.userId,
        rows.map((row) => row.apps.id),
      )
    : new Map();
  return rows.map((row) => storeAppView(row.apps, row.store_listings, marks.get(row.apps.id) ?? { thumbed: false, collected: false }));
}

/**
 * Apps published to the store, by category and search text (name and description, LIKE
 * wildcards taken literally), sorted by collections and thumbs (`popular`) or newest first.
 */
export async function listStoreApps(
  deps: Pick<Deps, "db">,
  viewer: Viewer | undefined,
  query: {
    category?: string | undefined;
    q?: string | undefined;
    sort?: "popular" | "recent" | undefined;
    pageNo?: number | undefined;
    pageSize?: number | undefined;
  },
) {
  const { pageNo, pageSize, offset } = paging(query);
  const where = and(
    live,
    eq(storeListings.audience, "store"),
    query.category ? eq(apps.category, query.category) : undefined,
    keywordMatch([apps.name, apps.description], searchText(query.q)),
  );
  const order =
    query.sort === "recent"
      ? [desc(storeListings.publishedAt), desc(apps.id)]
      : [desc(apps.collectCount), desc(apps.thumbCount), desc(storeListings.publishedAt), desc(apps.id)];
  const base = deps.db.select().from(storeListings).innerJoin(apps, eq(apps.id, storeListings.subjectId));
  const rows = await base
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset(offset);
  const total = (await deps.db.select({ n: count() }).from(storeListings).innerJoin(apps, eq(apps.id, storeListings.subjectId)).where(where).get())?.n ?? 0;
  return { items: await withMarks(deps, viewer, rows), total, pageNo, pageSize };
}

/** Which square listings a viewer sees: their spaces' ones, and those of spaces open to everyone. */
function squareVisibility(deps: Pick<Deps, "db">, viewer: Viewer | undefined): SQL {
  const openSpaces = deps.db.select({ spaceId: storeSpaceSettings.spaceId }).from(storeSpaceSettings).where(eq(storeSpaceSettings.squareOpenToEveryone, true));
  const open = inArray(storeListings.spaceId, openSpaces);
  return viewer && viewer.spaceIds.length > 0 ? (or(open, inArray(storeListings.spaceId, viewer.spaceIds)) as SQL) : open;
}

/** The public card of a square workflow (its graph stays with the workflow square's own detail). */
function squareWorkflowView(row: typeof workflows.$inferSelect, listing: ListingRow) {
  return {
    kind: "workflow" as const,
    listingId: listing.id,
    audience: listing.audience,
    id: row.id,
    name: row.name,
    description: row.description,
    avatarUrl: row.avatarUrl,
    category: row.category,
    publishedAt: listing.publishedAt,
  };
}

/**
 * The square: apps and workflows published for a team space, seen by its members, and by
 * everyone when the space opened its square. Newest first.
 */
export async function listSquare(deps: Pick<Deps, "db">, viewer: Viewer | undefined, query: { q?: string | undefined; kind?: "app" | "workflow" | undefined }) {
  const text = searchText(query.q);
  const visible = and(isNull(storeListings.takenDownAt), eq(storeListings.audience, "square"), squareVisibility(deps, viewer));
  const appRows =
    query.kind === "workflow"
      ? []
      : await deps.db
          .select()
          .from(storeListings)
          .innerJoin(apps, eq(apps.id, storeListings.subjectId))
          .where(and(visible, eq(storeListings.kind, "app"), eq(apps.isPublic, true), keywordMatch([apps.name, apps.description], text)))
          .orderBy(desc(storeListings.publishedAt))
          .limit(100);
  const flowRows =
    query.kind === "app"
      ? []
      : await deps.db
          .select()
          .from(storeListings)
          .innerJoin(workflows, eq(workflows.id, storeListings.subjectId))
          .where(and(visible, eq(storeListings.kind, "workflow"), keywordMatch([workflows.name, workflows.description], text)))
          .orderBy(desc(storeListings.publishedAt))
          .limit(100);
  const items = [...(await withMarks(deps, viewer, appRows)), ...flowRows.map((row) => squareWorkflowView(row.workflows, row.store_listings))].sort((a, b) =>
    b.publishedAt.localeCompare(a.publishedAt),
  );
  return { items };
}

/** A listed app by its code, as its viewer may see it (store: everyone; square: as above). */
async function listedApp(deps: Pick<Deps, "db">, viewer: Viewer | undefined, code: string) {
  const row = await deps.db
    .select()
    .from(storeListings)
    .innerJoin(apps, eq(apps.id, storeListings.subjectId))
    .where(and(live, eq(apps.code, code), or(eq(storeListings.audience, "store"), squareVisibility(deps, viewer))))
    .get();
  if (!row) throw fail.notFound("store_app");
  return row;
}

/** The public page of a listed app: its card and opening introduction. */
export async function getStoreApp(deps: Pick<Deps, "db">, viewer: Viewer | undefined, code: string) {
  const row = await listedApp(deps, viewer, code);
  const [view] = await withMarks(deps, viewer, [row]);
  return { ...view!, openingIntroduction: row.apps.openingIntroduction, bottomSlogan: row.apps.bottomSlogan };
}

/** The listing and its guest web client for a code; not found unless listed and live. */
export async function guestListing(deps: Pick<Deps, "db">, viewer: Viewer | undefined, code: string) {
  return listedApp(deps, viewer, code);
}

/** A live listing of an app by its code, whatever its audience (its session already let the guest in). */
export async function liveListing(deps: Pick<Deps, "db">, code: string) {
  const row = await deps.db
    .select()
    .from(storeListings)
    .innerJoin(apps, eq(apps.id, storeListings.subjectId))
    .where(and(live, eq(apps.code, code)))
    .get();
  if (!row) throw fail.notFound("store_app");
  return row;
}

/** Thumbs or collects a listed app for a signed-in user; repeats change nothing (counts move by one). */
export async function reactToStoreApp(deps: Pick<Deps, "db" | "now">, auth: Auth, code: string, kind: ReactionKind, on: boolean) {
  const row = await listedApp(deps, await viewerFor(deps, auth), code);
  const result = await applyReaction(deps, auth.userId, row.apps.id, kind, on);
  return kind === "thumb" ? { thumbed: result.active, thumbCount: result.count } : { collected: result.active, collectCount: result.count };
}

async function viewerFor(deps: Pick<Deps, "db">, auth: Auth): Promise<Viewer> {
  const rows = await deps.db.select({ spaceId: spaceMembers.spaceId }).from(spaceMembers).where(eq(spaceMembers.userId, auth.userId));
  return { userId: auth.userId, spaceIds: rows.map((row) => row.spaceId) };
}

/**
 * Copies a listed app into the caller's space: its settings, opening introduction and the
 * plugins the space can use (built-ins, and custom plugins of the same code in the space).
 * Knowledge, databases, advanced settings (webhooks, people to notify) and rate limits stay
 * with the publisher; the answer says which plugins were left out.
 */
export async function copyStoreApp(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, code: string, nameSuffix: string) {
  const row = await listedApp(deps, await viewerFor(deps, auth), code);
  const wanted = parseJsonArray(row.apps.plugins);
  const custom = wanted.filter((plugin) => !findBuiltin(plugin));
  const own =
    custom.length > 0
      ? new Set(
          (
            await deps.db
              .select({ code: plugins.code })
              .from(plugins)
              .where(and(eq(plugins.spaceId, auth.spaceId), inArray(plugins.code, custom), rangeCondition(auth, null, plugins)))
          ).map((plugin) => plugin.code),
        )
      : new Set<string>();
  const kept = wanted.filter((plugin) => findBuiltin(plugin) || own.has(plugin));
  const now = deps.now().toISOString();
  const { id: _id, code: _code, thumbCount: _thumbs, collectCount: _collects, ...rest } = row.apps;
  const inserted = await withQuota(deps, auth.spaceId, { apps: 1 }, () =>
    insertWithCode(deps, {
      ...rest,
      id: newId("app"),
      spaceId: auth.spaceId,
      name: [...`${row.apps.name}${nameSuffix}`].slice(0, 50).join(""),
      isPublic: false,
      plugins: JSON.stringify(kept),
      knowledgeBaseIds: "[]",
      databaseIds: "[]",
      advancedConfig: "{}",
      createdBy: auth.userId,
      createdAt: now,
      updatedAt: now,
    }),
  );
  const copy = appSeniorView(deps.secrets, inserted, { thumbed: false, collected: false });
  return { app: copy, droppedPlugins: wanted.filter((plugin) => !kept.includes(plugin)), knowledgeCopied: false as const };
}

/** One hit of the top-bar search; `kind` leaves room for templates beside apps. */
export interface SearchHit {
  kind: "app" | "store_app" | "template";
  code: string;
  name: string;
  description: string;
  avatarUrl: string;
  /** Where the console opens the hit. */
  path: string;
}

/** The top-bar search: the caller's own apps (in their data range), store apps, then templates in the reader's language. */
export async function searchAll(deps: Pick<Deps, "db" | "now">, auth: Auth, q: string | undefined, language: Language, limit = 10) {
  const text = searchText(q);
  if (!text) return { items: [] as SearchHit[] };
  const ownRows = await deps.db
    .select()
    .from(apps)
    .where(and(eq(apps.spaceId, auth.spaceId), rangeCondition(auth, "app", apps), keywordMatch([apps.name, apps.description], text)))
    .orderBy(desc(apps.updatedAt))
    .limit(limit);
  const storeRows = await deps.db
    .select()
    .from(storeListings)
    .innerJoin(apps, eq(apps.id, storeListings.subjectId))
    .where(and(live, eq(storeListings.audience, "store"), keywordMatch([apps.name, apps.description], text)))
    .orderBy(desc(apps.collectCount), desc(apps.thumbCount))
    .limit(limit);
  const hit = (kind: SearchHit["kind"], row: AppRow): SearchHit => ({
    kind,
    code: row.code,
    name: row.name,
    description: row.description,
    avatarUrl: row.avatarUrl,
    path: `/app/${row.code}`,
  });
  const own = ownRows.map((row) => hit("app", row));
  const ownCodes = new Set(own.map((item) => item.code));
  const store = storeRows
    .filter((row) => !ownCodes.has(row.apps.code))
    .map((row) => ({ ...hit("store_app", row.apps), path: `/app/${row.apps.code}?store=1` }));
  const found = await listTemplates(deps, language, { keyword: text });
  const templateHits = found.items.slice(0, limit).map(
    (template): SearchHit => ({
      kind: "template",
      code: template.code,
      name: template.name,
      description: template.description,
      avatarUrl: template.avatarUrl,
      path: `/template/${template.code}`,
    }),
  );
  return { items: [...own, ...store, ...templateHits] };
}
