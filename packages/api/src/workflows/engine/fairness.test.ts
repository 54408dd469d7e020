import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workflowNodeRuns, workflowRuns } from "../../db/schema/index";
import { expectOk } from "../../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../../testing/harness";
import { workflowRunSchema } from "../schemas";
import { createWorkflowVia, line, node } from "../testing";
import { nodeExecutors } from "./nodes";
import { createWorkflowRunner, type WorkflowRunner } from "./runner";

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let runner: WorkflowRunner;
let release: () => void = () => undefined;
const gate = new Promise<void>((resolve) => (release = resolve));
let executingSlow = 0;
let mostSlowAtOnce = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await registerUser(ctx, "alice-fair@example.com");
  bob = await registerUser(ctx, "bob-fair@example.com");
  runner = createWorkflowRunner(ctx.deps, {
    concurrency: 4,
    perSpace: 2,
    idleMs: 10,
    execute: {
      executors: {
        // A slow node: waits until the test lets it go.
        async fixed_reply(context) {
          if (context.element.config.content === "slow") {
            executingSlow += 1;
            mostSlowAtOnce = Math.max(mostSlowAtOnce, executingSlow);
            await gate;
            executingSlow -= 1;
          }
          return nodeExecutors.fixed_reply(context);
        },
      },
    },
  });
});
afterAll(async () => {
  release();
  await runner.stop();
  await ctx.close();
});

const graph = (content: string) => ({
  elements: [node("start", "start"), node("reply", "fixed_reply", { content }), node("end", "end", { output: "{{reply.output}}" })],
  lines: [line("start", "reply"), line("reply", "end")],
});

async function until(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("fairness between spaces", () => {
  it("runs at most N runs of a space at once, so one space's slow runs do not delay another's", async () => {
    const slow = await createWorkflowVia(ctx, alice, graph("slow"));
    const fast = await createWorkflowVia(ctx, bob, graph("fast"));
    const queued: string[] = [];
    for (let index = 0; index < 6; index++) {
      const run = await expectOk(
        await ctx.request(`/api/v1/workflows/${slow.id}/runs`, { method: "POST", token: alice.token, json: { query: String(index) } }),
        201,
        workflowRunSchema,
      );
      queued.push(run.id);
    }
    const bobs = await expectOk(
      await ctx.request(`/api/v1/workflows/${fast.id}/runs`, { method: "POST", token: bob.token, json: { query: "hi" } }),
      201,
      workflowRunSchema,
    );
    runner.start();
    // Bob's run, queued after all of Alice's, finishes while hers are held.
    await until(async () => (await ctx.deps.db.select().from(workflowRuns).where(eq(workflowRuns.id, bobs.id)).get())?.status === "success");
    await until(async () => executingSlow === 2);
    expect(mostSlowAtOnce).toBe(2);
    const started = await ctx.deps.db
      .select()
      .from(workflowNodeRuns)
      .where(and(eq(workflowNodeRuns.nodeId, "reply"), eq(workflowNodeRuns.status, "running")));
    expect(started.filter((row) => queued.includes(row.runId))).toHaveLength(2);

    release();
    await until(async () => {
      const rows = await ctx.deps.db.select().from(workflowRuns).where(eq(workflowRuns.workflowId, slow.id));
      return rows.every((row) => row.status === "success");
    });
    expect(mostSlowAtOnce).toBe(2);
  });
});
