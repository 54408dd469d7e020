import http from "node:http";
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../../apps/testing";
import { jobs, workflowNodeRuns, workflowRuns } from "../../db/schema/index";
import type { PluginRuntime } from "../../plugins/runtime-types";
import { expectError, expectOk } from "../../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../../testing/harness";
import { upgradeSpaceForTest } from "../../plans/testing";
import { workflowRunPageSchema, workflowRunSchema } from "../schemas";
import { createWorkflowVia, line, node, runVia, simpleGraph } from "../testing";
import { createWorkflowRunner, type WorkflowRunner } from "./runner";

const barrier = { waiting: 0, open: () => undefined as void, opened: Promise.resolve() };
barrier.opened = new Promise<void>((resolve) => (barrier.open = resolve));
let ctx: TestContext;
let alice: TestUser;
let runner: WorkflowRunner;
let clock = new Date("2026-11-21T08:00:00.000Z");
let hookServer: http.Server;
let hookUrl = "";
const hookRequests: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];

/** A plugin runtime whose `slow` tool never answers and whose `echo` tool echoes its arguments. */
const plugins: PluginRuntime = {
  async toolsFor({ pluginCodes }) {
    return pluginCodes
      .filter((code) => code === "slow" || code === "echo" || code === "barrier")
      .map((code) => ({ code, builtin: true, definition: { name: code, description: code, parameters: { type: "object", properties: {} } } }));
  },
  async execute({ tool, arguments: args }) {
    if (tool.code === "slow") return new Promise(() => undefined);
    if (tool.code === "barrier") {
      // Answers only once two calls are in flight together: passes only when branches run in parallel.
      barrier.waiting += 1;
      if (barrier.waiting >= 2) barrier.open();
      const opened = await Promise.race([barrier.opened.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1500))]);
      return opened ? { ok: true, content: args, durationMs: 1 } : { ok: false, content: "alone", durationMs: 1500 };
    }
    return { ok: true, content: args, durationMs: 1 };
  },
};

