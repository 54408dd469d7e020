import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { newId } from "../../crypto";
import { balanceAlerts, creditLedger, notices, spaceMembers, spaces, users } from "../../db/schema/index";
import { fail } from "../../errors";
import { messageText } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";
import type { Auth, Deps } from "../../kernel";

/** Where a balance alert's notice goes. */
export const alertChannels = ["email", "sms", "in-app"] as const;
/** One of {@link alertChannels}. */
export type AlertChannel = (typeof alertChannels)[number];

/** Largest threshold an alert may watch for. */
export const ALERT_THRESHOLD_MAX = 1_000_000_000;

/** A space's balance alert as answered: null fields until someone saves one. */
export interface BalanceAlertView {
  threshold: number | null;
  channels: AlertChannel[];
  /** Members told besides the owner. */
  notifyMemberIds: string[];
  enabled: boolean;
  /** A notice went out and the balance has not risen to the threshold since. */
  fired: boolean;
  firedAt: string | null;
  updatedAt: string | null;
}

interface Watched {
  threshold: number;
  enabled: boolean;
}

/*
 * Every ledger movement passes through {@link watchBalance}, chat charges included, so the
 * threshold of each space is remembered per database (null: no alert) and the database is only
 * touched when a movement actually crosses it. Saving an alert refreshes the entry.
 */
const watchedByDb = new WeakMap<object, Map<string, Watched | null>>();

function watchedOf(deps: Pick<Deps, "db">): Map<string, Watched | null> {
  let map = watchedByDb.get(deps.db);
  if (!map) {
    map = new Map();
    watchedByDb.set(deps.db, map);
  }
  return map;
}

async function watchedSpace(deps: Pick<Deps, "db">, spaceId: string): Promise<Watched | null> {
  const map = watchedOf(deps);
  const known = map.get(spaceId);
  if (known !== undefined) return known;
  const row = await deps.db
    .select({ threshold: balanceAlerts.threshold, enabled: balanceAlerts.enabled })
    .from(balanceAlerts)
    .where(eq(balanceAlerts.spaceId, spaceId))
    .get();
  const watched = row ? { threshold: row.threshold, enabled: row.enabled } : null;
  map.set(spaceId, watched);
  return watched;
}

/**
 * Called after every ledger movement with its delta and the balance after it. Crossing the
 * threshold downwards fires the alert once (a conditional update of `fired`, so concurrent
 * movements fire it once); rising to it or above re-arms it. Other movements cost a map lookup.
 */
export async function watchBalance(
  deps: Pick<Deps, "db" | "logger" | "mail" | "now" | "sms">,
  spaceId: string,
  delta: number,
  balanceAfter: number,
): Promise<void> {
  if (delta === 0) return;
  const watched = await watchedSpace(deps, spaceId);
  if (!watched?.enabled) return;
  const before = balanceAfter - delta;
  const { threshold } = watched;
  if (delta < 0 && before >= threshold && balanceAfter < threshold) {
    await fireAlert(deps, spaceId, balanceAfter);
  } else if (delta > 0 && before < threshold && balanceAfter >= threshold) {
    await deps.db.update(balanceAlerts).set({ fired: false }).where(eq(balanceAlerts.spaceId, spaceId));
  }
}

