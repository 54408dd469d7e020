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

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The IANA time zone days are counted in (UTC when none is given); an unknown one is a 400 naming `timeZone`. */
export function timeZoneOf(timeZone: string | undefined): string {
  if (!timeZone) return "UTC";
  if (dayFormats.has(timeZone)) return timeZone;
  try {
    dayFormats.set(
      timeZone,
      new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
    );
  } catch {
    throw fail.invalid("analysis_time_zone_unknown", "timeZone", { field: "timeZone", zone: timeZone });
  }
  return timeZone;
}

/** The wall-clock fields of an instant in a zone ({@link timeZoneOf} checked it). */
function wallClock(at: number, timeZone: string): { day: string; utcOfWall: number } {
  const parts = Object.fromEntries(
    dayFormats
      .get(timeZoneOf(timeZone))!
      .formatToParts(new Date(at))
      .map((part) => [part.type, part.value]),
  );
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  return { day, utcOfWall: Date.parse(`${day}T${parts.hour}:${parts.minute}:00.000Z`) };
}

/** The day (YYYY-MM-DD) an instant falls on in a time zone. */
export function dayIn(at: number, timeZone: string): string {
  return timeZone === "UTC" ? new Date(at).toISOString().slice(0, 10) : wallClock(at, timeZone).day;
}

/** The instant a day (YYYY-MM-DD) starts in a time zone. */
export function dayStartIn(day: string, timeZone: string): number {
  const midnight = Date.parse(`${day}T00:00:00.000Z`);
  if (timeZone === "UTC") return midnight;
  // The zone's offset near that midnight, taken twice so a change of offset that day is followed.
  let at = midnight - (wallClock(midnight, timeZone).utcOfWall - midnight);
  at = midnight - (wallClock(at, timeZone).utcOfWall - at);
  return at;
}

const HOUR_MS = 3_600_000;

/** The zone's offset from UTC at an instant, in minutes. */
function offsetAt(at: number, timeZone: string): number {
  return timeZone === "UTC" ? 0 : Math.round((wallClock(at, timeZone).utcOfWall - Math.floor(at / 60_000) * 60_000) / 60_000);
}

/**
 * The zone's offsets over a range as runs of UTC hours: each run's offset holds for hours before
 * `until` (a YYYY-MM-DDTHH key; the last run has none). Days are probed, and a day whose offset
 * changed is searched hour by hour, so a year costs a few hundred lookups.
 */
export function offsetRuns(start: number, end: number, timeZone: string): Array<{ until?: string; minutes: number }> {
  const runs: Array<{ until?: string; minutes: number }> = [];
  let current = offsetAt(start, timeZone);
  for (let at = start; at < end; at += 24 * HOUR_MS) {
    const next = Math.min(at + 24 * HOUR_MS, end);
    if (offsetAt(next, timeZone) === current) continue;
    for (let hour = Math.floor(at / HOUR_MS) * HOUR_MS + HOUR_MS; hour <= next; hour += HOUR_MS) {
      const minutes = offsetAt(hour, timeZone);
      if (minutes === current) continue;
      runs.push({ until: new Date(hour).toISOString().slice(0, 13), minutes: current });
      current = minutes;
    }
  }
  runs.push({ minutes: current });
  return runs;
}
