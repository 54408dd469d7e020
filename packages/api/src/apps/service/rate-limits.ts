import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import { newId } from "../../crypto";
import { rateLimitRules } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { followsApp } from "../../access/follow";
import { loadApp } from "./load";

/** Channels a rule applies to (spec §3 Rate limit rule): all, personal subscription, enterprise official account, WeChat Work internal app. */
export const rateLimitChannels = ["all", "personal", "official_account", "wecom_internal"] as const;

/** Periods a rule counts over. */
export const rateLimitPeriods = ["second", "minute", "hour", "day"] as const;

/** Largest count a rule may allow per period. */
export const RATE_LIMIT_COUNT_MAX = 1_000_000;

/** Longest reply sent when a limit is exceeded. */
export const RATE_LIMIT_REPLY_MAX = 500;

/** A channel a rule can target. */
export type RateLimitChannel = (typeof rateLimitChannels)[number];

/** A rate-limit rule as the console and the chat engine see it. */
export interface RateLimitRule {
  id: string;
  appId: string;
  targetChannel: RateLimitChannel;
  periodUnit: (typeof rateLimitPeriods)[number];
  /** Messages one end user may send per period; at least 1. */
  count: number;
  /** Sent when the limit is hit; null sends nothing. */
  replyWhenExceeded: string | null;
  createdAt: string;
  updatedAt: string;
}

type RuleRow = typeof rateLimitRules.$inferSelect;

