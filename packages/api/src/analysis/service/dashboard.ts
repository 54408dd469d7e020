import { count, countDistinct, eq, sql } from "drizzle-orm";
import { apps, conversationTransfers, usageRecords } from "../../db/schema/index";
import type { Deps } from "../../kernel";
import type { RangeCaller } from "../../access/follow";
import { type AnalysisFilters, rowsWhere, timeRangeOf } from "./filters";
import { topWords } from "./records";

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

/**
 * The data dashboard over a time range: totals, the same counts per app and per channel, the
 * records, active users and credits of each day (UTC), and the top words. Every aggregate reads
 * the covering index `usage_records_dashboard_idx`, never the records' texts.
 */
export async function dashboard(deps: Pick<Deps, "db" | "now">, auth: RangeCaller, filters: AnalysisFilters) {
  const range = timeRangeOf(filters, deps.now());
  const where = rowsWhere(auth, usageRecords as never, range, { ...filters, model: undefined });
  const transfersWhere = rowsWhere(auth, conversationTransfers as never, range, { ...filters, model: undefined });
  const credits = sql<number>`coalesce(sum(${usageRecords.credits}), 0)`.mapWith(Number);
  const notHit = sql<number>`coalesce(sum(${usageRecords.knowledgeHitCount} = 0), 0)`.mapWith(Number);
  const users = countDistinct(usageRecords.endUserId);
  const day = sql<string>`substr(${usageRecords.createdAt}, 1, 10)`;
  const [totals, perApp, perChannel, daily, transfers, words, appNames] = await Promise.all([
    deps.db.select({ users, records: count(), notHit, credits }).from(usageRecords).where(where).get(),
    deps.db.select({ key: usageRecords.appId, users, records: count(), notHit, credits }).from(usageRecords).where(where).groupBy(usageRecords.appId),
    deps.db.select({ key: usageRecords.channel, users, records: count(), notHit, credits }).from(usageRecords).where(where).groupBy(usageRecords.channel),
    deps.db.select({ day, records: count(), activeUsers: users, credits }).from(usageRecords).where(where).groupBy(day).orderBy(day),
    deps.db
      .select({ appId: conversationTransfers.appId, channel: conversationTransfers.channel, n: count() })
      .from(conversationTransfers)
      .where(transfersWhere)
      .groupBy(conversationTransfers.appId, conversationTransfers.channel),
    topWords(deps, auth, range, filters, DASHBOARD_WORDS),
    deps.db.select({ id: apps.id, name: apps.name }).from(apps).where(eq(apps.spaceId, auth.spaceId)),
  ]);
  const names = new Map(appNames.map((app) => [app.id, app.name]));
  const byApp = new Map<string, DashboardCounts>();
  const byChannel = new Map<string, DashboardCounts>();
  for (const row of perApp) byApp.set(row.key ?? "", { ...zero(), ...withoutKey(row) });
  for (const row of perChannel) byChannel.set(row.key ?? "", { ...zero(), ...withoutKey(row) });
  let transferTotal = 0;
  for (const row of transfers) {
    transferTotal += row.n;
    const app = byApp.get(row.appId) ?? byApp.set(row.appId, zero()).get(row.appId)!;
    app.transfers += row.n;
    const channel = byChannel.get(row.channel) ?? byChannel.set(row.channel, zero()).get(row.channel)!;
    channel.transfers += row.n;
  }
  return {
    ...range,
    totals: { users: totals?.users ?? 0, records: totals?.records ?? 0, notHit: totals?.notHit ?? 0, credits: totals?.credits ?? 0, transfers: transferTotal },
    byApp: [...byApp].map(([appId, counts]) => ({ appId, appName: names.get(appId) ?? null, ...counts })).sort((a, b) => b.records - a.records),
    byChannel: [...byChannel].map(([channel, counts]) => ({ channel, ...counts })).sort((a, b) => b.records - a.records),
    daily,
    words,
  };
}

function withoutKey<T extends { key: unknown }>(row: T): Omit<T, "key"> {
  const { key: _key, ...rest } = row;
  return rest;
}
