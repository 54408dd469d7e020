import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/client";
import { workflowScheduleTicks } from "../../db/schema/index";
import type { Deps } from "../../kernel";
import { expectError, expectOk } from "../../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../../testing/harness";
import { upgradeSpaceForTest } from "../../plans/testing";
import { createWorkflowRunner, type WorkflowRunner } from "../engine/runner";
import { cronGenerateSchema, cronPreviewSchema, schedulerSchema, workflowRunPageSchema, workflowRunSchema } from "../schemas";
import { createWorkflowVia, simpleGraph } from "../testing";
import { cronFromPhrase } from "./generate";
import { createWorkflowScheduler } from "./loop";

let ctx: TestContext;
let alice: TestUser;
let clock = new Date("2026-11-21T08:58:00.000Z");
let runner: WorkflowRunner;

beforeAll(async () => {
  ctx = await createTestContext({}, { now: () => clock });
  alice = await registerUser(ctx, "alice-cron@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  runner = createWorkflowRunner(ctx.deps, { idleMs: 20 });
});
afterAll(async () => {
  await runner.stop();
  await ctx.close();
});

describe("cron expressions", () => {
  it("reads common phrases offline, deterministically", () => {
    expect(cronFromPhrase("every day at 9")).toBe("0 9 * * *");
    expect(cronFromPhrase("Every Monday 8:30")).toBe("30 8 * * 1");
    expect(cronFromPhrase("every 15 minutes")).toBe("*/15 * * * *");
    expect(cronFromPhrase("every hour")).toBe("0 * * * *");
    expect(cronFromPhrase("every weekday at 6pm")).toBe("0 18 * * 1-5");
    expect(cronFromPhrase("every month on the 1st at 9:15")).toBe("15 9 1 * *");
    expect(cronFromPhrase("每天9点")).toBe("0 9 * * *");
    expect(cronFromPhrase("每周一早上8点30分")).toBe("30 8 * * 1");
    expect(cronFromPhrase("每15分钟")).toBe("*/15 * * * *");
    expect(cronFromPhrase("when the moon is full")).toBeUndefined();
  });

  it("generates through the API (rules without a model) and refuses what it cannot read", async () => {
    const generated = await expectOk(
      await ctx.request("/api/v1/workflow-cron/generate", { method: "POST", token: alice.token, json: { description: "every monday 8:30" } }),
      200,
      cronGenerateSchema,
    );
    expect(generated).toMatchObject({ cron: "30 8 * * 1", source: "rules" });
    expect(generated.nextRuns[0]).toBe("2026-11-23T08:30:00.000Z");
    await expectError(await ctx.request("/api/v1/workflow-cron/generate", { method: "POST", token: alice.token, json: { description: "sometimes" } }), 400, {
      field: "description",
    });
  });

  it("previews the next 10 run times of a 5-field expression; 6 fields, empty or broken are refused", async () => {
    const preview = await expectOk(
      await ctx.request("/api/v1/workflow-cron/preview", { method: "POST", token: alice.token, json: { cron: "*/15 * * * *" } }),
      200,
      cronPreviewSchema,
    );
    expect(preview.nextRuns).toHaveLength(10);
    expect(preview.nextRuns.slice(0, 2)).toEqual(["2026-11-21T09:00:00.000Z", "2026-11-21T09:15:00.000Z"]);
    const shanghai = await expectOk(
      await ctx.request("/api/v1/workflow-cron/preview", { method: "POST", token: alice.token, json: { cron: "0 9 * * *", cronTimezone: "Asia/Shanghai" } }),
      200,
      cronPreviewSchema,
    );
    expect(shanghai.nextRuns[0]).toBe("2026-11-22T01:00:00.000Z");
    await expectError(await ctx.request("/api/v1/workflow-cron/preview", { method: "POST", token: alice.token, json: { cron: "0 0 9 * * *" } }), 400, {
      field: "cron",
      message: /exactly 5 fields.*has 6/,
    });
    await expectError(await ctx.request("/api/v1/workflow-cron/preview", { method: "POST", token: alice.token, json: { cron: "  " } }), 400, {
      field: "cron",
      message: "Enter a cron expression",
    });
    await expectError(await ctx.request("/api/v1/workflow-cron/preview", { method: "POST", token: alice.token, json: { cron: "61 * * * *" } }), 400, {
      field: "cron",
    });
    await expectError(
      await ctx.request("/api/v1/workflow-cron/preview", { method: "POST", token: alice.token, json: { cron: "0 9 * * *", cronTimezone: "Mars/Olympus" } }),
      400,
      { field: "cronTimezone" },
    );
    const zh = await expectError(
      await ctx.request("/api/v1/workflow-cron/preview", {
        method: "POST",
        token: alice.token,
        json: { cron: "0 0 9 * * *" },
        headers: { "accept-language": "zh-CN" },
      }),
      400,
    );
    expect(zh.message).toMatch(/5 个字段/);
  });
});

describe("the scheduler", () => {
  it("saves, details, clears and deletes the timer", async () => {
    const workflow = await createWorkflowVia(ctx, alice, simpleGraph());
    const saved = await expectOk(
      await ctx.request(`/api/v1/workflows/${workflow.id}/scheduler`, { method: "PUT", token: alice.token, json: { cron: "0 9 * * *" } }),
      200,
      schedulerSchema,
    );
    expect(saved).toMatchObject({ cron: "0 9 * * *", cronEnabled: true, cronTimezone: "UTC" });
    expect(saved.nextRuns).toHaveLength(10);
    await expectError(
      await ctx.request(`/api/v1/workflows/${workflow.id}/scheduler`, { method: "PUT", token: alice.token, json: { cron: "0 0 9 * * *" } }),
      400,
      { field: "cron" },
    );
    const cleared = await expectOk(
      await ctx.request(`/api/v1/workflows/${workflow.id}/scheduler/clear`, { method: "POST", token: alice.token }),
      200,
      schedulerSchema,
    );
    expect(cleared).toMatchObject({ cron: "0 9 * * *", cronEnabled: false, nextRuns: [] });
    const detail = await expectOk(await ctx.request(`/api/v1/workflows/${workflow.id}/scheduler`, { token: alice.token }), 200, schedulerSchema);
    expect(detail.cronEnabled).toBe(false);
    const deleted = await expectOk(
      await ctx.request(`/api/v1/workflows/${workflow.id}/scheduler`, { method: "DELETE", token: alice.token }),
      200,
      schedulerSchema,
    );
    expect(deleted).toMatchObject({ cron: null, cronEnabled: false });
  });

  it("fires a scheduled workflow on time under a moved clock, once, with two scheduler instances on one database, and its run appears in history", async () => {
    clock = new Date("2026-11-21T08:58:00.000Z");
    const workflow = await createWorkflowVia(ctx, alice, simpleGraph());
    await expectOk(
      await ctx.request(`/api/v1/workflows/${workflow.id}/scheduler`, { method: "PUT", token: alice.token, json: { cron: "0 9 * * *" } }),
      200,
      schedulerSchema,
    );

    // A second process: its own connection to the same database file.
    const second = await openDatabase(ctx.config.database);
    const otherDeps: Deps = { ...ctx.deps, db: second.db };
    const first = createWorkflowScheduler(ctx.deps, { instanceId: "one" });
    const other = createWorkflowScheduler(otherDeps, { instanceId: "two" });
    try {
      expect(await first.tick()).toBe(0);
      clock = new Date("2026-11-21T08:59:59.000Z");
      expect((await Promise.all([first.tick(), other.tick()])).reduce((sum, count) => sum + count, 0)).toBe(0);
      clock = new Date("2026-11-21T09:00:04.000Z");
      const fired = await Promise.all([first.tick(), other.tick(), first.tick(), other.tick()]);
      expect(fired.reduce((sum, count) => sum + count, 0)).toBe(1);
      clock = new Date("2026-11-21T09:00:20.000Z");
      expect((await Promise.all([first.tick(), other.tick()])).reduce((sum, count) => sum + count, 0)).toBe(0);
    } finally {
      await second.close();
    }
    const ticks = await ctx.deps.db.select().from(workflowScheduleTicks).where(eq(workflowScheduleTicks.workflowId, workflow.id));
    expect(ticks).toHaveLength(1);
    expect(ticks[0]!.tick).toBe("2026-11-21T09:00:00.000Z");
    await runner.drain();
    const history = await expectOk(await ctx.request(`/api/v1/workflows/${workflow.id}/runs?type=TIME`, { token: alice.token }), 200, workflowRunPageSchema);
    expect(history.items).toHaveLength(1);
    expect(history.items[0]!.status).toBe("success");
    const run = await expectOk(await ctx.request(`/api/v1/workflow-runs/${history.items[0]!.id}`, { token: alice.token }), 200, workflowRunSchema);
    expect(run.type).toBe("TIME");
    expect(run.trigger).toMatchObject({ by: "schedule", tick: "2026-11-21T09:00:00.000Z" });

    // The next day's tick fires too, once.
    clock = new Date("2026-11-22T09:00:30.000Z");
    expect(await first.tick()).toBe(1);
    expect(await first.tick()).toBe(0);
  });

  it("runs the scheduled run now on request (cron run)", async () => {
    const workflow = await createWorkflowVia(ctx, alice, simpleGraph());
    const queued = await expectOk(
      await ctx.request(`/api/v1/workflows/${workflow.id}/scheduler/run`, { method: "POST", token: alice.token }),
      201,
      workflowRunSchema,
    );
    expect(queued).toMatchObject({ type: "TIME", status: "running" });
    await runner.drain();
    const done = await expectOk(await ctx.request(`/api/v1/workflow-runs/${queued.id}`, { token: alice.token }), 200, workflowRunSchema);
    expect(done.status).toBe("success");
    expect(done.trigger).toMatchObject({ by: "schedule" });
  });

  it("does not fire a cleared timer, nor ticks from before the timer was saved", async () => {
    clock = new Date("2026-11-21T10:30:00.000Z");
    const workflow = await createWorkflowVia(ctx, alice, simpleGraph());
    await expectOk(
      await ctx.request(`/api/v1/workflows/${workflow.id}/scheduler`, { method: "PUT", token: alice.token, json: { cron: "*/5 * * * *", enabled: false } }),
      200,
      schedulerSchema,
    );
    const scheduler = createWorkflowScheduler(ctx.deps);
    clock = new Date("2026-11-21T10:35:10.000Z");
    const before = await ctx.deps.db.select().from(workflowScheduleTicks).where(eq(workflowScheduleTicks.workflowId, workflow.id));
    await scheduler.tick();
    expect(await ctx.deps.db.select().from(workflowScheduleTicks).where(eq(workflowScheduleTicks.workflowId, workflow.id))).toHaveLength(before.length);
    await expectOk(
      await ctx.request(`/api/v1/workflows/${workflow.id}/scheduler`, { method: "PUT", token: alice.token, json: { cron: "*/5 * * * *" } }),
      200,
      schedulerSchema,
    );
    clock = new Date("2026-11-21T10:39:00.000Z");
    await scheduler.tick();
    expect(await ctx.deps.db.select().from(workflowScheduleTicks).where(eq(workflowScheduleTicks.workflowId, workflow.id))).toHaveLength(0);
    clock = new Date("2026-11-21T10:40:01.000Z");
    await scheduler.tick();
    expect(await ctx.deps.db.select().from(workflowScheduleTicks).where(eq(workflowScheduleTicks.workflowId, workflow.id))).toHaveLength(1);
  });
});