function ruleView(row: RuleRow): RateLimitRule {
  return {
    id: row.id,
    appId: row.appId,
    targetChannel: row.targetChannel,
    periodUnit: row.periodUnit,
    count: row.count,
    replyWhenExceeded: row.replyWhenExceeded,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** What a person sends to create a rule; `replyWhenExceeded` defaults to no reply. */
export interface RateLimitInput {
  targetChannel: RateLimitChannel;
  periodUnit: RateLimitRule["periodUnit"];
  count: number;
  replyWhenExceeded?: string | null | undefined;
}

function checkCount(value: number) {
  if (value === 0) throw fail.invalid("rate_limit_count_zero", "count");
  if (!Number.isInteger(value) || value < 1 || value > RATE_LIMIT_COUNT_MAX) {
    throw fail.invalid("app_value_range", "count", { field: "count", min: 1, max: RATE_LIMIT_COUNT_MAX });
  }
}

function replyOf(value: string | null | undefined): string | null {
  const reply = value?.trim() || null;
  if (reply && [...reply].length > RATE_LIMIT_REPLY_MAX) {
    throw fail.invalid("app_text_too_long", "replyWhenExceeded", { field: "replyWhenExceeded", max: RATE_LIMIT_REPLY_MAX });
  }
  return reply;
}

async function checkUnique(deps: Pick<Deps, "db">, appId: string, rule: { targetChannel: string; periodUnit: string }, exceptId?: string) {
  const same = await deps.db
    .select({ id: rateLimitRules.id })
    .from(rateLimitRules)
    .where(
      and(
        eq(rateLimitRules.appId, appId),
        eq(rateLimitRules.targetChannel, rule.targetChannel as RateLimitChannel),
        eq(rateLimitRules.periodUnit, rule.periodUnit as RateLimitRule["periodUnit"]),
      ),
    );
  if (same.some((row) => row.id !== exceptId)) throw fail.conflict("rate_limit_duplicate");
}

async function loadRule(deps: Pick<Deps, "db">, auth: Auth, ruleId: string): Promise<RuleRow> {
  const row = await deps.db
    .select()
    .from(rateLimitRules)
    .where(and(eq(rateLimitRules.id, ruleId), eq(rateLimitRules.spaceId, auth.spaceId), followsApp(auth, rateLimitRules.appId)))
    .get();
  if (!row) throw fail.notFound("rate_limit_rule");
  return row;
}

/** Rules of an app of the caller's space, oldest first. */
export async function listAppRateLimits(deps: Pick<Deps, "db">, auth: Auth, appId: string): Promise<RateLimitRule[]> {
  await loadApp(deps, auth, appId);
  return listRateLimitRules(deps, appId);
}

/** Adds a rule to an app; one rule per channel and period. */
export async function createRateLimit(deps: Pick<Deps, "db" | "now">, auth: Auth, appId: string, input: RateLimitInput): Promise<RateLimitRule> {
  await loadApp(deps, auth, appId);
  checkCount(input.count);
  const replyWhenExceeded = replyOf(input.replyWhenExceeded);
  await checkUnique(deps, appId, input);
  const now = deps.now().toISOString();
  const row = {
    id: newId("rlr"),
    spaceId: auth.spaceId,
    appId,
    targetChannel: input.targetChannel,
    periodUnit: input.periodUnit,
    count: input.count,
    replyWhenExceeded,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(rateLimitRules).values(row);
  return ruleView(row);
}

/** Changes a rule of the caller's space. */
export async function updateRateLimit(deps: Pick<Deps, "db" | "now">, auth: Auth, ruleId: string, input: Partial<RateLimitInput>): Promise<RateLimitRule> {
  const current = await loadRule(deps, auth, ruleId);
  if (input.count !== undefined) checkCount(input.count);
  const next = {
    targetChannel: input.targetChannel ?? current.targetChannel,
    periodUnit: input.periodUnit ?? current.periodUnit,
    count: input.count ?? current.count,
    replyWhenExceeded: input.replyWhenExceeded === undefined ? current.replyWhenExceeded : replyOf(input.replyWhenExceeded),
  };
  await checkUnique(deps, current.appId, next, ruleId);
  const updated = await deps.db
    .update(rateLimitRules)
    .set({ ...next, updatedAt: deps.now().toISOString() })
    .where(and(eq(rateLimitRules.id, ruleId), eq(rateLimitRules.spaceId, auth.spaceId)))
    .returning();
  if (!updated[0]) throw fail.notFound("rate_limit_rule");
  return ruleView(updated[0]);
}

/** Deletes a rule of the caller's space. */
export async function deleteRateLimit(deps: Pick<Deps, "db">, auth: Auth, ruleId: string) {
  const removed = await deps.db
    .delete(rateLimitRules)
    .where(and(eq(rateLimitRules.id, ruleId), eq(rateLimitRules.spaceId, auth.spaceId), followsApp(auth, rateLimitRules.appId)))
    .returning({ id: rateLimitRules.id });
  if (removed.length === 0) throw fail.notFound("rate_limit_rule");
  return { deleted: true as const };
}

/**
 * Every rule of an app, oldest first, for the chat engine. No space check: the engine has
 * already resolved the app it is answering for.
 */
export async function listRateLimitRules(deps: Pick<Deps, "db">, appId: string): Promise<RateLimitRule[]> {
  // Every chat turn reads these, so the query is prepared once.
  const rows = await prepared(deps.db, "apps.rateLimitRules", () =>
    deps.db
      .select()
      .from(rateLimitRules)
      .where(eq(rateLimitRules.appId, sql.placeholder("appId")))
      .orderBy(asc(rateLimitRules.createdAt), asc(rateLimitRules.id))
      .prepare(),
  ).all({ appId });
  return rows.map(ruleView);
}

/** The rules that apply to a message arriving on one channel: that channel's and those for all channels. */
export async function rateLimitRulesFor(deps: Pick<Deps, "db">, appId: string, channel: Exclude<RateLimitChannel, "all">): Promise<RateLimitRule[]> {
  const rows = await deps.db
    .select()
    .from(rateLimitRules)
    .where(and(eq(rateLimitRules.appId, appId), inArray(rateLimitRules.targetChannel, ["all", channel])))
    .orderBy(asc(rateLimitRules.createdAt), asc(rateLimitRules.id));
  return rows.map(ruleView);
}
