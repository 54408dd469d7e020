import { z } from "@hono/zod-openapi";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createAppVia } from "../apps/testing";
import { appendLedger, balanceOf } from "../billing/service/ledger";
import { settleHold, takeHold } from "../billing/service/holds";
import { benefitLedger, cashOuts, checkIns, creditLedger, invitations, notices, outbox, users } from "../db/schema/index";
import { creditsFor } from "../models/pricing";
import { spaceSchema } from "../identity/schemas";
import { expectError, expectOk, manualClock } from "../testing/flows";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, latestCode, registerUser, type TestContext, type TestUser } from "../testing/harness";
import {
  adjustmentResultSchema,
  balanceAlertSchema,
  benefitMovementSchema,
  benefitsAccountSchema,
  billingRulesSchema,
  cashOutSchema,
  checkInResultSchema,
  checkInStatusSchema,
  invitationSchema,
  invitedSchema,
  noticePageSchema,
  reviewedCashOutSchema,
} from "./schemas";
import { calendarDay, checkIn } from "./service/check-in";
import { rewardInvitation } from "./service/invitations";

// 15:30 UTC on the 21st is 23:30 in Shanghai: the instance's day ends half an hour later.
const clock = manualClock(Date.parse("2026-11-21T15:30:00Z"));
let fake: LlmFake;
let ctx: TestContext;
let admin: TestUser;
let olive: TestUser;
let mateo: TestUser;

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext(
    {
      OPENAI_API_KEY: "sk-test-parley",
      OPENAI_BASE_URL: fake.url,
      PARLEY_OPENAI_MODELS: "gpt-4.1-mini",
      PARLEY_TIME_ZONE: "Asia/Shanghai",
      PARLEY_CHECKIN_MIN: "10",
      PARLEY_CHECKIN_MAX: "50",
    },
    { now: clock.now },
  );
  await ctx.deps.models.ready();
  admin = await registerUser(ctx, "admin@example.com");
  await ctx.deps.db.update(users).set({ isInstanceOwner: true }).where(eq(users.id, admin.user.id));
  olive = await registerUser(ctx, "olive@example.com");
  mateo = await registerUser(ctx, "mateo@example.com");
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const get = (path: string, user: TestUser) => ctx.request(path, { token: user.token });
const post = (path: string, user: TestUser, json: unknown = {}) => ctx.request(path, { method: "POST", token: user.token, json });
const ledgerOf = (spaceId: string) => ctx.deps.db.select().from(creditLedger).where(eq(creditLedger.spaceId, spaceId)).orderBy(asc(creditLedger.seq));

/** The ledger's invariants: each row's balance is the previous plus its delta, never below zero. */
async function expectConsistentLedger(spaceId: string) {
  const rows = await ledgerOf(spaceId);
  let running = 0;
  for (const row of rows) {
    running += row.delta;
    expect(row.balanceAfter).toBe(running);
    expect(row.balanceAfter).toBeGreaterThanOrEqual(0);
  }
  return running;
}

async function registerWith(email: string, inviteParam: string) {
  const sent = await ctx.request("/api/v1/auth/codes", { method: "POST", json: { channel: "email", target: email, purpose: "register" } });
  if (sent.status !== 200) return sent;
  const code = await latestCode(ctx, email);
  return ctx.request("/api/v1/auth/register", { method: "POST", json: { channel: "email", target: email, code, password: "passw0rd-ok", inviteParam } });
}

