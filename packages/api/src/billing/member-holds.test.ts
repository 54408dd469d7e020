import { and, eq, gte, lt, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addMember, createAppVia } from "../apps/testing";
import { creditLedger, keyValues, spaceMembers } from "../db/schema/index";
import { spaceSchema } from "../identity/schemas";
import { creditsFor } from "../models/pricing";
import { expectOk } from "../testing/flows";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { availableBalance, HOLD_PREFIX, takeHold, settleHold } from "./service/holds";
import { appendLedger, balanceOf } from "./service/ledger";

/*
 * Enterprise credits under concurrency (decision 0019): a member's turns spend their allocation
 * first, then the unallocated pool; anyone else's only the pool. Real SQLite on both drivers,
 * the OpenAI fake on a real socket, every request started before any is answered.
 */

let fake: LlmFake;
let ctx: TestContext;

const USAGE = { promptTokens: 10, completionTokens: 10 };
const COST = creditsFor("gpt-4.1-mini", USAGE);

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini" });
  await ctx.deps.models.ready();
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.always({ text: "Paid for.", usage: USAGE, record: false });
});

/** A team space of `owner` (their current space) whose balance is set to `credits`. */
async function teamSpaceWith(owner: TestUser, credits: number): Promise<string> {
  const team = await expectOk(
    await ctx.request("/api/v1/spaces", { method: "POST", token: owner.token, json: { companyName: `${owner.email} team` } }),
    201,
    spaceSchema,
  );
  const balance = await balanceOf(ctx.deps, team.spaceId);
  await appendLedger(ctx.deps, { spaceId: team.spaceId, delta: credits - balance, reason: "adjustment", reference: "test" });
  return team.spaceId;
}

async function allocate(owner: TestUser, userId: string, amount: number) {
  return ctx.request("/api/v1/team/credits/allocations", { method: "POST", token: owner.token, json: { userId, amount } });
}

const memberRow = (spaceId: string, userId: string) =>
  ctx.deps.db
    .select({ allocation: spaceMembers.creditAllocation, spent: spaceMembers.creditsSpent })
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)))
    .get();

const allocations = async (spaceId: string) =>
  Number(
    (
      await ctx.deps.db
        .select({ sum: sql<number>`COALESCE(SUM(${spaceMembers.creditAllocation}), 0)` })
        .from(spaceMembers)
        .where(eq(spaceMembers.spaceId, spaceId))
        .get()
    )?.sum ?? 0,
  );

const liveHolds = (spaceId: string) =>
  ctx.deps.db
    .select({ key: keyValues.key })
    .from(keyValues)
    .where(and(gte(keyValues.key, `${HOLD_PREFIX}${spaceId}:`), lt(keyValues.key, `${HOLD_PREFIX}${spaceId};`)))
    .all();

/** Usage charges of a space by who spent: total and the part paid from allocations. */
async function chargesBy(spaceId: string) {
  const rows = await ctx.deps.db
    .select({
      userId: creditLedger.userId,
      charged: sql<number>`COALESCE(SUM(-${creditLedger.delta}), 0)`,
      fromAllocation: sql<number>`COALESCE(SUM(${creditLedger.fromAllocation}), 0)`,
      rows: sql<number>`COUNT(*)`,
    })
    .from(creditLedger)
    .where(and(eq(creditLedger.spaceId, spaceId), eq(creditLedger.reason, "usage")))
    .groupBy(creditLedger.userId);
  return new Map(rows.map((row) => [row.userId, { charged: Number(row.charged), fromAllocation: Number(row.fromAllocation), rows: Number(row.rows) }]));
}

