import { and, count, eq, ne, sql } from "drizzle-orm";
import { planCatalogue, type PlanCode, type PlanQuotas, planOfGrade, type SpacePlan, effectiveGrade } from "../../billing/service/plans";
import { apps, channelClients, knowledgeFiles, plugins, spaceMembers, spacePlans, spaces, webClients, workflows } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Deps } from "../../kernel";
import { type MemberGrade, planQuotasFor, type QuotaOverrides } from "../../spaces/service/privileges";

/** The quotas of the catalogue, in the order they are shown. */
export const quotaKeys = [
  "apps",
  "workflows",
  "knowledgeTokens",
  "knowledgeEntries",
  "databaseRows",
  "customPlugins",
  "clients",
  "members",
  "customerService",
] as const satisfies readonly (keyof PlanQuotas)[];
/** One quota of {@link quotaKeys}. */
export type QuotaKey = (typeof quotaKeys)[number];

/**
 * Features the plan ladder gates (spec §6) and the quota that opens each: hosting channels come
 * with clients (Standard and up), manual transfer in the web embed and the remote database with
 * chat management (customer service, Pro/Team and up).
 */
export const featureGates = {
  hosting: "clients",
  manualTransfer: "customerService",
  remoteDatabase: "customerService",
} as const satisfies Record<string, QuotaKey>;
/** One gated feature. */
export type FeatureKey = keyof typeof featureGates;

/** What a space is entitled to now: its plan (Free once ended), grade and every quota. */
export interface Entitlement {
  plan: SpacePlan;
  grade: MemberGrade;
  quotas: PlanQuotas;
}

function parseOverrides(value: string | null): QuotaOverrides | null {
  if (!value) return null;
  try {
    return JSON.parse(value) as QuotaOverrides;
  } catch {
    return null;
  }
}

/**
 * The plan, effective grade and quotas of a space at `deps.now()`: the catalogue as edited on this
 * instance, the administrator's overrides on top (Custom), the team minimum of members.
 */
export async function entitlementOf(deps: Pick<Deps, "db" | "now">, spaceId: string): Promise<Entitlement> {
  const row = await deps.db
    .select({ grade: spaces.memberGrade, kind: spaces.kind, overrides: spaces.quotaOverrides, plan: spacePlans })
    .from(spaces)
    .leftJoin(spacePlans, eq(spacePlans.spaceId, spaces.id))
    .where(eq(spaces.id, spaceId))
    .get();
  if (!row) throw fail.notFound("space");
  const now = deps.now().toISOString();
  const grade = effectiveGrade(row.grade, row.plan, now);
  const running = row.plan && row.plan.expiresAt > now ? row.plan : null;
  const code: PlanCode = running ? (running.planCode as PlanCode) : planOfGrade(grade);
  const catalogue = await planCatalogue(deps);
  const plan = catalogue.find((entry) => entry.code === code) ?? catalogue[0]!;
  return {
    plan: running
      ? { code, period: running.period, startedAt: running.startedAt, expiresAt: running.expiresAt }
      : { code, period: null, startedAt: null, expiresAt: null },
    grade,
    quotas: planQuotasFor({ grade, kind: row.kind, overrides: parseOverrides(row.overrides), planQuotas: plan.quotas }),
  };
}

type Counter = (deps: Pick<Deps, "db">, spaceId: string) => Promise<number>;

async function countOf(query: { value: number } | undefined | PromiseLike<{ value: number } | undefined>): Promise<number> {
  return Number((await query)?.value ?? 0);
}

/**
 * How each quota is used. WORKFLOW apps are the face of a published workflow and count under
 * workflows, not apps; members are the people besides the owner.
 */
