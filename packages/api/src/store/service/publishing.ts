import { and, desc, eq, inArray } from "drizzle-orm";
import { newId } from "../../crypto";
import { apps, spaces, storeListings, storeSpaceSettings, workflows } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { insertClient } from "../../clients/service";
import { loadApp, settingsOf } from "../../apps/service/load";
import { checkAppSettings } from "../../apps/service/rules";
import { checkWorkflow, issueError, loadWorkflow, setWorkflowPublished } from "../../workflows/service/workflows";
import { requireInstanceAdmin } from "../../instance/service/instance";

/** Where a listing is seen. */
export type Audience = "store" | "square";
/** What a listing shows. */
export type ListingKind = "app" | "workflow";
/** A stored listing row. */
export type ListingRow = typeof storeListings.$inferSelect;

/** What the publisher sees of their listing (the administrator's reason included). */
export function publishingView(row: ListingRow) {
  return {
    listingId: row.id,
    kind: row.kind,
    audience: row.audience,
    publishedBy: row.publishedBy,
    publishedAt: row.publishedAt,
    takenDown: row.takenDownAt !== null,
    takenDownAt: row.takenDownAt,
    takedownReason: row.takedownReason,
  };
}

async function listingOf(deps: Pick<Deps, "db">, kind: ListingKind, subjectId: string) {
  return deps.db
    .select()
    .from(storeListings)
    .where(and(eq(storeListings.kind, kind), eq(storeListings.subjectId, subjectId)))
    .get();
}

async function requireSquareSpace(deps: Pick<Deps, "db">, auth: Auth, audience: Audience) {
  if (audience !== "square") return;
  const space = await deps.db.select({ kind: spaces.kind }).from(spaces).where(eq(spaces.id, auth.spaceId)).get();
  if (space?.kind !== "team") throw fail.invalid("store_square_needs_team", "audience");
}

/** Writes the listing: a new publish, a change of audience, or a publish after a take-down (which clears it). */
async function upsertListing(deps: Pick<Deps, "db" | "now">, auth: Auth, kind: ListingKind, subjectId: string, audience: Audience, webClientId: string | null) {
  const now = deps.now().toISOString();
  const values = { audience, publishedBy: auth.userId, publishedAt: now, takenDownAt: null, takenDownBy: null, takedownReason: null };
  await deps.db
    .insert(storeListings)
    .values({ id: newId("lst"), kind, subjectId, spaceId: auth.spaceId, webClientId, ...values })
    .onConflictDoUpdate({ target: [storeListings.kind, storeListings.subjectId], set: values });
  return publishingView((await listingOf(deps, kind, subjectId))!);
}

/**
 * Publishes an app of the caller's space to the store or its team's square. Every rule of spec
 * §5 App must hold with the app public: the default avatar, short texts and a missing category
 * are refused naming their field. Guests chat through a web client of the app made on first publish.
 */
export async function publishApp(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, appId: string, audience: Audience) {
  const row = await loadApp(deps, auth, appId);
  checkAppSettings({ ...settingsOf(row), isPublic: true });
  await requireSquareSpace(deps, auth, audience);
  const existing = await listingOf(deps, "app", appId);
  const webClientId =
    existing?.webClientId ??
    (await insertClient(deps, { spaceId: row.spaceId, appId, name: `Store: ${row.name}`.slice(0, 50), createdBy: auth.userId, avatarUrl: row.avatarUrl })).row
      .id;
  await deps.db.update(apps).set({ isPublic: true, updatedAt: deps.now().toISOString() }).where(eq(apps.id, appId));
  return upsertListing(deps, auth, "app", appId, audience, webClientId);
}

/**
 * Publishes a workflow of the caller's space; its own rules must hold, as for the workflow
 * square. Only a store listing (everyone) sets the workflow's public flag: a square listing is
 * for the team, so the public workflow square must not show it.
 */
export async function publishWorkflow(deps: Deps, auth: Auth, workflowId: string, audience: Audience) {
  await requireSquareSpace(deps, auth, audience);
  if (audience === "store") await setWorkflowPublished(deps, auth, workflowId, true);
  else {
    await loadWorkflow(deps, auth, workflowId);
    const issues = await checkWorkflow(deps, auth, workflowId);
    if (issues.length > 0) throw issueError(issues[0]!);
    await deps.db.update(workflows).set({ isPublic: false, publishedAt: null }).where(eq(workflows.id, workflowId));
  }
  return upsertListing(deps, auth, "workflow", workflowId, audience, null);
}

