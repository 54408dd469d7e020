import { and, count, eq, gte, lte, max, sql } from "drizzle-orm";
import { apps, conversationTransfers, usageEndUsers, usageHourly } from "../../db/schema/index";
import type { Deps } from "../../kernel";
import { followsApp, type RangeCaller } from "../../access/follow";
import { type AnalysisFilters, dayIn, dayStartIn, offsetRuns, rowsWhere, timeRangeOf, timeZoneOf } from "./filters";
import { topWords } from "./records";
import { forEachUser } from "./rollup";

/** How many high-frequency words the dashboard shows. */
export const DASHBOARD_WORDS = 50;

/** The counts of one app or channel. */
export interface DashboardCounts {
  users: number;
  records: number;
  notHit: number;
  transfers: number;
  credits: number;
}

const zero = (): DashboardCounts => ({ users: 0, records: 0, notHit: 0, transfers: 0, credits: 0 });

type DailyRow = { day: string; appId: string; channel: string; records: number; credits: number; notHit: number; users: string };

/** The user numbers of every row, parsed once into one array: row `i` holds `users[offsets[i]..offsets[i + 1])`. */
interface ParsedUsers {
  users: Int32Array;
  offsets: Int32Array;
}

function parseUsers(rows: DailyRow[], highest: number): ParsedUsers {
  let total = 0;
  for (const row of rows) total += row.users.length === 0 ? 0 : 1 + (row.users.length >> 1);
  const users = new Int32Array(total);
  const offsets = new Int32Array(rows.length + 1);
  let at = 0;
  rows.forEach((row, index) => {
    offsets[index] = at;
    forEachUser(row.users, (seq) => {
      if (seq > 0 && seq <= highest) users[at++] = seq;
    });
  });
  offsets[rows.length] = at;
  return { users, offsets };
}

/**
 * Distinct users of each group of rows (an app, a channel, a day): each user number is stamped
 * with the group last counting it, so a user counts once per group, in one pass over the rows
 * of each group.
 */
function distinctUsers(rows: DailyRow[], parsed: ParsedUsers, highest: number, groupOf: (row: DailyRow) => string): Map<string, number> {
  const groups = new Map<string, number[]>();
  rows.forEach((row, index) => {
    const key = groupOf(row);
    const list = groups.get(key);
    if (list) list.push(index);
    else groups.set(key, [index]);
  });
  const stamps = new Int32Array(highest + 1);
  const { users, offsets } = parsed;
  const counts = new Map<string, number>();
  let stamp = 0;
  for (const [key, indexes] of groups) {
    stamp++;
    let seen = 0;
    for (const index of indexes) {
      for (let at = offsets[index]!, end = offsets[index + 1]!; at < end; at++) {
        const seq = users[at]!;
        if (stamps[seq] !== stamp) {
          stamps[seq] = stamp;
          seen++;
        }
      }
    }
    counts.set(key, seen);
  }
  return counts;
}

/**
 * The data dashboard over a time range, counted in whole days of the caller's time zone (UTC by
 * default; from the day of `from` to the day of `to` there): totals, the same counts per app and
 * per channel, records, active users and credits per day, and the top words. It reads the hourly
 * rollup the usage-record writer keeps (a few rows per hour, app and channel; each hour goes to
 * the day it starts on in the zone) and the transfer records, never the usage records. Words are counted per
 * UTC day, so theirs are the UTC days that the range touches.
 */