describe("daily check-in", () => {
  it("computes the day in the instance's time zone", () => {
    expect(calendarDay(new Date("2026-11-21T15:30:00Z"), "Asia/Shanghai")).toBe("2026-11-21");
    expect(calendarDay(new Date("2026-11-21T16:00:00Z"), "Asia/Shanghai")).toBe("2026-11-22");
    expect(calendarDay(new Date("2026-11-21T16:00:00Z"), "UTC")).toBe("2026-11-21");
  });

  it("gives random credits in the range once a day to the personal space, then refuses in both languages", async () => {
    const before = await balanceOf(ctx.deps, olive.user.spaceId);
    expect(await expectOk(await get("/api/v1/check-in", olive), 200, checkInStatusSchema)).toEqual({
      day: "2026-11-21",
      checkedIn: false,
      credits: null,
      min: 10,
      max: 50,
    });
    const result = await expectOk(await post("/api/v1/check-in", olive), 200, checkInResultSchema);
    expect(result.credits).toBeGreaterThanOrEqual(10);
    expect(result.credits).toBeLessThanOrEqual(50);
    expect(result.balance).toBe(before + result.credits!);
    expect(await balanceOf(ctx.deps, olive.user.spaceId)).toBe(result.balance);
    await expectError(await post("/api/v1/check-in", olive), 409, { message: "You have already checked in today" });
    await expectError(await ctx.request("/api/v1/check-in", { method: "POST", token: olive.token, headers: { "accept-language": "zh-CN" } }), 409, {
      message: "今天已经签到过了",
    });
    expect(await expectOk(await get("/api/v1/check-in", olive), 200, checkInStatusSchema)).toMatchObject({ checkedIn: true, credits: result.credits });
    expect(await balanceOf(ctx.deps, olive.user.spaceId)).toBe(result.balance);
    // Half an hour later it is the 22nd in Shanghai (still the 21st in UTC): a new day.
    clock.advance(30 * 60_000);
    const next = await expectOk(await post("/api/v1/check-in", olive), 200, checkInResultSchema);
    expect(next.day).toBe("2026-11-22");
    expect(next.balance).toBe(result.balance + next.credits!);
    await expectConsistentLedger(olive.user.spaceId);
  });

  it("credits exactly one of 50 concurrent check-ins", async () => {
    const before = await balanceOf(ctx.deps, mateo.user.spaceId);
    const answers = await Promise.all(Array.from({ length: 50 }, () => post("/api/v1/check-in", mateo)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(49);
    const rows = await ctx.deps.db.select().from(checkIns).where(eq(checkIns.userId, mateo.user.id));
    expect(rows).toHaveLength(1);
    expect(await balanceOf(ctx.deps, mateo.user.spaceId)).toBe(before + rows[0]!.credits);
    const credited = (await ledgerOf(mateo.user.spaceId)).filter((row) => row.reason === "check-in");
    expect(credited).toHaveLength(1);
  });

  it("needs a session", async () => {
    await expectError(await ctx.request("/api/v1/check-in", { method: "POST" }), 401);
  });
});

describe("invitations", () => {
  it("rewards the inviter 300 once when a new user registers through the link", async () => {
    const mine = await expectOk(await get("/api/v1/invitation", olive), 200, invitationSchema);
    expect(mine).toMatchObject({ reward: 300, invited: 0, credits: 0 });
    expect(mine.link).toBe(`http://127.0.0.1:3000/register?inviteParam=${mine.code}`);
    expect((await expectOk(await get("/api/v1/invitation", olive), 200, invitationSchema)).code).toBe(mine.code);
    const before = await balanceOf(ctx.deps, olive.user.spaceId);
    expect((await registerWith("newcomer@example.com", mine.code)).status).toBe(201);
    expect(await balanceOf(ctx.deps, olive.user.spaceId)).toBe(before + 300);
    const list = await expectOk(await get("/api/v1/invitations", olive), 200, z.array(invitedSchema));
    expect(list).toEqual([expect.objectContaining({ name: "newcomer", credits: 300 })]);
    expect(await expectOk(await get("/api/v1/invitation", olive), 200, invitationSchema)).toMatchObject({ invited: 1, credits: 300 });

    // An existing user cannot register again through it; the same new user is not rewarded twice.
    expect((await registerWith("newcomer@example.com", mine.code)).status).toBe(409);
    const invitee = (await ctx.deps.db.select().from(users).where(eq(users.email, "newcomer@example.com")).get())!;
    await rewardInvitation(ctx.deps, { code: mine.code, inviteeUserId: invitee.id });
    // Inviting oneself earns nothing.
    await rewardInvitation(ctx.deps, { code: mine.code, inviteeUserId: olive.user.id });
    expect(await balanceOf(ctx.deps, olive.user.spaceId)).toBe(before + 300);
    expect(await ctx.deps.db.select().from(invitations).where(eq(invitations.inviterUserId, olive.user.id))).toHaveLength(1);
    // Other people see only their own invitations.
    expect(await expectOk(await get("/api/v1/invitations", mateo), 200, z.array(invitedSchema))).toEqual([]);
  });

  it("ignores an unknown code: the registration succeeds, nobody is rewarded", async () => {
    const count = (await ctx.deps.db.select().from(invitations)).length;
    expect((await registerWith("stray@example.com", "NOSUCHCODE")).status).toBe(201);
    expect(await ctx.deps.db.select().from(invitations)).toHaveLength(count);
  });
});

describe("creator benefits", () => {
  it("credits 20% of what others spend on a published app, nothing for the creator's own use or unpublished apps", async () => {
    const published = await createAppVia(ctx, olive, { isPublic: true });
    const hidden = await createAppVia(ctx, olive, { name: "Private bot" });
    const usage = { promptTokens: 3000, completionTokens: 2000 };
    const credits = creditsFor("gpt-4.1-mini", usage);
    const ask = async (user: TestUser, appCode: string) => {
      fake.reply({ text: "Sure.", usage });
      const response = await post("/api/v1/chat/stream", user, { appCode, message: "Hi" });
      expect(response.status).toBe(200);
      await response.text();
    };
    await ask(mateo, published.code);
    await ask(olive, published.code);
    // The creator's own calls through the OpenAI-compatible API, for a user of theirs, are their own use too.
    fake.reply({ text: "Sure.", usage });
    const own = await post("/v1/chat/completions", olive, { model: published.code, messages: [{ role: "user", content: "Hi" }], user: "alice" });
    expect(own.status).toBe(200);
    await own.text();
    await addMember(ctx, olive.user.spaceId, mateo);
    await ask(mateo, hidden.code);
    const account = await expectOk(await get("/api/v1/benefits", olive), 200, benefitsAccountSchema);
    const share = Math.floor((credits * 20) / 100);
    expect(share).toBeGreaterThan(0);
    expect(account).toEqual({ balance: share, totalEarned: share, cashedOut: 0, pending: 0, sharePercent: 20 });
    const movements = await expectOk(await get("/api/v1/benefits/ledger?reason=creator", olive), 200, z.array(benefitMovementSchema));
    expect(movements).toEqual([expect.objectContaining({ delta: share, balanceAfter: share, reason: "creator", appId: published.id })]);
    expect(await expectOk(await get("/api/v1/benefits", mateo), 200, benefitsAccountSchema)).toMatchObject({ balance: 0, totalEarned: 0 });
  });
});

describe("cash-outs", () => {
  it("refuses more than the balance, holds a request, and the administrator approves or refuses once", async () => {
    const { balance } = await expectOk(await get("/api/v1/benefits", olive), 200, benefitsAccountSchema);
    expect(balance).toBeGreaterThan(2);
    const rows = async () => (await ctx.deps.db.select().from(benefitLedger)).length;
    const before = await rows();
    await expectError(await post("/api/v1/cash-outs", olive, { amount: balance + 1, account: "Alipay olive" }), 400, {
      field: "amount",
      message: `You can cash out at most ${balance} from your benefits account`,
    });
    await expectError(await post("/api/v1/cash-outs", olive, { amount: -5, account: "Alipay olive" }), 400, { field: "amount" });
    await expectError(await post("/api/v1/cash-outs", olive, { amount: 1, account: "  " }), 400, { field: "account" });
    expect(await rows()).toBe(before);
    expect(await ctx.deps.db.select().from(cashOuts)).toHaveLength(0);

    const first = await expectOk(await post("/api/v1/cash-outs", olive, { amount: 1, account: "Alipay olive" }), 201, cashOutSchema);
    const second = await expectOk(await post("/api/v1/cash-outs", olive, { amount: balance - 1, account: "Alipay olive" }), 201, cashOutSchema);
    expect(await expectOk(await get("/api/v1/benefits", olive), 200, benefitsAccountSchema)).toMatchObject({ balance: 0, pending: balance });

    await expectError(await get("/api/v1/instance/cash-outs", olive), 403);
    await expectError(await post(`/api/v1/instance/cash-outs/${first.id}/approve`, olive), 403);
    const queue = await expectOk(await get("/api/v1/instance/cash-outs?status=requested", admin), 200, z.array(reviewedCashOutSchema));
    expect(queue.map((row) => row.id).sort()).toEqual([first.id, second.id].sort());
    expect(queue[0]).toMatchObject({ userName: "olive", userEmail: "olive@example.com" });

    expect(await expectOk(await post(`/api/v1/instance/cash-outs/${first.id}/approve`, admin, { note: "paid" }), 200, cashOutSchema)).toMatchObject({
      status: "approved",
      reviewNote: "paid",
    });
    await expectError(await post(`/api/v1/instance/cash-outs/${first.id}/refuse`, admin), 409);
    expect(await expectOk(await post(`/api/v1/instance/cash-outs/${second.id}/refuse`, admin, {}), 200, cashOutSchema)).toMatchObject({ status: "refused" });
    await expectError(await post(`/api/v1/instance/cash-outs/cash_nope/approve`, admin), 404);
    expect(await expectOk(await get("/api/v1/benefits", olive), 200, benefitsAccountSchema)).toMatchObject({
      balance: balance - 1,
      cashedOut: 1,
      pending: 0,
    });
    expect((await expectOk(await get("/api/v1/cash-outs", olive), 200, z.array(cashOutSchema))).map((row) => row.status).sort()).toEqual([
      "approved",
      "refused",
    ]);
    expect(await expectOk(await get("/api/v1/cash-outs", mateo), 200, z.array(cashOutSchema))).toEqual([]);
  });
});

describe("administrator adjustments", () => {
  it("adds and removes credits with a note, never below zero, administrator only", async () => {
    const space = mateo.user.spaceId;
    const before = await balanceOf(ctx.deps, space);
    const adjust = (json: unknown, user = admin, spaceId = space) => post(`/api/v1/instance/spaces/${spaceId}/credits`, user, json);
    expect(await expectOk(await adjust({ delta: 500, note: "Goodwill" }), 200, adjustmentResultSchema)).toEqual({ spaceId: space, balance: before + 500 });
    const rowsBefore = (await ledgerOf(space)).length;
    await expectError(await adjust({ delta: -(before + 501), note: "Too much" }), 400, { field: "delta" });
    await expectError(await adjust({ delta: 0, note: "Nothing" }), 400, { field: "delta" });
    await expectError(await adjust({ delta: 5, note: " " }), 400, { field: "note" });
    await expectError(await adjust({ delta: 1.5, note: "Half" }), 400, { field: "delta" });
    await expectError(await adjust({ delta: 5, note: "Mine" }, mateo), 403);
    await expectError(await adjust({ delta: 5, note: "Ghost" }, admin, "spc_nope"), 404);
    expect(await ledgerOf(space)).toHaveLength(rowsBefore);
    expect(await expectOk(await adjust({ delta: -(before + 500), note: "Back to zero" }), 200, adjustmentResultSchema)).toEqual({ spaceId: space, balance: 0 });
    const last = (await ledgerOf(space)).at(-1)!;
    expect(last).toMatchObject({ reason: "adjustment", reference: `${admin.user.id}: Back to zero` });
    await expectConsistentLedger(space);
    await adjust({ delta: 1000, note: "Restore" });
  });
});

describe("balance alerts", () => {
  it("validates: threshold required and positive, a channel at least, owner or admin only", async () => {
    const team = await expectOk(await post("/api/v1/spaces", olive, { companyName: "Olive Team" }), 201, spaceSchema);
    await addMember(ctx, team.spaceId, mateo, "viewer");
    const inTeam = { "x-parley-space": team.spaceId };
    await expectError(
      await ctx.request("/api/v1/balance-alert", { method: "PUT", token: mateo.token, headers: inTeam, json: { threshold: 10, channels: ["in-app"] } }),
      403,
    );
    await expectError(await ctx.request("/api/v1/balance-alert", { method: "PUT", token: olive.token, headers: inTeam, json: { channels: ["email"] } }), 400, {
      field: "threshold",
      message: "The balance alarm needs a threshold",
    });
    for (const threshold of [0, -5, 2.5, "ten"]) {
      await expectError(await ctx.request("/api/v1/balance-alert", { method: "PUT", token: olive.token, headers: inTeam, json: { threshold } }), 400, {
        field: "threshold",
      });
    }
    await expectError(
      await ctx.request("/api/v1/balance-alert", { method: "PUT", token: olive.token, headers: inTeam, json: { threshold: 5, channels: [] } }),
      400,
      {
        field: "channels",
      },
    );
    await expectError(
      await ctx.request("/api/v1/balance-alert", { method: "PUT", token: olive.token, headers: inTeam, json: { threshold: 5, channels: ["fax"] } }),
      400,
      {
        field: "channels.0",
      },
    );
    expect(await expectOk(await ctx.request("/api/v1/balance-alert", { token: mateo.token, headers: inTeam }), 200, balanceAlertSchema)).toMatchObject({
      threshold: null,
    });
  });

  it("sends one notice per downward crossing, re-arming when the balance rises to the threshold", async () => {
    const space = mateo.user.spaceId;
    const balance = await balanceOf(ctx.deps, space);
    const threshold = balance - 100;
    const saved = await expectOk(
      await ctx.request("/api/v1/balance-alert", { method: "PUT", token: mateo.token, json: { threshold, channels: ["in-app", "email"] } }),
      200,
      balanceAlertSchema,
    );
    expect(saved).toMatchObject({ threshold, channels: ["in-app", "email"], enabled: true, fired: false });
    const adjust = (delta: number) => post(`/api/v1/instance/spaces/${space}/credits`, admin, { delta, note: "test" });
    const noticeCount = async () => (await ctx.deps.db.select().from(notices).where(eq(notices.userId, mateo.user.id))).length;

    await adjust(-50);
    expect(await noticeCount()).toBe(0);
    // Crossing through a chat charge (a settled hold) fires it.
    const hold = await takeHold(ctx.deps, { spaceId: space, amount: 80 });
    await settleHold(ctx.deps, hold, { credits: 80, reference: "msg_test" });
    expect(await noticeCount()).toBe(1);
    await adjust(-10);
    await adjust(-10);
    expect(await noticeCount()).toBe(1);
    const page = await expectOk(await get("/api/v1/notices", mateo), 200, noticePageSchema);
    expect(page.unread).toBe(1);
    expect(page.items[0]).toMatchObject({ kind: "balance-alert", spaceId: space, readAt: null, params: { threshold, balance: balance - 130 } });
    const alertMails = async () =>
      (
        await ctx.deps.db
          .select()
          .from(outbox)
          .where(and(eq(outbox.to, "mateo@example.com"), eq(outbox.channel, "email")))
      ).filter((mail) => mail.subject.startsWith("Parley: credits below"));
    await expect.poll(async () => (await alertMails()).length).toBe(1);
    expect((await alertMails())[0]!.text).toContain(`fell to ${balance - 130}, below your alert threshold of ${threshold}`);
    // Rising to the threshold re-arms; the next crossing fires again.
    await adjust(200);
    await adjust(-200);
    expect(await noticeCount()).toBe(2);

    await expectError(await post(`/api/v1/notices/${page.items[0]!.id}/read`, olive), 404);
    await expectOk(await post(`/api/v1/notices/${page.items[0]!.id}/read`, mateo), 200, z.object({ id: z.string(), readAt: z.string() }));
    expect((await expectOk(await get("/api/v1/notices", mateo), 200, noticePageSchema)).unread).toBe(1);
    await expectConsistentLedger(space);
  });

  it("tells the members chosen in a team space besides the owner, and stops telling a member once removed", async () => {
    const team = await expectOk(await post("/api/v1/spaces", olive, { companyName: "Olive Alerts" }), 201, spaceSchema);
    await addMember(ctx, team.spaceId, mateo, "viewer");
    const inTeam = { "x-parley-space": team.spaceId };
    const put = (json: unknown) => ctx.request("/api/v1/balance-alert", { method: "PUT", token: olive.token, headers: inTeam, json });
    await expectError(await put({ threshold: 100, notifyMemberIds: [mateo.user.id, "usr_nobody"] }), 400, {
      field: "notifyMemberIds.1",
      message: "Only members of this space can be notified",
    });
    expect((await expectOk(await put({ threshold: 100, notifyMemberIds: [mateo.user.id] }), 200, balanceAlertSchema)).notifyMemberIds).toEqual([mateo.user.id]);
    // Leaving the list out keeps it.
    expect((await expectOk(await put({ threshold: 100, channels: ["in-app"] }), 200, balanceAlertSchema)).notifyMemberIds).toEqual([mateo.user.id]);

    const adjust = (delta: number) => post(`/api/v1/instance/spaces/${team.spaceId}/credits`, admin, { delta, note: "test" });
    const told = async () => (await ctx.deps.db.select().from(notices).where(eq(notices.spaceId, team.spaceId))).map((notice) => notice.userId).sort();
    await adjust(300);
    await adjust(-((await balanceOf(ctx.deps, team.spaceId)) - 50));
    expect(await told()).toEqual([mateo.user.id, olive.user.id].sort());
    const page = await expectOk(await ctx.request("/api/v1/notices", { token: mateo.token }), 200, noticePageSchema);
    expect(page.items.find((notice) => notice.spaceId === team.spaceId)).toMatchObject({ kind: "balance-alert", params: { threshold: 100, balance: 50 } });

    await expectOk(await ctx.request(`/api/v1/team/members/${mateo.user.id}`, { method: "DELETE", token: olive.token, headers: inTeam }), 200, z.unknown());
    await adjust(100);
    await adjust(-100);
    expect(await told()).toEqual([mateo.user.id, olive.user.id, olive.user.id].sort());
  });
});

describe("billing rules", () => {
  it("answers the model price table the server charges by", async () => {
    const rules = await expectOk(await get("/api/v1/billing-rules", olive), 200, billingRulesSchema);
    expect(rules.prices).toContainEqual({ model: "gpt-4.1-mini", prompt: 4, completion: 16 });
    expect(rules.defaultPrice).toEqual({ prompt: 10, completion: 30 });
  });
});

describe("the ledger under concurrency", () => {
  it("ends 1,000 concurrent check-ins, charges and grants on one space with the exact balance, never below zero", async () => {
    const user = await registerUser(ctx, "busy@example.com");
    const space = user.user.spaceId;
    const start = await balanceOf(ctx.deps, space);
    const auth = { userId: user.user.id, spaceId: space, role: "owner" as const, via: "session" as const };
    const work: Promise<unknown>[] = [];
    for (let index = 0; index < 1000; index++) {
      work.push(checkIn(ctx.deps, auth).catch((error: unknown) => error));
      work.push(takeHold(ctx.deps, { spaceId: space, amount: 3 }).then((hold) => settleHold(ctx.deps, hold, { credits: 3, reference: `msg_${index}` })));
      work.push(appendLedger(ctx.deps, { spaceId: space, delta: 5, reason: "purchase", reference: `ord_${index}` }));
    }
    await Promise.all(work);
    const checkedIn = (await ctx.deps.db.select().from(checkIns).where(eq(checkIns.userId, user.user.id)))[0]!.credits;
    const expected = start + checkedIn + 1000 * 5 - 1000 * 3;
    expect(await balanceOf(ctx.deps, space)).toBe(expected);
    expect(await expectConsistentLedger(space)).toBe(expected);
    expect((await ledgerOf(space)).filter((row) => row.reason === "check-in")).toHaveLength(1);
  });

  it("charges exactly on a tight balance: 300 concurrent charges on 500 credits hold 50 of 10 and charge all 500", async () => {
    const user = await registerUser(ctx, "thin@example.com");
    const space = user.user.spaceId;
    const start = await balanceOf(ctx.deps, space);
    await post(`/api/v1/instance/spaces/${space}/credits`, admin, { delta: 500 - start, note: "set to 500" });
    const results = await Promise.allSettled(
      Array.from({ length: 300 }, (_, index) =>
        takeHold(ctx.deps, { spaceId: space, amount: 10 }).then((hold) => settleHold(ctx.deps, hold, { credits: 10, reference: `m${index}` })),
      ),
    );
    const settled = results.flatMap((result) => (result.status === "fulfilled" ? [result.value.charged] : []));
    expect(settled).toHaveLength(50);
    // Each settle charges its full 10: a hold is gone in the statement that charges it, so no
    // other settle sees those credits both charged and held.
    expect(settled).toEqual(Array.from({ length: 50 }, () => 10));
    expect(await balanceOf(ctx.deps, space)).toBe(0);
    expect(await expectConsistentLedger(space)).toBe(0);
  });
});