const counters: Record<QuotaKey, Counter> = {
  apps: (deps, spaceId) =>
    countOf(
      deps.db
        .select({ value: count() })
        .from(apps)
        .where(and(eq(apps.spaceId, spaceId), ne(apps.type, "WORKFLOW")))
        .get(),
    ),
  workflows: (deps, spaceId) => countOf(deps.db.select({ value: count() }).from(workflows).where(eq(workflows.spaceId, spaceId)).get()),
  knowledgeTokens: (deps, spaceId) =>
    countOf(
      deps.db
        .select({ value: sql<number>`coalesce(sum(${knowledgeFiles.tokenCount}), 0)` })
        .from(knowledgeFiles)
        .where(eq(knowledgeFiles.spaceId, spaceId))
        .get(),
    ),
  knowledgeEntries: (deps, spaceId) => countOf(deps.db.select({ value: count() }).from(knowledgeFiles).where(eq(knowledgeFiles.spaceId, spaceId)).get()),
  // Database rows arrive with the database feature (issue 18), which registers its counter.
  databaseRows: async () => 0,
  customPlugins: (deps, spaceId) => countOf(deps.db.select({ value: count() }).from(plugins).where(eq(plugins.spaceId, spaceId)).get()),
  clients: async (deps, spaceId) =>
    (await countOf(deps.db.select({ value: count() }).from(webClients).where(eq(webClients.spaceId, spaceId)).get())) +
    (await countOf(deps.db.select({ value: count() }).from(channelClients).where(eq(channelClients.spaceId, spaceId)).get())),
  members: (deps, spaceId) =>
    countOf(
      deps.db
        .select({ value: count() })
        .from(spaceMembers)
        .where(and(eq(spaceMembers.spaceId, spaceId), ne(spaceMembers.role, "owner")))
        .get(),
    ),
  // Chat management has no seats to create yet; the quota opens the menu (spec §6).
  customerService: async () => 0,
};

/** Lets a feature that arrives later (the database, issue 18) say how its quota is used. */
export function registerQuotaCounter(key: QuotaKey, counter: Counter): void {
  counters[key] = counter;
}

/** How much of each quota a space uses now. */
export async function usageOf(deps: Pick<Deps, "db">, spaceId: string): Promise<Record<QuotaKey, number>> {
  const values = await Promise.all(quotaKeys.map((key) => counters[key](deps, spaceId)));
  return Object.fromEntries(quotaKeys.map((key, index) => [key, values[index]!])) as Record<QuotaKey, number>;
}

function quotaRefusal(plan: PlanCode, quota: QuotaKey, limit: number): ServiceError {
  return new ServiceError(
    "upgrade_required",
    "upgrade_required_quota",
    { plan: `plan_${plan}`, quota: `quota_${quota}`, limit },
    { upgrade: { quota, limit, plan } },
  );
}

/**
 * Refuses (701) when adding `adding` to the quota's use would pass the space's limit. Lowering a
 * plan deletes nothing: items over the quota stay, new ones are refused. Use {@link withQuota}
 * around a create so two creates at once cannot both pass.
 */
export async function checkQuota(deps: Pick<Deps, "db" | "now">, spaceId: string, quota: QuotaKey, adding = 1): Promise<void> {
  if (adding <= 0) return;
  const { plan, quotas } = await entitlementOf(deps, spaceId);
  const used = await counters[quota](deps, spaceId);
  if (used + adding > quotas[quota]) throw quotaRefusal(plan.code, quota, quotas[quota]);
}

/** Refuses (701) a feature the space's plan does not include. */
export async function checkFeature(deps: Pick<Deps, "db" | "now">, spaceId: string, feature: FeatureKey): Promise<void> {
  const { plan, quotas } = await entitlementOf(deps, spaceId);
  if (quotas[featureGates[feature]] > 0) return;
  throw new ServiceError(
    "upgrade_required",
    "upgrade_required_feature",
    { plan: `plan_${plan.code}`, feature: `feature_${feature}` },
    { upgrade: { feature, plan: plan.code } },
  );
}

const tails = new Map<string, Promise<unknown>>();

/** Runs `task` after every earlier task of the same key, one at a time (in this process). */
async function serialised<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}

/**
 * Checks the quotas and runs the create that uses them, one create per space and quota at a time:
 * the count and the insert cannot interleave with another create's, so two creates at quota − 1
 * never both pass.
 */
export async function withQuota<T>(
  deps: Pick<Deps, "db" | "now">,
  spaceId: string,
  uses: Partial<Record<QuotaKey, number>>,
  create: () => Promise<T>,
): Promise<T> {
  const keys = (Object.keys(uses) as QuotaKey[]).sort();
  const step = (index: number): Promise<T> => {
    if (index === keys.length) return create();
    const key = keys[index]!;
    return serialised(`${spaceId}:${key}`, async () => {
      await checkQuota(deps, spaceId, key, uses[key] ?? 0);
      return step(index + 1);
    });
  };
  return step(0);
}