/** 1,000 concurrent chat turns; answers how many were answered, refused (870) and failed (an error event, charged nothing). */
async function burst(token: string, spaceId: string, appCode: string) {
  const results = await Promise.all(
    Array.from({ length: 1000 }, async (_, index) => {
      const response = await ctx.request("/api/v1/chat/stream", {
        method: "POST",
        token,
        headers: { "x-parley-space": spaceId },
        json: { appCode, message: `Question ${index}` },
      });
      if (response.status !== 200) return { status: response.status, code: ((await response.json()) as { code: number }).code };
      const text = await response.text();
      return { status: 200, answered: text.includes("event: message-end") && !text.includes("event: error") };
    }),
  );
  expect(results.filter((result) => result.status !== 200 && !(result.status === 402 && "code" in result && result.code === 870))).toEqual([]);
  return {
    answered: results.filter((result) => "answered" in result && result.answered).length,
    refused: results.filter((result) => "code" in result && result.code === 870).length,
  };
}

describe("enterprise credits under concurrency", () => {
  it("1,000 concurrent turns of a member with 50 allocated on a balance of 1,000 spend the allocation then only the pool; the owner's spend never eats into allocations", async () => {
    expect(COST).toBe(1);
    const owner = await registerUser(ctx, "alloc-owner@example.com");
    const member = await registerUser(ctx, "alloc-member@example.com");
    const bystander = await registerUser(ctx, "alloc-bystander@example.com");
    const spaceId = await teamSpaceWith(owner, 1000);
    await addMember(ctx, spaceId, member);
    await addMember(ctx, spaceId, bystander);
    expect((await allocate(owner, member.user.id, 50)).status).toBe(200);
    expect((await allocate(owner, bystander.user.id, 300)).status).toBe(200);
    const app = await createAppVia(ctx, owner, {}, { "x-parley-space": spaceId });

    // The member: allocation 50, pool 1000 − 350 = 650.
    const first = await burst(member.token, spaceId, app.code);
    expect(first.answered).toBeGreaterThan(0);
    let balance = await balanceOf(ctx.deps, spaceId);
    expect(balance).toBe(1000 - first.answered * COST);
    expect(first.answered * COST).toBeLessThanOrEqual(50 + 650);
    const afterMember = await memberRow(spaceId, member.user.id);
    const charges = await chargesBy(spaceId);
    // Every charge names the member, and its allocation part moved to credits_spent exactly.
    expect([...charges.keys()]).toEqual([member.user.id]);
    expect(charges.get(member.user.id)).toEqual({ charged: first.answered * COST, fromAllocation: afterMember?.spent, rows: first.answered });
    expect(afterMember!.spent).toBeGreaterThan(0);
    expect(afterMember!.spent).toBeLessThanOrEqual(50);
    expect(afterMember!.allocation).toBe(50 - afterMember!.spent);
    // What the pool paid never touched the bystander's allocation.
    expect(first.answered * COST - afterMember!.spent).toBeLessThanOrEqual(650);
    expect(await memberRow(spaceId, bystander.user.id)).toEqual({ allocation: 300, spent: 0 });
    expect(await allocations(spaceId)).toBeLessThanOrEqual(balance);
    expect(await liveHolds(spaceId)).toEqual([]);

    // The owner (the space's own spending): only the pool, never the allocations.
    const second = await burst(owner.token, spaceId, app.code);
    expect(second.answered).toBeGreaterThan(0);
    balance = await balanceOf(ctx.deps, spaceId);
    expect(balance).toBe(1000 - (first.answered + second.answered) * COST);
    expect(await memberRow(spaceId, member.user.id)).toEqual(afterMember);
    expect(await memberRow(spaceId, bystander.user.id)).toEqual({ allocation: 300, spent: 0 });
    expect((await chargesBy(spaceId)).get(owner.user.id)).toEqual({ charged: second.answered * COST, fromAllocation: 0, rows: second.answered });
    expect(await allocations(spaceId)).toBeLessThanOrEqual(balance);
    expect(await liveHolds(spaceId)).toEqual([]);
  }, 120_000);

  it("reservations of a member and of the space racing 1,000 at a time drain the pool and the member's allocation to the credit and leave other allocations whole", async () => {
    const owner = await registerUser(ctx, "alloc-race-owner@example.com");
    const member = await registerUser(ctx, "alloc-race-member@example.com");
    const bystander = await registerUser(ctx, "alloc-race-bystander@example.com");
    const spaceId = await teamSpaceWith(owner, 1000);
    await addMember(ctx, spaceId, member);
    await addMember(ctx, spaceId, bystander);
    expect((await allocate(owner, member.user.id, 50)).status).toBe(200);
    expect((await allocate(owner, bystander.user.id, 300)).status).toBe(200);
    // Each call reserves up to 3 and is charged 1 to 4 (more than it held, sometimes): the
    // member's calls and the space's own run at once until neither can reserve anything.
    let calls = 0;
    for (let round = 0; round < 50 && (await availableBalance(ctx.deps, spaceId, member.user.id)) > 0; round++) {
      await Promise.all(
        Array.from({ length: 1000 }, async (_, index) => {
          const memberUserId = index % 2 === 0 ? member.user.id : null;
          const hold = await takeHold(ctx.deps, { spaceId, amount: 3, minimum: 1, memberUserId }).catch(() => undefined);
          if (!hold) return;
          calls++;
          await settleHold(ctx.deps, hold, { credits: 1 + ((index * 7) % 4), reference: `race-${round}-${index}` });
        }),
      );
      const balance = await balanceOf(ctx.deps, spaceId);
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(await allocations(spaceId)).toBeLessThanOrEqual(balance);
      expect(await memberRow(spaceId, bystander.user.id)).toEqual({ allocation: 300, spent: 0 });
    }
    expect(calls).toBeGreaterThan(0);
    // The pool (650) and the member's 50 are spent to the credit; the bystander's 300 is all that is left.
    expect(await balanceOf(ctx.deps, spaceId)).toBe(300);
    expect(await memberRow(spaceId, member.user.id)).toEqual({ allocation: 0, spent: 50 });
    const charges = await chargesBy(spaceId);
    const memberCharges = charges.get(member.user.id)!;
    const spaceCharges = charges.get(null)!;
    expect(memberCharges.fromAllocation).toBe(50);
    expect(spaceCharges.fromAllocation).toBe(0);
    expect(memberCharges.charged + spaceCharges.charged).toBe(700);
    expect(await liveHolds(spaceId)).toEqual([]);
  }, 120_000);

  it("holds and settles stay exact when a member's hold is settled for more than it reserved, and a removed member's allocation returns to the pool", async () => {
    const owner = await registerUser(ctx, "alloc-owner2@example.com");
    const member = await registerUser(ctx, "alloc-member2@example.com");
    const spaceId = await teamSpaceWith(owner, 100);
    await addMember(ctx, spaceId, member);
    expect((await allocate(owner, member.user.id, 30)).status).toBe(200);
    // The space's own hold can take only the pool of 70.
    const own = await takeHold(ctx.deps, { spaceId, amount: 500, minimum: 1 });
    expect(own.amount).toBe(70);
    await expect(takeHold(ctx.deps, { spaceId, amount: 5 })).rejects.toMatchObject({ messageId: "insufficient_credits" });
    // The member reaches their allocation.
    const mine = await takeHold(ctx.deps, { spaceId, amount: 20, memberUserId: member.user.id });
    expect(mine).toMatchObject({ amount: 20, allocated: 20 });
    // Settling for more than held takes the member's allocation left (10), never the space's hold.
    expect(await settleHold(ctx.deps, mine, { credits: 40, reference: "m1" })).toEqual({ charged: 30, balance: 70 });
    expect(await memberRow(spaceId, member.user.id)).toEqual({ allocation: 0, spent: 30 });
    expect(await settleHold(ctx.deps, own, { credits: 70, reference: "o1" })).toEqual({ charged: 70, balance: 0 });

    // A removed member's allocation is simply gone from the sum: the pool has it again.
    await appendLedger(ctx.deps, { spaceId, delta: 100, reason: "adjustment", reference: "test" });
    expect((await allocate(owner, member.user.id, 60)).status).toBe(200);
    expect(await availableBalance(ctx.deps, spaceId)).toBe(40);
    await ctx.deps.db.delete(spaceMembers).where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, member.user.id)));
    expect(await availableBalance(ctx.deps, spaceId)).toBe(100);
    expect(await availableBalance(ctx.deps, spaceId, member.user.id)).toBe(100);
  });
});
