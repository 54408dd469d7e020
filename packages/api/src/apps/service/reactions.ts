import { and, eq, sql } from "drizzle-orm";
import { appReactions, apps } from "../../db/schema/index";
import type { Auth, Deps } from "../../kernel";
import { loadApp } from "./load";

/** The two marks a person can put on an app. */
export type ReactionKind = "thumb" | "collect";

const counter = { thumb: apps.thumbCount, collect: apps.collectCount } as const;

/**
 * Sets or clears the caller's thumb or collect mark. Idempotent per user: the count moves by
 * exactly one only when the mark actually changes. Answers the new count and the caller's mark.
 */
export async function setReaction(deps: Pick<Deps, "db" | "now">, auth: Auth, appId: string, kind: ReactionKind, on: boolean) {
  await loadApp(deps, auth, appId);
  return applyReaction(deps, auth.userId, appId, kind, on);
}

/**
 * Sets or clears one user's mark on an app the caller already may see (its space's app, or a
 * store listing): the count moves by exactly one only when the mark actually changes.
 */
export async function applyReaction(deps: Pick<Deps, "db" | "now">, userId: string, appId: string, kind: ReactionKind, on: boolean) {
  const column = counter[kind];
  const mark = and(eq(appReactions.appId, appId), eq(appReactions.userId, userId), eq(appReactions.kind, kind));
  // The mark row decides whether the count moves, so repeats and races cannot move it twice.
  const changed = on
    ? await deps.db
        .insert(appReactions)
        .values({ appId, userId, kind, createdAt: deps.now().toISOString() })
        .onConflictDoNothing()
        .returning({ appId: appReactions.appId })
    : await deps.db.delete(appReactions).where(mark).returning({ appId: appReactions.appId });
  if (changed.length > 0) {
    await deps.db
      .update(apps)
      .set({ [kind === "thumb" ? "thumbCount" : "collectCount"]: on ? sql`${column} + 1` : sql`max(${column} - 1, 0)` })
      .where(eq(apps.id, appId));
  }
  const row = await deps.db.select({ count: column }).from(apps).where(eq(apps.id, appId)).get();
  const marked = (await deps.db.select({ appId: appReactions.appId }).from(appReactions).where(mark).get()) !== undefined;
  return { count: row?.count ?? 0, active: marked };
}
