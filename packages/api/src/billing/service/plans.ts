import { eq } from "drizzle-orm";
import { planSettings, spacePlans, spaces } from "../../db/schema/index";
import type { Deps } from "../../kernel";

/** Member grades, lowest first (the session's names of the plans' levels). */
export const memberGrades = ["FREE", "NORMAL", "PROFESSION", "ENTERPRISE", "CUSTOM"] as const;
/** One of {@link memberGrades}. */
export type MemberGrade = (typeof memberGrades)[number];

/** Plan codes of the catalogue, cheapest first. */
export const planCodes = ["free", "pro", "team", "enterprise", "custom"] as const;
/** One of {@link planCodes}. */
export type PlanCode = (typeof planCodes)[number];

/** Billing periods. A year costs ten months (two months free). */
export type PlanPeriod = "month" | "year";

/** Months in a period, for prices and included credits. */
export const PERIOD_MONTHS: Record<PlanPeriod, number> = { month: 1, year: 12 };
/** Months paid for a period: a year is paid as ten months. */
export const PERIOD_PAID_MONTHS: Record<PlanPeriod, number> = { month: 1, year: 10 };

/** Currencies prices are set in: CNY for WeChat Pay and Alipay, USD for Stripe by default. */
export type Currency = "CNY" | "USD";

/**
 * What a plan allows. Counts are items a space may hold at once; `knowledgeTokens` is the
 * knowledge capacity (tokens over all files), `knowledgeEntries` the files over all bases.
 */
export interface PlanQuotas {
  apps: number;
  workflows: number;
  knowledgeTokens: number;
  knowledgeEntries: number;
  databaseRows: number;
  customPlugins: number;
  /** Channel clients (web widget, WeChat, Slack…). */
  clients: number;
  /** Members of a team space. */
  members: number;
  /** Seats of chat management (manual service). */
  customerService: number;
}

/** A plan of the catalogue as sold. */
export interface Plan {
  code: PlanCode;
  grade: MemberGrade;
  /** Price of one month per currency, in the currency's smallest unit. */
  monthlyPrices: Record<Currency, number>;
  /** Credits granted per month of a period bought. */
  includedCredits: number;
  quotas: PlanQuotas;
  /** Offered on the price page (Custom is arranged with sales). */
  offered: boolean;
}

const defaultPlans: Record<PlanCode, Plan> = {
  free: {
    code: "free",
    grade: "FREE",
    monthlyPrices: { CNY: 0, USD: 0 },
    includedCredits: 0,
    quotas: {
      apps: 5,
      workflows: 3,
      knowledgeTokens: 2_000_000,
      knowledgeEntries: 100,
      databaseRows: 1_000,
      customPlugins: 3,
      clients: 0,
      members: 0,
      customerService: 0,
    },
    offered: true,
  },
  pro: {
    code: "pro",
    grade: "NORMAL",
    monthlyPrices: { CNY: 9_900, USD: 1_500 },
    includedCredits: 10_000,
    quotas: {
      apps: 30,
      workflows: 20,
      knowledgeTokens: 20_000_000,
      knowledgeEntries: 1_000,
      databaseRows: 50_000,
      customPlugins: 20,
      clients: 3,
      members: 0,
      customerService: 0,
    },
    offered: true,
  },
  team: {
    code: "team",
    grade: "PROFESSION",
    monthlyPrices: { CNY: 29_900, USD: 4_500 },
    includedCredits: 40_000,
    quotas: {
      apps: 100,
      workflows: 100,
      knowledgeTokens: 100_000_000,
      knowledgeEntries: 10_000,
      databaseRows: 500_000,
      customPlugins: 100,
      clients: 10,
      members: 5,
      customerService: 3,
    },
    offered: true,
  },
  enterprise: {
    code: "enterprise",
    grade: "ENTERPRISE",
    monthlyPrices: { CNY: 99_900, USD: 14_900 },
    includedCredits: 150_000,
    quotas: {
      apps: 500,
      workflows: 500,
      knowledgeTokens: 1_000_000_000,
      knowledgeEntries: 100_000,
      databaseRows: 5_000_000,
      customPlugins: 500,
      clients: 50,
      members: 100,
      customerService: 20,
    },
    offered: true,
  },
  custom: {
    code: "custom",
    grade: "CUSTOM",
    monthlyPrices: { CNY: 0, USD: 0 },
    includedCredits: 0,
    quotas: {
      apps: 2_000,
      workflows: 2_000,
      knowledgeTokens: 10_000_000_000,
      knowledgeEntries: 1_000_000,
      databaseRows: 50_000_000,
      customPlugins: 2_000,
      clients: 200,
      members: 1_000,
      customerService: 100,
    },
    offered: false,
  },
};

