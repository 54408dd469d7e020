import { and, eq, gte, lte, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { fail } from "../../errors";
import { followsApp, type RangeCaller } from "../../access/follow";

/** The longest time range a query or export may span. */
export const MAX_RANGE_DAYS = 366;
/** The range when none is given: the last 30 days. */
export const DEFAULT_RANGE_DAYS = 30;
const DAY_MS = 86_400_000;

/** What records, exports and the dashboard are filtered by. */
export interface AnalysisFilters {
  from?: string | undefined;
  to?: string | undefined;
  appId?: string | undefined;
  channel?: string | undefined;
  /** A model id, or `plugin:<code>`. */
  model?: string | undefined;
}

/** A resolved time range, as ISO timestamps (UTC). */
export interface TimeRange {
  from: string;
  to: string;
}

/**
 * The filters' time range: the last 30 days up to now by default. An inverted range or one of
 * more than {@link MAX_RANGE_DAYS} days is refused, naming the field.
 */
export function timeRangeOf(filters: Pick<AnalysisFilters, "from" | "to">, now: Date): TimeRange {
  const to = filters.to ? new Date(filters.to) : now;
  const from = filters.from ? new Date(filters.from) : new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
  if (to.getTime() < from.getTime()) throw fail.invalid("analysis_range_inverted", "to", { field: "to" });
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) throw fail.invalid("analysis_range_too_long", "from", { field: "from", days: MAX_RANGE_DAYS });
  return { from: from.toISOString(), to: to.toISOString() };
}

/**
 * The condition of a space's rows in a time range, of the caller's apps, narrowed by app and
 * channel (and model when the table has one).
 */
export function rowsWhere(
  auth: RangeCaller,
  columns: { spaceId: SQLiteColumn; createdAt: SQLiteColumn; appId: SQLiteColumn; channel: SQLiteColumn; model?: SQLiteColumn },
  range: TimeRange,
  filters: AnalysisFilters,
  ...more: Array<SQL | undefined>
): SQL | undefined {
  return and(
    eq(columns.spaceId, auth.spaceId),
    gte(columns.createdAt, range.from),
    lte(columns.createdAt, range.to),
    filters.appId ? eq(columns.appId, filters.appId) : undefined,
    filters.channel ? eq(columns.channel, filters.channel) : undefined,
    filters.model && columns.model ? eq(columns.model, filters.model) : undefined,
    followsApp(auth, columns.appId),
    ...more,
  );
}