async function fireAlert(deps: Pick<Deps, "db" | "logger" | "mail" | "now" | "sms">, spaceId: string, balance: number): Promise<void> {
  const now = deps.now().toISOString();
  const fired = await deps.db.all<{ threshold: number; channels: string }>(sql`
    UPDATE balance_alerts SET fired = 1, fired_at = ${now}
    WHERE space_id = ${spaceId} AND enabled = 1 AND fired = 0 AND threshold > ${balance}
    RETURNING threshold, channels`);
  const alert = fired[0];
  if (!alert) return;
  const channels = JSON.parse(alert.channels) as AlertChannel[];
  const space = await deps.db
    .select({ name: spaces.name, ownerUserId: spaces.ownerUserId, notifyMemberIds: balanceAlerts.notifyMemberIds })
    .from(spaces)
    .innerJoin(balanceAlerts, eq(balanceAlerts.spaceId, spaces.id))
    .where(eq(spaces.id, spaceId))
    .get();
  if (!space) return;
  // The owner, and the chosen members who still belong to the space.
  const wanted = [...new Set([space.ownerUserId, ...parseIds(space.notifyMemberIds)])];
  const recipients = await deps.db
    .select({ userId: users.id, email: users.email, phone: users.phone, language: users.language })
    .from(spaceMembers)
    .innerJoin(users, eq(users.id, spaceMembers.userId))
    .where(and(eq(spaceMembers.spaceId, spaceId), inArray(spaceMembers.userId, wanted)));
  const params = { space: space.name, balance, threshold: alert.threshold };
  if (channels.includes("in-app") && recipients.length > 0) {
    await deps.db.insert(notices).values(
      recipients.map((person) => ({
        id: newId("ntc"),
        userId: person.userId,
        spaceId,
        kind: "balance-alert",
        params: JSON.stringify(params),
        createdAt: now,
      })),
    );
  }
  for (const person of recipients) {
    const language = person.language as Language;
    const subject = messageText(language, "balance_alert.subject", params);
    const text = messageText(language, "balance_alert.body", params);
    // Delivery is the provider's business: it must not hold up the movement that crossed the line.
    if (channels.includes("email") && person.email) {
      void deps.mail
        .send({ to: person.email, subject, text })
        .catch((error: unknown) => deps.logger.warn("balance alert e-mail failed", { spaceId, error: String(error) }));
    }
    if (channels.includes("sms") && person.phone && deps.sms) {
      void deps.sms
        .send({
          phone: person.phone,
          template: "balance-alert",
          params: { space: space.name.slice(0, 20), balance: String(balance), threshold: String(alert.threshold) },
          text,
        })
        .catch((error: unknown) => deps.logger.warn("balance alert SMS failed", { spaceId, error: String(error) }));
    }
  }
}