/** The plan of a member grade (the grade is what older rows and the session carry). */
export function planOfGrade(grade: MemberGrade): PlanCode {
  return planCodes.find((code) => defaultPlans[code].grade === grade) ?? "free";
}

/** The catalogue's defaults, before the administrator's edits. */
export function defaultPlan(code: PlanCode): Plan {
  const plan = defaultPlans[code];
  return { ...plan, monthlyPrices: { ...plan.monthlyPrices }, quotas: { ...plan.quotas } };
}

/** The catalogue as sold on this instance: the defaults with the administrator's edits. */
export async function planCatalogue(deps: Pick<Deps, "db">): Promise<Plan[]> {
  const edits = new Map((await deps.db.select().from(planSettings)).map((row) => [row.code, row]));
  return planCodes.map((code) => {
    const plan = defaultPlan(code);
    const edit = edits.get(code);
    if (!edit) return plan;
    return {
      ...plan,
      monthlyPrices: { ...plan.monthlyPrices, ...(edit.monthlyPrices ? (JSON.parse(edit.monthlyPrices) as Partial<Record<Currency, number>>) : {}) },
      includedCredits: edit.includedCredits ?? plan.includedCredits,
      quotas: { ...plan.quotas, ...(edit.quotas ? (JSON.parse(edit.quotas) as Partial<PlanQuotas>) : {}) },
      offered: edit.offered ?? plan.offered,
    };
  });
}

/** One plan of the catalogue as sold here. */
export async function planOf(deps: Pick<Deps, "db">, code: PlanCode): Promise<Plan> {
  return (await planCatalogue(deps)).find((plan) => plan.code === code)!;
}

/** Price of a plan for a period, in the currency's smallest unit (a year is ten months). */
export function priceFor(plan: Plan, period: PlanPeriod, currency: Currency): number {
  return plan.monthlyPrices[currency] * PERIOD_PAID_MONTHS[period];
}

/** What a space runs on now: its paid or granted plan until it ends, then Free. */
export interface SpacePlan {
  code: PlanCode;
  period: PlanPeriod | null;
  startedAt: string | null;
  /** When the plan ends and the space falls back to Free (null: Free, or a grade set without a period). */
  expiresAt: string | null;
}

/** Adds `months` calendar months to an ISO instant (the day clamped to the month's end). */
export function addMonths(iso: string, months: number): string {
  const date = new Date(iso);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return date.toISOString();
}

/**
 * The grade a space has at `now`: the stored grade while its plan runs, Free once the plan's
 * period has ended. Every reader goes through this, so an ended plan is never seen as running,
 * even before anything rewrites the stored grade.
 */
export function effectiveGrade(storedGrade: string, planRow: { expiresAt: string } | null | undefined, nowIso: string): MemberGrade {
  if (planRow && planRow.expiresAt <= nowIso) return "FREE";
  return storedGrade as MemberGrade;
}

/** The plan a space runs on at `now`. */
export async function spacePlanOf(deps: Pick<Deps, "db" | "now">, spaceId: string): Promise<SpacePlan> {
  const row = await deps.db.select().from(spacePlans).where(eq(spacePlans.spaceId, spaceId)).get();
  if (row && row.expiresAt > deps.now().toISOString()) {
    return { code: row.planCode as PlanCode, period: row.period, startedAt: row.startedAt, expiresAt: row.expiresAt };
  }
  const space = await deps.db.select({ grade: spaces.memberGrade }).from(spaces).where(eq(spaces.id, spaceId)).get();
  // A grade set by the administrator without a period (or before plans were sold) stands as is.
  const code = row ? "free" : planOfGrade((space?.grade ?? "FREE") as MemberGrade);
  return { code, period: null, startedAt: null, expiresAt: null };
}