export async function dashboard(deps: Pick<Deps, "db" | "now">, auth: RangeCaller, filters: AnalysisFilters & { timeZone?: string | undefined }) {
  const timeZone = timeZoneOf(filters.timeZone);
  const range = timeRangeOf(filters, deps.now());
  const firstDay = dayIn(Date.parse(range.from), timeZone);
  const lastDay = dayIn(Date.parse(range.to), timeZone);
  const start = dayStartIn(firstDay, timeZone);
  const end = dayStartIn(new Date(Date.parse(`${lastDay}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10), timeZone) - 1;
  const wholeDays = { from: new Date(start).toISOString(), to: new Date(end).toISOString() };
  // Each UTC hour goes to its day in the zone inside SQLite (its offset then, as a date modifier),
  // so a month is ~600 rows of (day, app, channel) with their hours' user lists joined, not 14,400.
  const runs = offsetRuns(start, end, timeZone);
  const modifier = (minutes: number) => `${minutes >= 0 ? "+" : ""}${minutes} minutes`;
  const offset =
    runs.length === 1
      ? sql`${modifier(runs[0]!.minutes)}`
      : sql`CASE ${sql.join(
          runs.map((run) => (run.until ? sql`WHEN ${usageHourly.hour} < ${run.until} THEN ${modifier(run.minutes)}` : sql`ELSE ${modifier(run.minutes)}`)),
          sql` `,
        )} END`;
  const day = sql<string>`substr(datetime(${usageHourly.hour} || ':00:00', ${offset}), 1, 10)`;
  const hours: DailyRow[] = await deps.db
    .select({
      day,
      appId: usageHourly.appId,
      channel: usageHourly.channel,
      records: sql<number>`sum(${usageHourly.records})`.mapWith(Number),
      credits: sql<number>`sum(${usageHourly.credits})`.mapWith(Number),
      notHit: sql<number>`sum(${usageHourly.notHit})`.mapWith(Number),
      users: sql<string>`coalesce(group_concat(nullif(${usageHourly.users}, '')), '')`,
    })
    .from(usageHourly)
    .where(
      and(
        eq(usageHourly.spaceId, auth.spaceId),
        gte(usageHourly.hour, wholeDays.from.slice(0, 13)),
        lte(usageHourly.hour, wholeDays.to.slice(0, 13)),
        filters.appId ? eq(usageHourly.appId, filters.appId) : undefined,
        filters.channel ? eq(usageHourly.channel, filters.channel) : undefined,
        followsApp(auth, usageHourly.appId),
      ),
    )
    .groupBy(day, usageHourly.appId, usageHourly.channel);
  const transfers = await deps.db
    .select({ appId: conversationTransfers.appId, channel: conversationTransfers.channel, n: count() })
    .from(conversationTransfers)
    .where(rowsWhere(auth, conversationTransfers as never, wholeDays, { ...filters, model: undefined }))
    .groupBy(conversationTransfers.appId, conversationTransfers.channel);
  const words = await topWords(deps, auth, wholeDays, filters, DASHBOARD_WORDS);
  const appNames = await deps.db.select({ id: apps.id, name: apps.name }).from(apps).where(eq(apps.spaceId, auth.spaceId));
  const highest =
    (
      await deps.db
        .select({ seq: max(usageEndUsers.seq) })
        .from(usageEndUsers)
        .where(eq(usageEndUsers.spaceId, auth.spaceId))
        .get()
    )?.seq ?? 0;

  const parsed = parseUsers(hours, highest);
  const usersByApp = distinctUsers(hours, parsed, highest, (row) => row.appId);
  const usersByChannel = distinctUsers(hours, parsed, highest, (row) => row.channel);
  const usersByDay = distinctUsers(hours, parsed, highest, (row) => row.day);
  const usersInAll = distinctUsers(hours, parsed, highest, () => "all").get("all") ?? 0;

  const totals = { ...zero(), users: usersInAll };
  const byApp = new Map<string, DashboardCounts>();
  const byChannel = new Map<string, DashboardCounts>();
  const byDay = new Map<string, { day: string; records: number; activeUsers: number; credits: number }>();
  const add = (into: DashboardCounts, row: DailyRow) => {
    into.records += row.records;
    into.credits += row.credits;
    into.notHit += row.notHit;
  };
  for (const row of hours) {
    add(totals, row);
    add(byApp.get(row.appId) ?? byApp.set(row.appId, { ...zero(), users: usersByApp.get(row.appId) ?? 0 }).get(row.appId)!, row);
    add(byChannel.get(row.channel) ?? byChannel.set(row.channel, { ...zero(), users: usersByChannel.get(row.channel) ?? 0 }).get(row.channel)!, row);
    const day = byDay.get(row.day) ?? byDay.set(row.day, { day: row.day, records: 0, activeUsers: usersByDay.get(row.day) ?? 0, credits: 0 }).get(row.day)!;
    day.records += row.records;
    day.credits += row.credits;
  }
  for (const row of transfers) {
    totals.transfers += row.n;
    (byApp.get(row.appId) ?? byApp.set(row.appId, zero()).get(row.appId)!).transfers += row.n;
    (byChannel.get(row.channel) ?? byChannel.set(row.channel, zero()).get(row.channel)!).transfers += row.n;
  }
  const names = new Map(appNames.map((app) => [app.id, app.name]));
  return {
    ...wholeDays,
    timeZone,
    totals,
    byApp: [...byApp].map(([appId, counts]) => ({ appId, appName: names.get(appId) ?? null, ...counts })).sort((a, b) => b.records - a.records),
    byChannel: [...byChannel].map(([channel, counts]) => ({ channel, ...counts })).sort((a, b) => b.records - a.records),
    daily: [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1)),
    words,
  };
}
