import { eq, inArray, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Auth, DataRange } from "../kernel";

/** The kinds of object a `chosen` data range lists by id. */
export type RangedKind = "app" | "knowledgeBase" | "client";

const chosenIds: Record<RangedKind, (range: Extract<DataRange, { scope: "chosen" }>) => string[]> = {
  app: (range) => range.appIds,
  knowledgeBase: (range) => range.knowledgeBaseIds,
  client: (range) => range.clientIds,
};

/** The caller's data range; callers without access details (the system itself) reach everything. */
export function rangeOf(auth: Pick<Auth, "access">): DataRange {
  return auth.access?.range ?? { scope: "all" };
}

/**
 * The SQL condition that keeps a query to the caller's data range, or undefined when the caller
 * reaches every object of the space. `kind` names the object the row is (or belongs to); objects
 * that no `chosen` list names (plugins, databases) pass `null` and are reached when created by
 * the caller. Add it to the query's `and(…)` next to the space condition.
 */
export function rangeCondition(
  auth: Pick<Auth, "userId" | "access">,
  kind: RangedKind | null,
  columns: { id: SQLiteColumn; createdBy: SQLiteColumn },
): SQL | undefined {
  const range = rangeOf(auth);
  if (range.scope === "all") return undefined;
  const own = eq(columns.createdBy, auth.userId);
  if (range.scope === "own" || kind === null) return own;
  const ids = chosenIds[kind](range);
  return ids.length > 0 ? or(own, inArray(columns.id, ids)) : own;
}

/**
 * Whether one object is in the caller's data range, for detail reads and changes: an object out
 * of range answers 404 exactly as one of another space would.
 */
export function inRange(auth: Pick<Auth, "userId" | "access">, kind: RangedKind | null, object: { id: string; createdBy: string | null }): boolean {
  const range = rangeOf(auth);
  if (range.scope === "all") return true;
  if (object.createdBy === auth.userId) return true;
  if (range.scope === "own" || kind === null) return false;
  return chosenIds[kind](range).includes(object.id);
}
