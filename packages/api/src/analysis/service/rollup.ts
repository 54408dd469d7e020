import { and, eq, sql } from "drizzle-orm";
import { usageEndUsers, usageHourly } from "../../db/schema/index";
import type { Deps } from "../../kernel";
import { countQuestionWords } from "./words";

/** What the usage-record writer tells the rollup about one answered turn. */
export interface RolledRecord {
  spaceId: string;
  appId: string;
  channel: string;
  endUserId: string | null;
  credits: number;
  /** The turn's knowledge retrieval found nothing. */
  notHit: boolean;
  /** The question, for the word counts. */
  text: string;
  /** The record's time (ISO). */
  at: string;
}

/** The end user's small number in the space, given on first sight. */
async function endUserSeq(deps: Pick<Deps, "db">, spaceId: string, endUserId: string): Promise<number> {
  // One statement: the next number is read and taken together, so two writers cannot take the same.
  await deps.db.run(sql`INSERT INTO usage_end_users (space_id, end_user_id, seq)
    SELECT ${spaceId}, ${endUserId}, coalesce(max(seq), 0) + 1 FROM usage_end_users WHERE space_id = ${spaceId}
    ON CONFLICT (space_id, end_user_id) DO NOTHING`);
  const row = await deps.db
    .select({ seq: usageEndUsers.seq })
    .from(usageEndUsers)
    .where(and(eq(usageEndUsers.spaceId, spaceId), eq(usageEndUsers.endUserId, endUserId)))
    .get();
  return row!.seq;
}

/**
 * Adds one answered turn to its UTC hour's rollup (records, credits, not-hit, the user among the
 * hour's users) and its question's words to the word counts. Hours, not days, so the dashboard
 * can count days in the caller's time zone. A user listed twice after a race of two writers is
 * harmless: the dashboard counts each number once.
 */
export async function rollUpRecord(deps: Pick<Deps, "db">, record: RolledRecord): Promise<void> {
  const hour = record.at.slice(0, 13);
  const user = record.endUserId ? (await endUserSeq(deps, record.spaceId, record.endUserId)).toString(16) : "";
  const key = and(
    eq(usageHourly.spaceId, record.spaceId),
    eq(usageHourly.hour, hour),
    eq(usageHourly.appId, record.appId),
    eq(usageHourly.channel, record.channel),
  );
  const existing = await deps.db.select({ users: usageHourly.users }).from(usageHourly).where(key).get();
  const listed = !user || (existing !== undefined && `,${existing.users},`.includes(`,${user},`));
  const notHit = record.notHit ? 1 : 0;
  await deps.db.run(sql`INSERT INTO usage_hourly (space_id, hour, app_id, channel, records, credits, not_hit, users)
    VALUES (${record.spaceId}, ${hour}, ${record.appId}, ${record.channel}, 1, ${record.credits}, ${notHit}, ${user})
    ON CONFLICT (space_id, hour, app_id, channel) DO UPDATE SET
      records = records + 1, credits = credits + excluded.credits, not_hit = not_hit + excluded.not_hit,
      users = ${listed ? sql`users` : sql`CASE WHEN users = '' THEN excluded.users ELSE users || ',' || excluded.users END`}`);
  await countQuestionWords(deps, { spaceId: record.spaceId, appId: record.appId, channel: record.channel, text: record.text, at: record.at });
}

/**
 * Calls `visit` with each user number in a rollup's list ("1a,2b,…"): parsed in place, without
 * splitting the string, since the dashboard reads a whole month of them.
 */
export function forEachUser(users: string, visit: (seq: number) => void): void {
  let value = 0;
  let digits = 0;
  for (let index = 0; index <= users.length; index++) {
    const code = index < users.length ? users.charCodeAt(index) : 44;
    if (code === 44) {
      if (digits > 0) visit(value);
      value = 0;
      digits = 0;
    } else {
      value = value * 16 + (code <= 57 ? code - 48 : code - 87);
      digits++;
    }
  }
}