/** What giving a plan period changed, kept on the order so a refund can undo exactly it. */
export interface PlanGrant {
  planCode: PlanCode;
  period: PlanPeriod;
  /** The space's plan row before (null: none). */
  before: { planCode: string; period: PlanPeriod; startedAt: string; expiresAt: string } | null;
  /** The grade before. */
  gradeBefore: MemberGrade;
  /** When the granted period starts (a renewal keeps the running plan's start). */
  startedAt?: string;
  expiresAt: string;
}

/**
 * What giving a space a plan for a period would change, without changing it: the same plan
 * still running is extended from its end (renewal); another plan starts now.
 */
export async function planGrantFor(deps: Pick<Deps, "db" | "now">, input: { spaceId: string; planCode: PlanCode; period: PlanPeriod }): Promise<PlanGrant> {
  const now = deps.now().toISOString();
  const row = await deps.db.select().from(spacePlans).where(eq(spacePlans.spaceId, input.spaceId)).get();
  const space = await deps.db.select({ grade: spaces.memberGrade }).from(spaces).where(eq(spaces.id, input.spaceId)).get();
  const running = row && row.expiresAt > now && row.planCode === input.planCode;
  return {
    planCode: input.planCode,
    period: input.period,
    before: row ? { planCode: row.planCode, period: row.period, startedAt: row.startedAt, expiresAt: row.expiresAt } : null,
    gradeBefore: (space?.grade ?? "FREE") as MemberGrade,
    startedAt: running ? row.startedAt : now,
    expiresAt: addMonths(running ? row.expiresAt : now, PERIOD_MONTHS[input.period]),
  };
}

/**
 * Puts a space on the state a grant describes: its plan row and grade. Applying the same grant
 * twice changes nothing the second time, so a grant recorded before a crash can be applied again.
 */
export async function applyPlanGrant(deps: Pick<Deps, "db" | "now">, spaceId: string, grant: PlanGrant): Promise<void> {
  const now = deps.now().toISOString();
  const plan = await planOf(deps, grant.planCode);
  const values = { planCode: grant.planCode, period: grant.period, startedAt: grant.startedAt ?? now, expiresAt: grant.expiresAt, updatedAt: now };
  await deps.db
    .insert(spacePlans)
    .values({ spaceId, ...values })
    .onConflictDoUpdate({ target: spacePlans.spaceId, set: values });
  await deps.db.update(spaces).set({ memberGrade: plan.grade, updatedAt: now }).where(eq(spaces.id, spaceId));
}

/**
 * Gives a space a plan for a period: the same plan still running is extended from its end
 * (renewal); another plan starts now. The space's grade follows the plan at once. Answers what
 * changed, for a refund.
 */
export async function grantPlanPeriod(deps: Pick<Deps, "db" | "now">, input: { spaceId: string; planCode: PlanCode; period: PlanPeriod }): Promise<PlanGrant> {
  const grant = await planGrantFor(deps, input);
  await applyPlanGrant(deps, input.spaceId, grant);
  return grant;
}

/**
 * Undoes a plan grant (a refund). When the same plan was renewed after it (it now ends later
 * than the grant made it end), only the grant's period comes off its end; otherwise the space's
 * plan and grade go back to what they were before it.
 */
export async function revokePlanGrant(deps: Pick<Deps, "db" | "now">, spaceId: string, grant: PlanGrant): Promise<void> {
  const now = deps.now().toISOString();
  const current = await deps.db.select().from(spacePlans).where(eq(spacePlans.spaceId, spaceId)).get();
  if (current && current.planCode === grant.planCode && current.expiresAt > grant.expiresAt) {
    const expiresAt = addMonths(current.expiresAt, -PERIOD_MONTHS[grant.period]);
    await deps.db.update(spacePlans).set({ expiresAt, updatedAt: now }).where(eq(spacePlans.spaceId, spaceId));
    return;
  }
  if (grant.before) {
    const values = { ...grant.before, updatedAt: now };
    await deps.db
      .insert(spacePlans)
      .values({ spaceId, ...values })
      .onConflictDoUpdate({ target: spacePlans.spaceId, set: values });
  } else {
    await deps.db.delete(spacePlans).where(eq(spacePlans.spaceId, spaceId));
  }
  await deps.db.update(spaces).set({ memberGrade: grant.gradeBefore, updatedAt: now }).where(eq(spaces.id, spaceId));
}
