import { and, eq, gte, like, lt, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { sweepKeyValues } from "../channels/kv";
import { creditLedger, keyValues, usageRecords, userKeys } from "../db/schema/index";
import { creditsFor } from "../models/pricing";
import { manualClock } from "../testing/flows";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { availableBalance, HOLD_PREFIX, HOLD_TTL_MS, takeHold } from "./service/holds";
import { appendLedger, balanceOf } from "./service/ledger";

const clock = manualClock(Date.parse("2026-11-25T08:00:00Z"));
let fake: LlmFake;
let ctx: TestContext;

/** What one answer of the fake costs on gpt-4.1-mini: 1 credit, which the smallest hold covers. */
const USAGE = { promptTokens: 10, completionTokens: 10 };
const COST = creditsFor("gpt-4.1-mini", USAGE);

/**
 * A new instance and model fake for each group: after a burst of 1,000 requests the HTTP client
 * may reuse a keep-alive socket the fake (1 s keep-alive) has just closed, which would fail the
 * next group's first model call for reasons that have nothing to do with credits.
 */
function freshInstance() {
  beforeAll(async () => {
    fake = await startOpenAiFake();
    ctx = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini" }, { now: clock.now });
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
}

/** A new space (its own owner) whose balance is set to `credits`. */
async function spaceWith(email: string, credits: number): Promise<TestUser> {
  const user = await registerUser(ctx, email);
  const balance = await balanceOf(ctx.deps, user.user.spaceId);
  await appendLedger(ctx.deps, { spaceId: user.user.spaceId, delta: credits - balance, reason: "adjustment", reference: "test" });
  return user;
}

const liveHolds = (spaceId: string) =>
  ctx.deps.db
    .select({ key: keyValues.key })
    .from(keyValues)
    .where(and(gte(keyValues.key, `${HOLD_PREFIX}${spaceId}:`), lt(keyValues.key, `${HOLD_PREFIX}${spaceId};`)))
    .all();

async function usageOf(spaceId: string) {
  const ledger = await ctx.deps.db
    .select({ sum: sql<number>`COALESCE(SUM(${creditLedger.delta}), 0)`, count: sql<number>`COUNT(*)` })
    .from(creditLedger)
    .where(and(eq(creditLedger.spaceId, spaceId), eq(creditLedger.reason, "usage")))
    .get();
  const records = await ctx.deps.db
    .select({ sum: sql<number>`COALESCE(SUM(${usageRecords.credits}), 0)` })
    .from(usageRecords)
    .where(eq(usageRecords.spaceId, spaceId))
    .get();
  return { ledgerDebits: -(ledger?.sum ?? 0), ledgerRows: ledger?.count ?? 0, recorded: records?.sum ?? 0 };
}

// Every request is started before any is answered (in-process, as 1,000 sockets would overflow
// the listen backlog); the model is the OpenAI fake on a real socket, answering at once.
describe("credit holds under concurrency: a space's balance", () => {
  freshInstance();
  it("1,000 concurrent chat turns never take a space's balance below zero", async () => {
    expect(COST).toBe(1);
    const START = 40;
    const owner = await spaceWith("holds-space@example.com", START);
    const app = await createAppVia(ctx, owner);
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, async (_, index) => {
        const response = await ctx.request("/api/v1/chat/stream", {
          method: "POST",
          token: owner.token,
          json: { appCode: app.code, message: `Question ${index}` },
        });
        if (response.status !== 200) return { status: response.status, code: ((await response.json()) as { code: number }).code };
        const text = await response.text();
        return { status: 200, answered: text.includes("event: message-end") && !text.includes("event: error") };
      }),
    );
    expect(statuses.filter((result) => result.status !== 200 && !(result.status === 402 && "code" in result && result.code === 870))).toEqual([]);
    const answered = statuses.filter((result) => "answered" in result && result.answered).length;
    const refused = statuses.filter((result) => "code" in result && result.code === 870).length;
    // Under this load the client may reuse a keep-alive socket the fake just closed: such a turn
    // ends with an error event, charged nothing (checked by the sums below).
    const failed = statuses.filter((result) => "answered" in result && !result.answered).length;
    expect(answered + refused + failed).toBe(1000);
    expect(answered).toBeGreaterThan(0);
    const final = await balanceOf(ctx.deps, owner.user.spaceId);
    expect(final).toBeGreaterThanOrEqual(0);
    expect(answered * COST).toBeLessThanOrEqual(START);
    // Every answer paid in full, and the ledger, the usage records and the balance agree.
    const usage = await usageOf(owner.user.spaceId);
    expect(usage.ledgerRows).toBe(answered);
    expect(usage.ledgerDebits).toBe(answered * COST);
    expect(usage.recorded).toBe(answered * COST);
    expect(final).toBe(START - answered * COST);
    expect(await liveHolds(owner.user.spaceId)).toEqual([]);
  }, 60_000);
});

describe("credit holds under concurrency: a user key's credit limit", () => {
  freshInstance();
  it("1,000 concurrent /v1/chat/completions on a user key never pass its credit limit", async () => {
    const LIMIT = 10;
    const owner = await spaceWith("holds-key@example.com", 100_000);
    const app = await createAppVia(ctx, owner);
    const created = await ctx.request("/api/v1/user-keys", {
      method: "POST",
      token: owner.token,
      json: { name: "reseller", appCode: app.code, creditLimit: LIMIT },
    });
    const userKey = ((await created.json()) as { data: { id: string; key: string } }).data;
    const results = await Promise.all(
      Array.from({ length: 1000 }, async (_, index) => {
        const response = await ctx.request("/v1/chat/completions", {
          method: "POST",
          token: userKey.key,
          json: { model: app.code, messages: [{ role: "user", content: `Question ${index}` }] },
        });
        const body = (await response.json()) as { choices?: Array<{ message: { content: string } }>; error?: { code: string; message: string } };
        return { status: response.status, answered: body.choices?.[0]?.message.content === "Paid for.", code: body.error?.code, message: body.error?.message };
      }),
    );
    // 502: a model call that failed (a keep-alive socket the fake closed under this load), charged nothing.
    expect(
      results.filter((result) => result.status !== 200 && result.status !== 502 && !(result.status === 402 && result.code === "insufficient_credits")),
    ).toEqual([]);
    const answered = results.filter((result) => result.answered).length;
    expect(answered).toBeGreaterThan(0);
    expect(answered * COST).toBeLessThanOrEqual(LIMIT);
    const key = await ctx.deps.db.select().from(userKeys).where(eq(userKeys.id, userKey.id)).get();
    expect(key?.creditsUsed).toBe(answered * COST);
    const usage = await usageOf(owner.user.spaceId);
    expect(usage.ledgerDebits).toBe(answered * COST);
    expect(usage.recorded).toBe(answered * COST);
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(100_000 - answered * COST);
    expect(await liveHolds(owner.user.spaceId)).toEqual([]);
  }, 60_000);
});

describe("credit holds when things go wrong", () => {
  freshInstance();
  it("a failed model call releases its hold and charges nothing", async () => {
    const owner = await spaceWith("holds-fail@example.com", 30);
    const app = await createAppVia(ctx, owner);
    fake.fail(500);
    const response = await ctx.request("/api/v1/chat/stream", { method: "POST", token: owner.token, json: { appCode: app.code, message: "Hello?" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("event: error");
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(30);
    expect(await availableBalance(ctx.deps, owner.user.spaceId)).toBe(30);
    expect(await liveHolds(owner.user.spaceId)).toEqual([]);
    expect((await usageOf(owner.user.spaceId)).ledgerRows).toBe(0);
  });

  it("a hold a crashed process left lapses at its expiry and the key-value sweep deletes it", async () => {
    const owner = await spaceWith("holds-crash@example.com", 25);
    const app = await createAppVia(ctx, owner);
    // What a process that died mid-turn leaves behind: a hold nobody will settle.
    const orphan = await takeHold(ctx.deps, { spaceId: owner.user.spaceId, amount: 25 });
    expect(orphan.amount).toBe(25);
    expect(await availableBalance(ctx.deps, owner.user.spaceId)).toBe(0);
    const refused = await ctx.request("/api/v1/chat/stream", { method: "POST", token: owner.token, json: { appCode: app.code, message: "Hi" } });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ success: false, code: 870 });
    expect(await sweepKeyValues(ctx.deps.db, clock.now().getTime())).toBe(0);

    clock.advance(HOLD_TTL_MS + 1);
    expect(await availableBalance(ctx.deps, owner.user.spaceId)).toBe(25);
    expect(await sweepKeyValues(ctx.deps.db, clock.now().getTime())).toBeGreaterThanOrEqual(1);
    expect(await liveHolds(owner.user.spaceId)).toEqual([]);
    expect(
      await ctx.deps.db
        .select()
        .from(keyValues)
        .where(like(keyValues.key, `${HOLD_PREFIX}${owner.user.spaceId}:%`))
        .all(),
    ).toEqual([]);
    const answered = await ctx.request("/api/v1/chat/stream", { method: "POST", token: owner.token, json: { appCode: app.code, message: "Hi again" } });
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('"credits":1,"balance":24');
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(25 - COST);
  });
});