function parseIds(value: string): string[] {
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

/** The balance alert of the caller's space. */
export async function getBalanceAlert(deps: Pick<Deps, "db">, auth: Auth): Promise<BalanceAlertView> {
  const row = await deps.db.select().from(balanceAlerts).where(eq(balanceAlerts.spaceId, auth.spaceId)).get();
  if (!row) return { threshold: null, channels: ["in-app"], notifyMemberIds: [], enabled: false, fired: false, firedAt: null, updatedAt: null };
  return {
    threshold: row.threshold,
    channels: JSON.parse(row.channels) as AlertChannel[],
    notifyMemberIds: parseIds(row.notifyMemberIds),
    enabled: row.enabled,
    fired: row.fired,
    firedAt: row.firedAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Saves the balance alert of the caller's space (owner or admin). A balance already below the
 * new threshold counts as crossed: the next notice waits until it has risen to it again.
 */
export async function putBalanceAlert(
  deps: Pick<Deps, "db" | "now" | "sms">,
  auth: Auth,
  input: {
    threshold?: number | null | undefined;
    channels?: AlertChannel[] | undefined;
    notifyMemberIds?: string[] | undefined;
    enabled?: boolean | undefined;
  },
): Promise<BalanceAlertView> {
  if (auth.role === "member") throw fail.forbidden("space_admin_only");
  const threshold = input.threshold;
  if (threshold === undefined || threshold === null) throw fail.invalid("threshold_required", "threshold");
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > ALERT_THRESHOLD_MAX) {
    throw fail.invalid("app_value_range", "threshold", { field: "threshold", min: 1, max: ALERT_THRESHOLD_MAX });
  }
  const channels: AlertChannel[] = [...new Set(input.channels ?? (["in-app"] as AlertChannel[]))];
  if (channels.length === 0) throw fail.invalid("balance_alert_channels_required", "channels");
  if (channels.includes("sms") && !deps.sms) throw fail.invalid("balance_alert_sms_unavailable", "channels");
  let notifyMemberIds: string[] | undefined;
  if (input.notifyMemberIds !== undefined) {
    notifyMemberIds = [...new Set(input.notifyMemberIds)];
    const known = new Set(
      notifyMemberIds.length === 0
        ? []
        : (
            await deps.db
              .select({ userId: spaceMembers.userId })
              .from(spaceMembers)
              .where(and(eq(spaceMembers.spaceId, auth.spaceId), inArray(spaceMembers.userId, notifyMemberIds)))
          ).map((row) => row.userId),
    );
    const index = input.notifyMemberIds.findIndex((id) => !known.has(id));
    if (index >= 0) throw fail.invalid("notify_member_unknown", `notifyMemberIds.${index}`);
  }
  await storeBalanceAlert(deps, auth.spaceId, { threshold, channels, enabled: input.enabled ?? true, ...(notifyMemberIds ? { notifyMemberIds } : {}) });
  return getBalanceAlert(deps, auth);
}

/**
 * Stores a space's balance alert, already checked, and refreshes what the watcher remembers.
 * Also behind the older `/api/v1/thresholds/balance-alert`, so both routes set the one alert.
 */
export async function storeBalanceAlert(
  deps: Pick<Deps, "db" | "now">,
  spaceId: string,
  input: { threshold: number; channels: AlertChannel[]; enabled: boolean; notifyMemberIds?: string[] },
): Promise<void> {
  const { threshold, channels, enabled } = input;
  const latest = await deps.db
    .select({ balance: creditLedger.balanceAfter })
    .from(creditLedger)
    .where(eq(creditLedger.spaceId, spaceId))
    .orderBy(desc(creditLedger.seq))
    .limit(1)
    .get();
  const fired = latest !== undefined && latest.balance < threshold;
  const now = deps.now().toISOString();
  const values = {
    threshold,
    channels: JSON.stringify(channels),
    ...(input.notifyMemberIds ? { notifyMemberIds: JSON.stringify(input.notifyMemberIds) } : {}),
    enabled,
    fired,
    updatedAt: now,
  };
  await deps.db
    .insert(balanceAlerts)
    .values({ spaceId, ...values })
    .onConflictDoUpdate({ target: balanceAlerts.spaceId, set: values });
  watchedOf(deps).set(spaceId, { threshold, enabled });
}

/** In-app notices of the caller, newest first, with how many are unread. */
export async function listNotices(deps: Pick<Deps, "db">, auth: Auth, input: { limit: number; offset: number }) {
  const rows = await deps.db
    .select()
    .from(notices)
    .where(eq(notices.userId, auth.userId))
    .orderBy(desc(notices.createdAt), desc(notices.id))
    .limit(input.limit)
    .offset(input.offset);
  const unread = await deps.db.all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM notices WHERE user_id = ${auth.userId} AND read_at IS NULL`);
  return {
    unread: unread[0]?.n ?? 0,
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      spaceId: row.spaceId,
      params: JSON.parse(row.params) as Record<string, string | number>,
      readAt: row.readAt,
      createdAt: row.createdAt,
    })),
  };
}

/** Marks one of the caller's notices read; someone else's is not found. */
export async function markNoticeRead(deps: Pick<Deps, "db" | "now">, auth: Auth, id: string): Promise<{ id: string; readAt: string }> {
  const now = deps.now().toISOString();
  await deps.db
    .update(notices)
    .set({ readAt: now })
    .where(and(eq(notices.id, id), eq(notices.userId, auth.userId), isNull(notices.readAt)));
  const row = await deps.db
    .select({ readAt: notices.readAt })
    .from(notices)
    .where(and(eq(notices.id, id), eq(notices.userId, auth.userId)))
    .get();
  if (!row?.readAt) throw fail.notFound("notice");
  return { id, readAt: row.readAt };
}