/** Takes an app or workflow of the caller's space off the store and the square. */
export async function unpublish(deps: Deps, auth: Auth, kind: ListingKind, subjectId: string) {
  if (kind === "app") {
    await loadApp(deps, auth, subjectId);
    await deps.db.update(apps).set({ isPublic: false, updatedAt: deps.now().toISOString() }).where(eq(apps.id, subjectId));
  } else {
    await loadWorkflow(deps, auth, subjectId);
    await setWorkflowPublished(deps, auth, subjectId, false);
  }
  await deps.db.delete(storeListings).where(and(eq(storeListings.kind, kind), eq(storeListings.subjectId, subjectId)));
  return { unpublished: true as const };
}

/** Where the caller's app or workflow is published, and whether it was taken down (null: not published). */
export async function publishingState(deps: Pick<Deps, "db">, auth: Auth, kind: ListingKind, subjectId: string) {
  if (kind === "app") await loadApp(deps, auth, subjectId);
  else await loadWorkflow(deps, auth, subjectId);
  const row = await listingOf(deps, kind, subjectId);
  return row ? publishingView(row) : null;
}

/**
 * The instance administrator takes a listing down: it leaves the store and the square, and its
 * publisher sees the reason until they publish again.
 */
export async function takeDownListing(deps: Pick<Deps, "db" | "now">, auth: Auth, listingId: string, reason: string) {
  await requireInstanceAdmin(deps, auth);
  const text = reason.trim();
  if (!text) throw fail.invalid("store_takedown_reason_required", "reason");
  const updated = await deps.db
    .update(storeListings)
    .set({ takenDownAt: deps.now().toISOString(), takenDownBy: auth.userId, takedownReason: text })
    .where(eq(storeListings.id, listingId))
    .returning();
  if (!updated[0]) throw fail.notFound("store_listing");
  if (updated[0].kind === "app") await deps.db.update(apps).set({ isPublic: false }).where(eq(apps.id, updated[0].subjectId));
  else await deps.db.update(workflows).set({ isPublic: false, publishedAt: null }).where(eq(workflows.id, updated[0].subjectId));
  return publishingView(updated[0]);
}

/** The square setting of the caller's space. */
export async function getSpaceStoreSettings(deps: Pick<Deps, "db">, auth: Auth) {
  const row = await deps.db.select().from(storeSpaceSettings).where(eq(storeSpaceSettings.spaceId, auth.spaceId)).get();
  return { squareOpenToEveryone: row?.squareOpenToEveryone ?? false };
}

/** Changes the square setting; only the space's owner or an administrator may. */
export async function putSpaceStoreSettings(deps: Pick<Deps, "db" | "now">, auth: Auth, input: { squareOpenToEveryone: boolean }) {
  if (auth.role === "member") throw new ServiceError("forbidden", "space_admin_only");
  const now = deps.now().toISOString();
  await deps.db
    .insert(storeSpaceSettings)
    .values({ spaceId: auth.spaceId, squareOpenToEveryone: input.squareOpenToEveryone, updatedAt: now })
    .onConflictDoUpdate({ target: storeSpaceSettings.spaceId, set: { squareOpenToEveryone: input.squareOpenToEveryone, updatedAt: now } });
  return getSpaceStoreSettings(deps, auth);
}

/** Every listing, newest first, with its app's or workflow's name: what the instance administrator reviews. */
export async function listInstanceListings(deps: Pick<Deps, "db">, auth: Auth) {
  await requireInstanceAdmin(deps, auth);
  const rows = await deps.db.select().from(storeListings).orderBy(desc(storeListings.publishedAt)).limit(500);
  const appIds = rows.filter((row) => row.kind === "app").map((row) => row.subjectId);
  const workflowIds = rows.filter((row) => row.kind === "workflow").map((row) => row.subjectId);
  const names = new Map<string, { name: string; code: string | null }>();
  if (appIds.length > 0) {
    for (const row of await deps.db.select({ id: apps.id, name: apps.name, code: apps.code }).from(apps).where(inArray(apps.id, appIds))) {
      names.set(row.id, { name: row.name, code: row.code });
    }
  }
  if (workflowIds.length > 0) {
    for (const row of await deps.db.select({ id: workflows.id, name: workflows.name }).from(workflows).where(inArray(workflows.id, workflowIds))) {
      names.set(row.id, { name: row.name, code: null });
    }
  }
  return rows.map((row) => ({ ...publishingView(row), name: names.get(row.subjectId)?.name ?? "", code: names.get(row.subjectId)?.code ?? null }));
}
