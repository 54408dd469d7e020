import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addMember, createAppVia } from "../apps/testing";
import { appendLedger, balanceOf } from "../billing/service/ledger";
import { creditLedger, spaceMembers } from "../db/schema/index";
import { spaceSchema } from "../identity/schemas";
import { expectError, expectOk } from "../testing/flows";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { workflowRunSchema } from "../workflows/schemas";
import { createWorkflowVia, line, node } from "../workflows/testing";
import { memberPrivilegeCostSchema, memberPrivilegeSchema, myCreditsSchema, teamCreditsSchema } from "./schemas";

/*
 * Enterprise credits over real HTTP (decision 0019): allocations, the balance summary, a member's
 * own view, the members quota and its cost, with the OpenAI fake answering chat turns.
 */

let fake: LlmFake;
let ctx: TestContext;
let base: string;
/** The team space the allocations are made in (sent as X-Parley-Space: admins' current space is their own). */
let team = "";

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini" });
  await ctx.deps.models.ready();
  base = await ctx.listen();
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.always({ text: "Paid for.", usage: { promptTokens: 10, completionTokens: 10 }, record: false });
});

function call(path: string, user: TestUser, init: { method?: string; json?: unknown; space?: string; language?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${user.token}` };
  if (init.space) headers["x-parley-space"] = init.space;
  if (init.language) headers["accept-language"] = init.language;
  if (init.json !== undefined) headers["content-type"] = "application/json";
  return fetch(`${base}${path}`, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
}

const allocate = (owner: TestUser, userId: string, amount: unknown, language?: string) =>
  call("/api/v1/team/credits/allocations", owner, { json: { userId, amount }, space: team, ...(language ? { language } : {}) });

async function teamOf(owner: TestUser, credits: number): Promise<string> {
  const team = await expectOk(await call("/api/v1/spaces", owner, { json: { companyName: `${owner.email} team` } }), 201, spaceSchema);
  const balance = await balanceOf(ctx.deps, team.spaceId);
  await appendLedger(ctx.deps, { spaceId: team.spaceId, delta: credits - balance, reason: "adjustment", reference: "test" });
  return team.spaceId;
}

const memberRow = (spaceId: string, userId: string) =>
  ctx.deps.db
    .select({ allocation: spaceMembers.creditAllocation, spent: spaceMembers.creditsSpent })
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)))
    .get();

describe("enterprise credits", () => {
  let owner: TestUser;
  let admin: TestUser;
  let dev: TestUser;
  let viewer: TestUser;
  let spaceId: string;

  beforeAll(async () => {
    owner = await registerUser(ctx, "credits-owner@example.com");
    admin = await registerUser(ctx, "credits-admin@example.com");
    dev = await registerUser(ctx, "credits-dev@example.com");
    viewer = await registerUser(ctx, "credits-viewer@example.com");
    spaceId = await teamOf(owner, 1000);
    team = spaceId;
    await addMember(ctx, spaceId, admin, "admin");
    await addMember(ctx, spaceId, dev, "developer");
    await addMember(ctx, spaceId, viewer, "viewer");
  });

  it("sets allocations, sums them in the summary and refuses what the balance does not cover, changing nothing", async () => {
    const summary = await expectOk(await allocate(owner, dev.user.id, 400), 200, teamCreditsSchema);
    expect(summary).toMatchObject({ balance: 1000, held: 0, allocated: 400, unallocated: 600 });
    expect(summary.members.find((member) => member.userId === dev.user.id)).toMatchObject({ allocation: 400, spent: 0, roleId: "developer", owner: false });
    expect(summary.members.find((member) => member.userId === owner.user.id)).toMatchObject({ owner: true, allocation: 0 });
    // An admin allocates too (team.edit).
    await expectOk(await allocate(admin, viewer.user.id, 500), 200, teamCreditsSchema);

    const refused = await expectError(await allocate(owner, dev.user.id, 501), 409);
    expect(refused.message).toBe("Not enough unallocated credits: at most 500 can be allocated to this member");
    const zh = await expectError(await allocate(owner, dev.user.id, 10_000, "zh-CN"), 409);
    expect(zh.message).toBe("未分配的积分不足：最多可为该成员分配 500 积分");
    expect(await memberRow(spaceId, dev.user.id)).toEqual({ allocation: 400, spent: 0 });
    // Exactly the whole balance fits; lowering always does.
    await expectOk(await allocate(owner, dev.user.id, 500), 200, teamCreditsSchema);
    const lowered = await expectOk(await allocate(owner, viewer.user.id, 100), 200, teamCreditsSchema);
    expect(lowered).toMatchObject({ allocated: 600, unallocated: 400 });
    await expectOk(await allocate(owner, viewer.user.id, 0), 200, teamCreditsSchema);
    await expectOk(await allocate(owner, dev.user.id, 0), 200, teamCreditsSchema);
  });

  it("refuses bad input, the owner, one's own allocation, strangers and roles without the team grant", async () => {
    await expectError(await allocate(owner, dev.user.id, -1), 400, { field: "amount" });
    await expectError(await allocate(owner, dev.user.id, 1.5), 400, { field: "amount" });
    await expectError(await allocate(owner, dev.user.id, "10"), 400, { field: "amount" });
    await expectError(await call("/api/v1/team/credits/allocations", owner, { json: { amount: 5 } }), 400, { field: "userId" });
    await expectError(await allocate(owner, owner.user.id, 5), 400, {
      field: "userId",
      message: "The owner spends the space's unallocated credits and has no allocation",
    });
    await expectError(await allocate(admin, admin.user.id, 5), 403, { message: "You cannot change your own allocation" });
    const stranger = await registerUser(ctx, "credits-stranger@example.com");
    await expectError(await allocate(owner, stranger.user.id, 5), 404);
    // A viewer sees the summary but cannot allocate; a developer has no team menu at all.
    await expectOk(await call("/api/v1/team/credits", viewer, { space: spaceId }), 200, teamCreditsSchema);
    await expectError(await call("/api/v1/team/credits/allocations", viewer, { space: spaceId, json: { userId: dev.user.id, amount: 5 } }), 403);
    await expectError(await call("/api/v1/team/credits", dev, { space: spaceId }), 403);
    // A personal space has no allocations.
    await expectError(await call("/api/v1/team/credits", stranger), 400, { message: "Enterprise credits belong to team spaces" });
    expect(await expectOk(await call("/api/v1/team/credits/me", stranger), 200, myCreditsSchema)).toMatchObject({ teamSpace: false, allocation: 0 });
    for (const user of [admin, dev, viewer]) expect(await memberRow(spaceId, user.user.id)).toEqual({ allocation: 0, spent: 0 });
  });

  it("never lets concurrent allocations exceed the balance", async () => {
    // 3 members × 40 concurrent requests for 400 each, on 1,000: two fit, never three.
    const targets = [admin, dev, viewer];
    const results = await Promise.all(Array.from({ length: 120 }, async (_, index) => (await allocate(owner, targets[index % 3]!.user.id, 400)).status));
    expect(results.filter((status) => status !== 200 && status !== 409)).toEqual([]);
    const rows = await Promise.all(targets.map((user) => memberRow(spaceId, user.user.id)));
    const allocated = rows.map((row) => row!.allocation);
    expect(allocated.reduce((sum, value) => sum + value, 0)).toBe(800);
    expect(allocated.filter((value) => value === 400)).toHaveLength(2);
    for (const user of targets) await expectOk(await allocate(owner, user.user.id, 0), 200, teamCreditsSchema);
  });

  it("charges a member's chat turn to their allocation, records who spent, and returns a removed member's allocation to the pool", async () => {
    const app = await createAppVia(ctx, owner, {}, { "x-parley-space": spaceId });
    await expectOk(await allocate(owner, dev.user.id, 50), 200, teamCreditsSchema);
    const turn = await call("/api/v1/chat/stream", dev, { space: spaceId, json: { appCode: app.code, message: "Hello" } });
    expect(await turn.text()).toContain("event: message-end");
    const mine = await expectOk(await call("/api/v1/team/credits/me", dev, { space: spaceId }), 200, myCreditsSchema);
    expect(mine).toMatchObject({ teamSpace: true, owner: false, allocation: 49, spent: 1, spentTotal: 1 });
    // Allocation 49 + the pool (1,000 − 1 − 49).
    expect(mine.available).toBe(999);
    const ledger = await ctx.deps.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.spaceId, spaceId), eq(creditLedger.reason, "usage")))
      .all();
    expect(ledger.map((row) => ({ userId: row.userId, delta: row.delta, fromAllocation: row.fromAllocation }))).toEqual([
      { userId: dev.user.id, delta: -1, fromAllocation: 1 },
    ]);
    // The credits record names who spent.
    const record = (await (await call("/api/v1/credits/ledger", owner)).json()) as {
      data: Array<{ reason: string; userId: string | null; fromAllocation: number }>;
    };
    expect(record.data[0]).toMatchObject({ reason: "usage", userId: dev.user.id, fromAllocation: 1 });
    const summary = await expectOk(await call("/api/v1/team/credits", owner), 200, teamCreditsSchema);
    expect(summary).toMatchObject({ balance: 999, allocated: 49, unallocated: 950 });
    expect(summary.members.find((member) => member.userId === dev.user.id)).toMatchObject({ allocation: 49, spent: 1, spentTotal: 1 });

    // The owner's turn is the space's own spending: the pool pays, the ledger names the owner.
    const ownerTurn = await call("/api/v1/chat/stream", owner, { json: { appCode: app.code, message: "Hello" } });
    expect(await ownerTurn.text()).toContain("event: message-end");
    expect(await memberRow(spaceId, dev.user.id)).toEqual({ allocation: 49, spent: 1 });
    expect(await expectOk(await call("/api/v1/team/credits/me", owner), 200, myCreditsSchema)).toMatchObject({ owner: true, allocation: 0, spentTotal: 1 });

    // The member leaves (the members area deletes the row): the pool has the allocation again.
    await ctx.deps.db.delete(spaceMembers).where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, dev.user.id)));
    const after = await expectOk(await call("/api/v1/team/credits", owner), 200, teamCreditsSchema);
    expect(after).toMatchObject({ balance: 998, allocated: 0, unallocated: 998 });
    await addMember(ctx, spaceId, dev, "developer");
  });

  it("charges a workflow run a member starts to their allocation and names them in the ledger", async () => {
    await expectOk(await allocate(owner, dev.user.id, 20), 200, teamCreditsSchema);
    const before = await memberRow(spaceId, dev.user.id);
    const workflow = await createWorkflowVia(ctx, owner, {
      elements: [
        node("start", "start", { inputs: { text: true } }),
        node("llm", "llm", { model: "gpt-4.1-mini", systemPrompt: "Be brief.", input: "Answer: {{sys.query}}", structuredOutput: [] }),
        node("end", "end", { output: "{{llm.output}}" }),
      ],
      lines: [line("start", "llm"), line("llm", "end")],
    });
    const run = await expectOk(
      await call(`/api/v1/workflows/${workflow.id}/runs`, dev, { space: spaceId, json: { wait: true, query: "Hi" } }),
      201,
      workflowRunSchema,
    );
    expect(run.status).toBe("success");
    expect(await memberRow(spaceId, dev.user.id)).toEqual({ allocation: before!.allocation - 1, spent: before!.spent + 1 });
    const last = await ctx.deps.db.select().from(creditLedger).where(eq(creditLedger.spaceId, spaceId)).orderBy(desc(creditLedger.seq)).get();
    expect(last).toMatchObject({ reason: "usage", userId: dev.user.id, fromAllocation: 1, delta: -1 });
    await expectOk(await allocate(owner, dev.user.id, 0), 200, teamCreditsSchema);
  });

  it("answers the members quota and what more seats cost in the catalogue", async () => {
    // A Free team space has room for 3 members besides the owner; it has admin, dev and viewer.
    const privilege = await expectOk(await call("/api/v1/team/member-privilege", owner), 200, memberPrivilegeSchema);
    expect(privilege).toEqual({ planCode: "free", limit: 3, used: 3, remaining: 0, canAdd: false });
    const cost = await expectOk(await call("/api/v1/team/member-privilege/cost", owner), 200, memberPrivilegeCostSchema);
    // Pro allows no more than a team space's 3; Team is the cheapest that allows more.
    expect(cost).toEqual({
      planCode: "free",
      limit: 3,
      seatPrices: null,
      upgrade: { planCode: "team", limit: 5, monthlyPrices: { CNY: 29_900, USD: 4_500 }, yearlyPrices: { CNY: 299_000, USD: 45_000 } },
    });
    await expectError(await call("/api/v1/team/member-privilege", dev, { space: spaceId }), 403);
    await expectOk(await call("/api/v1/team/member-privilege/cost", viewer, { space: spaceId }), 200, memberPrivilegeCostSchema);
  });
});