beforeAll(async () => {
  hookServer = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      hookRequests.push({ headers: request.headers, body });
      response.writeHead(200, { "content-type": "application/json" }).end('{"errcode":0}');
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, "127.0.0.1", resolve));
  const address = hookServer.address();
  hookUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/robot`;
  ctx = await createTestContext({ PARLEY_PLUGINS_ALLOW_PRIVATE_NETWORK: "true", PARLEY_PLUGINS_ALLOWED_HOSTS: "127.0.0.1" }, { now: () => clock, plugins });
  alice = await registerUser(ctx, "alice-engine@example.com");
  // More than Free's quotas allow is created below.
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  runner = createWorkflowRunner(ctx.deps, { execute: { limits: { maxNodeMs: 2500 } }, idleMs: 20 });
});
afterAll(async () => {
  await runner.stop();
  await ctx.close();
  await new Promise<void>((resolve) => hookServer.close(() => resolve()));
});

const statusOf = (run: { nodes: Array<{ nodeId: string; status: string }> }) => Object.fromEntries(run.nodes.map((entry) => [entry.nodeId, entry.status]));

describe("workflow engine", () => {
  it("runs a graph: templates pass values, every node records inputs, outputs and timings, the end node answers", async () => {
    const workflow = await createWorkflowVia(ctx, alice, simpleGraph());
    const run = await runVia(ctx, alice, workflow.id, { query: "world" });
    expect(run.status).toBe("success");
    expect(run.output).toBe("Hello world");
    expect(statusOf(run)).toEqual({ start: "success", reply: "success", end: "success" });
    const reply = run.nodes.find((entry) => entry.nodeId === "reply")!;
    expect(reply.outputs).toEqual({ output: "Hello world" });
    expect(reply.startedAt).toBeTruthy();
    expect(reply.finishedAt).toBeTruthy();
    expect(run.type).toBe("FLOW");
    const history = await expectOk(await ctx.request(`/api/v1/workflows/${workflow.id}/runs`, { token: alice.token }), 200, workflowRunPageSchema);
    expect(history.items[0]!.id).toBe(run.id);
    const detail = await expectOk(await ctx.request(`/api/v1/workflow-runs/${run.id}`, { token: alice.token }), 200, workflowRunSchema);
    expect(detail.nodes).toHaveLength(3);
  });

  it("takes a logic branch by its conditions (and/or, numbers), the else branch otherwise; untaken nodes end as no execution", async () => {
    const graph = {
      elements: [
        node("start", "start", {
          variables: [
            { identifier: "age", displayName: "Age", type: "number", required: true },
            { identifier: "city", displayName: "City", type: "text", required: false },
          ],
        }),
        node("check", "logic_branch", {
          branches: [
            {
              id: "adult_paris",
              logic: "and",
              conditions: [
                { left: "{{start.age}}", operator: "gte", right: "18" },
                { left: "{{start.city}}", operator: "equals", right: "Paris" },
              ],
              node_id: null,
            },
            {
              id: "empty_city",
              logic: "or",
              conditions: [
                { left: "{{start.city}}", operator: "empty" },
                { left: "{{start.city}}", operator: "contains", right: "unknown" },
              ],
              node_id: null,
            },
            { id: "other", isElse: true, node_id: null },
          ],
        }),
        node("a", "fixed_reply", { content: "adult in Paris" }),
        node("b", "fixed_reply", { content: "no city" }),
        node("c", "fixed_reply", { content: "other" }),
        node("end", "end", { output: "{{a.output}}{{b.output}}{{c.output}}" }),
      ],
      lines: [
        line("start", "check"),
        line("check", "a", "adult_paris"),
        line("check", "b", "empty_city"),
        line("check", "c", "other"),
        line("a", "end"),
        line("b", "end"),
        line("c", "end"),
      ],
    };
    const workflow = await createWorkflowVia(ctx, alice, graph);
    const branchTargets = (workflow.elements.find((element) => element.id === "check")!.config as { branches: Array<{ node_id: string | null }> }).branches.map(
      (branch) => branch.node_id,
    );
    expect(branchTargets).toEqual(["a", "b", "c"]);

    const paris = await runVia(ctx, alice, workflow.id, { variables: { age: 30, city: "Paris" } });
    expect(paris.output).toBe("adult in Paris");
    expect(statusOf(paris)).toMatchObject({ a: "success", b: "no_execution", c: "no_execution", end: "success" });
    expect(paris.nodes.find((entry) => entry.nodeId === "check")!.branch).toBe("adult_paris");

    const noCity = await runVia(ctx, alice, workflow.id, { variables: { age: 30 } });
    expect(noCity.output).toBe("no city");
    const young = await runVia(ctx, alice, workflow.id, { variables: { age: "9", city: "Lyon" } });
    expect(young.output).toBe("other");
    expect(statusOf(young)).toMatchObject({ a: "no_execution", b: "no_execution", c: "success" });

    await expectError(
      await ctx.request(`/api/v1/workflows/${workflow.id}/runs`, { method: "POST", token: alice.token, json: { variables: { city: "Paris" } } }),
      400,
      { field: "variables.age" },
    );
  });

  it("lists a run's nodes in the order they ran, whatever the graph's order; nodes that did not run come last", async () => {
    const graph = {
      elements: [
        node("end", "end", { output: "{{second.output}}" }),
        node("skipped", "fixed_reply", { content: "never" }),
        node("second", "fixed_reply", { content: "two {{first.output}}" }),
        node("check", "logic_branch", {
          branches: [
            { id: "never", logic: "and", conditions: [{ left: "{{sys.query}}", operator: "equals", right: "no such query" }], node_id: null },
            { id: "otherwise", isElse: true, node_id: null },
          ],
        }),
        node("first", "fixed_reply", { content: "one" }),
        node("start", "start", { inputs: { text: true } }),
      ],
      lines: [
        line("start", "first"),
        line("first", "check"),
        line("check", "skipped", "never"),
        line("check", "second", "otherwise"),
        line("skipped", "end"),
        line("second", "end"),
      ],
    };
    const workflow = await createWorkflowVia(ctx, alice, graph);
    const run = await runVia(ctx, alice, workflow.id, { query: "hello" });
    expect(run.output).toBe("two one");
    expect(run.nodes.map((entry) => entry.nodeId)).toEqual(["start", "first", "check", "second", "end", "skipped"]);
    const detail = await expectOk(await ctx.request(`/api/v1/workflow-runs/${run.id}`, { token: alice.token }), 200, workflowRunSchema);
    expect(detail.nodes.map((entry) => entry.nodeId)).toEqual(["start", "first", "check", "second", "end", "skipped"]);
  });

  it("picks an intention offline by the best lexical match, else the else intention", async () => {
    const graph = {
      elements: [
        node("start", "start"),
        node("intent", "intent_branch", {
          model: "gpt-4.1-mini",
          input: "{{sys.query}}",
          intentions: [
            { id: "refund", name: "refund my order money back", node_id: null },
            { id: "shipping", name: "where is my parcel delivery shipping", node_id: null },
            { id: "else", name: "anything else", isElse: true, node_id: null },
          ],
        }),
        node("r", "fixed_reply", { content: "refund" }),
        node("s", "fixed_reply", { content: "shipping" }),
        node("o", "fixed_reply", { content: "other" }),
        node("end", "end", { output: "{{r.output}}{{s.output}}{{o.output}}" }),
      ],
      lines: [
        line("start", "intent"),
        line("intent", "r", "refund"),
        line("intent", "s", "shipping"),
        line("intent", "o", "else"),
        line("r", "end"),
        line("s", "end"),
        line("o", "end"),
      ],
    };
    const workflow = await createWorkflowVia(ctx, alice, graph);
    expect((await runVia(ctx, alice, workflow.id, { query: "Where is my parcel?" })).output).toBe("shipping");
    expect((await runVia(ctx, alice, workflow.id, { query: "I want my money back" })).output).toBe("refund");
    expect((await runVia(ctx, alice, workflow.id, { query: "Tell me a joke" })).output).toBe("other");
  });

  it("runs a code block in the sandbox with JSON in and out; code that loops forever fails its node with the reason, and other runs go on", async () => {
    const graph = {
      elements: [
        node("start", "start"),
        node("code", "code_block", {
          code: "function main(input) { return { words: input.text.split(' ').length, shout: input.text.toUpperCase() } }",
          inputs: [{ name: "text", value: "{{sys.query}}" }],
        }),
        node("end", "end", { output: "{{code.shout}} ({{code.words}})" }),
      ],
      lines: [line("start", "code"), line("code", "end")],
    };
    const workflow = await createWorkflowVia(ctx, alice, graph);
    const run = await runVia(ctx, alice, workflow.id, { query: "hello big world" });
    expect(run.output).toBe("HELLO BIG WORLD (3)");

    graph.elements[1] = node("code", "code_block", { code: "function main() { for (;;) {} }", timeoutMs: 200 });
    const looping = await createWorkflowVia(ctx, alice, graph);
    const [failed, fine] = await Promise.all([runVia(ctx, alice, looping.id, { query: "x" }), runVia(ctx, alice, workflow.id, { query: "still fine" })]);
    expect(failed.status).toBe("failure");
    expect(failed.error).toMatch(/code \(code\): Code failed: the code ran longer than 200 ms/);
    expect(statusOf(failed)).toEqual({ start: "success", code: "failure", end: "no_execution" });
    expect(failed.nodes.find((entry) => entry.nodeId === "code")!.error).toMatch(/longer than 200 ms/);
    expect(fine.status).toBe("success");

    graph.elements[1] = node("code", "code_block", {
      code: "function main() { let size = 1024; const keep = []; while (true) { keep.push(new Array(size).fill(1)); size *= 2; } }",
      timeoutMs: 2000,
      memoryLimitMb: 8,
    });
    const hungry = await createWorkflowVia(ctx, alice, graph);
    const greedy = await runVia(ctx, alice, hungry.id, { query: "x" });
    expect(greedy.status).toBe("failure");
    expect(greedy.error).toMatch(/code \(code\): Code failed: the code used more than 8 MB of memory/);
  });

  it("fails a plugin node that hangs at the node time limit, and a database node whose database is not in the space", async () => {
    const hanging = await createWorkflowVia(ctx, alice, {
      elements: [node("start", "start"), node("p", "plugin", { pluginCode: "slow" }), node("end", "end", { output: "{{p.output}}" })],
      lines: [line("start", "p"), line("p", "end")],
    });
    const started = Date.now();
    const run = await runVia(ctx, alice, hanging.id, { query: "x" });
    expect(run.status).toBe("failure");
    expect(run.error).toMatch(/took longer than 3 s and was stopped/);
    expect(Date.now() - started).toBeLessThan(8000);

    const echo = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("p", "plugin", { pluginCode: "echo", arguments: { q: "{{sys.query}}" } }),
        node("end", "end", { output: "{{p.output.q}}" }),
      ],
      lines: [line("start", "p"), line("p", "end")],
    });
    expect((await runVia(ctx, alice, echo.id, { query: "ping" })).output).toBe("ping");

    const database = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("db", "database", { databaseId: "db_1", input: "{{sys.query}}" }),
        node("end", "end", { output: "{{db.output}}" }),
      ],
      lines: [line("start", "db"), line("db", "end")],
    });
    const dbRun = await runVia(ctx, alice, database.id, { query: "how many orders?" });
    expect(dbRun.status).toBe("failure");
    expect(dbRun.error).toMatch(/The database db_1 does not exist in this space/);
  });

  it("sends to a robot webhook, signed", async () => {
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("send", "channel_send", { mode: "webhook", webhookUrl: hookUrl, webhookSecret: "robot-secret", content: "Report: {{sys.query}}" }),
        node("end", "end", { output: "{{send.output}}" }),
      ],
      lines: [line("start", "send"), line("send", "end")],
    });
    const run = await runVia(ctx, alice, workflow.id, { query: "all good" });
    expect(run.status, run.error ?? "").toBe("success");
    const received = hookRequests.at(-1)!;
    expect(JSON.parse(received.body)).toEqual({ msgtype: "text", text: { content: "Report: all good" } });
    const timestamp = String(received.headers["x-parley-timestamp"]);
    expect(received.headers["x-parley-signature"]).toBe(createHmac("sha256", "robot-secret").update(`${timestamp}.${received.body}`).digest("hex"));
  });

  it("answers through an app node (the chat engine) and records a manual node without a conversation", async () => {
    const app = await createAppVia(ctx, alice);
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("ask", "app", { appId: app.id, input: "{{sys.query}}" }),
        node("human", "manual", { content: "check {{sys.query}}" }),
        node("end", "end", { output: "{{ask.output}}|{{human.handedOver}}" }),
      ],
      lines: [line("start", "ask"), line("ask", "human"), line("human", "end")],
    });
    const run = await runVia(ctx, alice, workflow.id, { query: "hello" });
    expect(run.status, run.error ?? "").toBe("success");
    const [answer, handed] = String(run.output).split("|");
    expect(answer!.length).toBeGreaterThan(0);
    expect(handed).toBe("false");
  });

  it("runs one node alone (NODE) with the given inputs", async () => {
    const workflow = await createWorkflowVia(ctx, alice, simpleGraph());
    const run = await runVia(ctx, alice, workflow.id, { type: "NODE", nodeId: "reply", nodeInputs: { "sys.query": "node" } });
    expect(run.type).toBe("NODE");
    expect(run.status).toBe("success");
    expect(run.output).toEqual({ output: "Hello node" });
    expect(run.nodes.map((entry) => entry.nodeId)).toEqual(["reply"]);
    await expectError(await ctx.request(`/api/v1/workflows/${workflow.id}/runs`, { method: "POST", token: alice.token, json: { type: "NODE" } }), 400, {
      field: "nodeId",
    });
  });

  it("parks a run on a timer durably and resumes it when the time comes", async () => {
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("wait", "timer", { delaySeconds: 3600 }),
        node("after", "fixed_reply", { content: "done {{sys.query}}" }),
        node("end", "end", { output: "{{after.output}}" }),
      ],
      lines: [line("start", "wait"), line("wait", "after"), line("after", "end")],
    });
    const parked = await runVia(ctx, alice, workflow.id, { query: "later" });
    expect(parked.status).toBe("running");
    expect(parked.waitingUntil).toBe("2026-11-21T09:00:00.000Z");
    expect(statusOf(parked)).toMatchObject({ start: "success", wait: "running", after: "no_execution" });
    expect(await runner.drain()).toBe(0);
    clock = new Date("2026-11-21T09:00:01.000Z");
    expect(await runner.drain()).toBe(1);
    const done = await expectOk(await ctx.request(`/api/v1/workflow-runs/${parked.id}`, { token: alice.token }), 200, workflowRunSchema);
    expect(done.status).toBe("success");
    expect(done.output).toBe("done later");
    expect(done.waitingUntil).toBeNull();
    clock = new Date("2026-11-21T08:00:00.000Z");
  });

  it("resumes a run after a crash from the last completed node; a run that keeps dying is failed, never left running", async () => {
    const workflow = await createWorkflowVia(ctx, alice, simpleGraph());
    // A run that was executing when its process died: start done, the reply node cut off mid-way, its job's lease not renewed.
    const queued = await expectOk(
      await ctx.request(`/api/v1/workflows/${workflow.id}/runs`, { method: "POST", token: alice.token, json: { query: "again" } }),
      201,
      workflowRunSchema,
    );
    await runner.stop();
    const lease = new Date(clock.getTime() - 1000).toISOString();
    await ctx.deps.db.update(jobs).set({ status: "running", attempts: 1, lockedUntil: lease }).where(eq(jobs.kind, "workflow-run"));
    await ctx.deps.db.insert(workflowNodeRuns).values([
      {
        runId: queued.id,
        nodeId: "start",
        nodeType: "start",
        nodeName: "start",
        status: "success",
        sequence: 1,
        outputs: JSON.stringify({ query: "again", marker: "from-before" }),
      },
      { runId: queued.id, nodeId: "reply", nodeType: "fixed_reply", nodeName: "reply", status: "running" },
    ]);
    const resumed = createWorkflowRunner(ctx.deps, { idleMs: 20 });
    expect(await resumed.drain()).toBeGreaterThanOrEqual(1);
    const detail = await expectOk(await ctx.request(`/api/v1/workflow-runs/${queued.id}`, { token: alice.token }), 200, workflowRunSchema);
    expect(detail.status).toBe("success");
    expect(detail.output).toBe("Hello again");
    // The start node was not run again: its stored outputs stand.
    expect(detail.nodes.find((entry) => entry.nodeId === "start")!.outputs).toMatchObject({ marker: "from-before" });

    const doomed = await expectOk(
      await ctx.request(`/api/v1/workflows/${workflow.id}/runs`, { method: "POST", token: alice.token, json: { query: "x" } }),
      201,
      workflowRunSchema,
    );
    await ctx.deps.db.update(jobs).set({ status: "running", attempts: 3, lockedUntil: lease }).where(eq(jobs.kind, "workflow-run"));
    await resumed.drain();
    const failed = await ctx.deps.db.select().from(workflowRuns).where(eq(workflowRuns.id, doomed.id)).get();
    expect(failed!.status).toBe("failure");
    expect(failed!.error).toMatch(/interrupted 3 times/);
    runner = createWorkflowRunner(ctx.deps, { execute: { limits: { maxNodeMs: 2500 } }, idleMs: 20 });
  });
});

describe("limits, orphans, channels, knowledge", () => {
  it("fails a run past its step limit or its time limit, with the reason", async () => {
    const { executeRun } = await import("./execute");
    const { startRun } = await import("../service/runs");
    const { loadWorkflow } = await import("../service/workflows");
    const workflow = await createWorkflowVia(ctx, alice, simpleGraph());
    const row = await loadWorkflow(ctx.deps, alice.user.spaceId, workflow.id);
    const steps = await startRun(ctx.deps, row, { type: "FLOW", query: "x", trigger: { by: "user" } });
    expect(await executeRun(ctx.deps, steps, { limits: { maxSteps: 2 } })).toEqual({ state: "finished", status: "failure" });
    const stepped = await ctx.deps.db.select().from(workflowRuns).where(eq(workflowRuns.id, steps)).get();
    expect(stepped!.error).toMatch(/end \(end\): The run reached its limit of 2 steps/);

    const slow = await createWorkflowVia(ctx, alice, {
      elements: [node("start", "start"), node("p", "plugin", { pluginCode: "slow" }), node("end", "end", { output: "{{p.output}}" })],
      lines: [line("start", "p"), line("p", "end")],
    });
    const slowRow = await loadWorkflow(ctx.deps, alice.user.spaceId, slow.id);
    const timed = await startRun(ctx.deps, slowRow, { type: "FLOW", query: "x", trigger: { by: "user" } });
    expect(await executeRun(ctx.deps, timed, { limits: { maxRunMs: 300 } })).toEqual({ state: "finished", status: "failure" });
    const timedRow = await ctx.deps.db.select().from(workflowRuns).where(eq(workflowRuns.id, timed)).get();
    expect(timedRow!.error).toMatch(/The run took longer than its limit of 300 ms/);
  });

  it("fails runs left running without a job (never running forever)", async () => {
    const { sweepOrphanRuns } = await import("./runner");
    const workflow = await createWorkflowVia(ctx, alice, simpleGraph());
    const old = new Date(clock.getTime() - 3600_000).toISOString();
    await ctx.deps.db.insert(workflowRuns).values({
      id: "wfr_orphan",
      spaceId: alice.user.spaceId,
      workflowId: workflow.id,
      type: "FLOW",
      status: "running",
      graph: "{}",
      startedAt: old,
      createdAt: old,
      updatedAt: old,
    });
    expect(await sweepOrphanRuns(ctx.deps)).toBe(1);
    const row = await ctx.deps.db.select().from(workflowRuns).where(eq(workflowRuns.id, "wfr_orphan")).get();
    expect(row).toMatchObject({ status: "failure", error: expect.stringMatching(/lost its job/) });
  });

  it("keeps runs to their space", async () => {
    const bob = await registerUser(ctx, "bob-engine@example.com");
    const workflow = await createWorkflowVia(ctx, alice, simpleGraph());
    const run = await runVia(ctx, alice, workflow.id, { query: "mine" });
    await expectError(await ctx.request(`/api/v1/workflow-runs/${run.id}`, { token: bob.token }), 404);
    await expectError(await ctx.request(`/api/v1/workflows/${workflow.id}/runs`, { token: bob.token }), 404);
  });

  it("sends through a channel client into the receiver's conversation (queued for delivery)", async () => {
    const { channelClients, conversations, messages } = await import("../../db/schema/index");
    const app = await createAppVia(ctx, alice);
    const now = clock.toISOString();
    await ctx.deps.db
      .insert(channelClients)
      .values({ id: "chc_wf", spaceId: alice.user.spaceId, appId: app.id, name: "Telegram bot", kind: "telegram", createdAt: now, updatedAt: now });
    await ctx.deps.db.insert(conversations).values({
      id: "conv_wf",
      spaceId: alice.user.spaceId,
      appId: app.id,
      endUserId: "tg:42",
      channel: "telegram",
      title: "t",
      clientId: "chc_wf",
      externalConversationId: "42",
      createdAt: now,
      updatedAt: now,
    });
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("send", "channel_send", { mode: "client", clientId: "chc_wf", receiver: "{{sys.query}}", content: "Your order shipped" }),
        node("end", "end", { output: "{{send.output}}" }),
      ],
      lines: [line("start", "send"), line("send", "end")],
    });
    const run = await runVia(ctx, alice, workflow.id, { query: "42" });
    expect(run.status, run.error ?? "").toBe("success");
    expect(run.output).toBe("queued");
    const stored = await ctx.deps.db.select().from(messages).where(eq(messages.conversationId, "conv_wf"));
    expect(stored.map((message) => [message.role, message.content, message.delivery])).toEqual([["assistant", "Your order shipped", "pending"]]);
    const queued = await ctx.deps.db.select().from(jobs).where(eq(jobs.kind, "channel-send"));
    expect(queued.some((job) => JSON.parse(job.payload).messageId === stored[0]!.id)).toBe(true);

    const nobody = await runVia(ctx, alice, workflow.id, { query: "999" });
    expect(nobody.status).toBe("failure");
    expect(nobody.error).toMatch(/No conversation with 999/);
  });

  it("retrieves from a knowledge base", async () => {
    const { createKnowledgeBaseVia, uploadOk } = await import("../../knowledge/testing");
    const { createKnowledgeWorker } = await import("../../knowledge/worker");
    const { knowledgeFileSchema } = await import("../../knowledge/schemas");
    const base = await createKnowledgeBaseVia(ctx, alice);
    const file = await uploadOk(
      ctx,
      alice,
      base.id,
      "warranty.txt",
      "Every kettle comes with a two-year warranty covering the heating element.\n\nShipping takes three days.",
    );
    await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: alice.token }), 200, knowledgeFileSchema);
    await createKnowledgeWorker(ctx.deps).drain();
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("kb", "knowledge_base", { knowledgeBaseIds: [base.id], input: "{{sys.query}}", topK: 3 }),
        node("end", "end", { output: "{{kb.output}}" }),
      ],
      lines: [line("start", "kb"), line("kb", "end")],
    });
    const run = await runVia(ctx, alice, workflow.id, { query: "kettle warranty" });
    expect(run.status, run.error ?? "").toBe("success");
    expect(String(run.output)).toContain("two-year warranty");
  });

  it("a timer waits until a time given by a template; a time already past goes on at once, a non-date fails", async () => {
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start", { variables: [{ identifier: "when", displayName: "When", type: "text", required: true }] }),
        node("wait", "timer", { until: "{{start.when}}" }),
        node("end", "end", { output: "{{wait.waitedUntil}}" }),
      ],
      lines: [line("start", "wait"), line("wait", "end")],
    });
    const past = await runVia(ctx, alice, workflow.id, { variables: { when: "2020-01-01T00:00:00Z" } });
    expect(past).toMatchObject({ status: "success", output: "2020-01-01T00:00:00.000Z" });
    const later = await runVia(ctx, alice, workflow.id, { variables: { when: "2026-11-22T00:00:00Z" } });
    expect(later).toMatchObject({ status: "running", waitingUntil: "2026-11-22T00:00:00.000Z" });
    const broken = await runVia(ctx, alice, workflow.id, { variables: { when: "tomorrow-ish" } });
    expect(broken.status).toBe("failure");
    expect(broken.error).toMatch(/"tomorrow-ish" is not a date/);
  });

  it("cancels a run: the node in hand stops, a parked run does not wake, an ended run stays as it is", async () => {
    const slow = await createWorkflowVia(ctx, alice, {
      elements: [node("start", "start"), node("p", "plugin", { pluginCode: "slow" }), node("end", "end", { output: "{{p.output}}" })],
      lines: [line("start", "p"), line("p", "end")],
    });
    const started = await expectOk(
      await ctx.request(`/api/v1/workflows/${slow.id}/runs`, { method: "POST", token: alice.token, json: { query: "x" } }),
      201,
      workflowRunSchema,
    );
    runner.start();
    for (let attempt = 0; attempt < 200; attempt++) {
      const rows = await ctx.deps.db.select().from(workflowNodeRuns).where(eq(workflowNodeRuns.runId, started.id));
      if (rows.some((row) => row.nodeId === "p" && row.status === "running")) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const cancelled = await expectOk(
      await ctx.request(`/api/v1/workflow-runs/${started.id}/cancel`, { method: "POST", token: alice.token }),
      200,
      workflowRunSchema,
    );
    expect(cancelled.status).toBe("failure");
    expect(cancelled.error).toMatch(/^Cancelled by alice-engine/);
    expect(statusOf(cancelled)).toMatchObject({ start: "success", p: "failure", end: "no_execution" });
    await runner.stop();

    const timer = await createWorkflowVia(ctx, alice, {
      elements: [node("start", "start"), node("wait", "timer", { delaySeconds: 60 }), node("end", "end", { output: "woke" })],
      lines: [line("start", "wait"), line("wait", "end")],
    });
    const parked = await runVia(ctx, alice, timer.id, { query: "x" });
    expect(parked.status).toBe("running");
    await expectOk(await ctx.request(`/api/v1/workflow-runs/${parked.id}/cancel`, { method: "POST", token: alice.token }), 200, workflowRunSchema);
    const saved = clock;
    clock = new Date(clock.getTime() + 120_000);
    await createWorkflowRunner(ctx.deps).drain();
    clock = saved;
    const after = await expectOk(await ctx.request(`/api/v1/workflow-runs/${parked.id}`, { token: alice.token }), 200, workflowRunSchema);
    expect(after.status).toBe("failure");
    expect(after.output).toBeNull();

    const done = await runVia(ctx, alice, (await createWorkflowVia(ctx, alice, simpleGraph())).id, { query: "x" });
    const again = await expectOk(await ctx.request(`/api/v1/workflow-runs/${done.id}/cancel`, { method: "POST", token: alice.token }), 200, workflowRunSchema);
    expect(again.status).toBe("success");
    runner = createWorkflowRunner(ctx.deps, { execute: { limits: { maxNodeMs: 2500 } }, idleMs: 20 });
  });

  it("runs parallel branches at the same time and joins them", async () => {
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("left", "plugin", { pluginCode: "barrier", arguments: { side: "left" } }),
        node("right", "plugin", { pluginCode: "barrier", arguments: { side: "right" } }),
        node("join", "fixed_reply", { content: "{{left.output.side}}+{{right.output.side}}" }),
        node("end", "end", { output: "{{join.output}}" }),
      ],
      lines: [line("start", "left"), line("start", "right"), line("left", "join"), line("right", "join"), line("join", "end")],
    });
    const run = await runVia(ctx, alice, workflow.id, { query: "x" });
    expect(run.status, run.error ?? "").toBe("success");
    expect(run.output).toBe("left+right");
    expect(statusOf(run)).toEqual({ start: "success", left: "success", right: "success", join: "success", end: "success" });
  });
});
