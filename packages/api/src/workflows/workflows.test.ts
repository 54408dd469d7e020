import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError, expectOk } from "../testing/flows";
import { systemArgSchema, workflowPageSchema, workflowSchema, workflowSquareSchema } from "./schemas";
import { createWorkflowVia, line, node, simpleGraph, validWorkflowBody } from "./testing";

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await registerUser(ctx, "alice-wf@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  bob = await registerUser(ctx, "bob-wf@example.com");
});
afterAll(async () => ctx.close());

describe("workflow CRUD", () => {
  it("creates a workflow with a start → end graph, lists, reads, edits its card", async () => {
    const created = await createWorkflowVia(ctx, alice);
    expect(created.id).toMatch(/^wf_/);
    expect(created.elements.map((element) => element.type)).toEqual(["start", "end"]);
    expect(created.lines).toHaveLength(1);
    const page = await expectOk(await ctx.request("/api/v1/workflows", { token: alice.token }), 200, workflowPageSchema);
    expect(page.items.map((item) => item.id)).toContain(created.id);
    const edited = await expectOk(
      await ctx.request(`/api/v1/workflows/${created.id}`, { method: "PATCH", token: alice.token, json: { name: "Weekly report" } }),
      200,
      workflowSchema,
    );
    expect(edited.name).toBe("Weekly report");
    await expectError(await ctx.request(`/api/v1/workflows/${created.id}`, { method: "PATCH", token: alice.token, json: { category: " " } }), 400, {
      field: "category",
    });
  });

  it("saves a graph, copies, deletes", async () => {
    const workflow = await createWorkflowVia(ctx, alice, simpleGraph());
    expect(workflow.elements).toHaveLength(3);
    const copy = await expectOk(await ctx.request(`/api/v1/workflows/${workflow.id}/copy`, { method: "POST", token: alice.token }), 201, workflowSchema);
    expect(copy.name).toBe("Daily report (copy)");
    expect(copy.elements).toHaveLength(3);
    expect(copy.isPublic).toBe(false);
    await expectOk(
      await ctx.request(`/api/v1/workflows/${copy.id}`, { method: "DELETE", token: alice.token }),
      200,
      z.object({ deleted: z.literal(true), id: z.string() }),
    );
    await expectError(await ctx.request(`/api/v1/workflows/${copy.id}`, { token: alice.token }), 404);
  });

  it("is space-scoped: another space's workflow is not found", async () => {
    const workflow = await createWorkflowVia(ctx, alice);
    await expectError(await ctx.request(`/api/v1/workflows/${workflow.id}`, { token: bob.token }), 404);
    await expectError(await ctx.request(`/api/v1/workflows/${workflow.id}/graph`, { method: "PUT", token: bob.token, json: simpleGraph() }), 404);
    await expectError(await ctx.request(`/api/v1/workflows/${workflow.id}/runs`, { method: "POST", token: bob.token, json: {} }), 404);
    await expectError(await ctx.request(`/api/v1/workflows/${workflow.id}/scheduler`, { token: bob.token }), 404);
    const page = await expectOk(await ctx.request("/api/v1/workflows", { token: bob.token }), 200, workflowPageSchema);
    expect(page.items.map((item) => item.id)).not.toContain(workflow.id);
    await expectError(await ctx.request("/api/v1/workflows", { method: "POST", json: validWorkflowBody() }), 401);
  });

  it("publishes to the square and cancels; the square hides secrets", async () => {
    const graph = simpleGraph();
    graph.elements.splice(
      2,
      0,
      node("robot", "channel_send", {
        mode: "webhook",
        webhookUrl: "https://oapi.dingtalk.com/robot/send?access_token=abc",
        webhookSecret: "SECsecret",
        content: "hi",
      }),
    );
    graph.lines.push(line("reply", "robot"));
    const workflow = await createWorkflowVia(ctx, alice, graph);
    const stored = workflow.elements.find((element) => element.id === "robot")!;
    expect((stored.config as { webhookSecret?: string }).webhookSecret).toBe("••••••");
    await expectError(await ctx.request(`/api/v1/workflow-square/${workflow.id}`), 404);
    const published = await expectOk(
      await ctx.request(`/api/v1/workflows/${workflow.id}/publish`, { method: "POST", token: alice.token }),
      200,
      workflowSchema,
    );
    expect(published.isPublic).toBe(true);
    const square = await expectOk(await ctx.request(`/api/v1/workflow-square/${workflow.id}`), 200, workflowSquareSchema);
    const robot = square.elements.find((element) => element.id === "robot")!;
    expect(JSON.stringify(robot)).not.toContain("SECsecret");
    expect(JSON.stringify(robot)).not.toContain("access_token=abc");
    await expectOk(await ctx.request(`/api/v1/workflows/${workflow.id}/publish`, { method: "DELETE", token: alice.token }), 200, workflowSchema);
    await expectError(await ctx.request(`/api/v1/workflow-square/${workflow.id}`), 404);
  });

  it("keeps a stored webhook secret when the masked value is sent back", async () => {
    const graph = simpleGraph();
    graph.elements.splice(
      2,
      0,
      node("robot", "channel_send", { mode: "webhook", webhookUrl: "https://example.com/hook", webhookSecret: "s3cret", content: "hi" }),
    );
    graph.lines.push(line("reply", "robot"));
    const workflow = await createWorkflowVia(ctx, alice, graph);
    // The console sends back what it was answered.
    const again = await ctx.request(`/api/v1/workflows/${workflow.id}/graph`, {
      method: "PUT",
      token: alice.token,
      json: { elements: workflow.elements, lines: workflow.lines },
    });
    expect(again.status).toBe(200);
    const { workflows } = await import("../db/schema/index");
    const { eq } = await import("drizzle-orm");
    const row = await ctx.deps.db.select().from(workflows).where(eq(workflows.id, workflow.id)).get();
    const robot = (JSON.parse(row!.elements) as Array<{ id: string; config: { webhookSecret: string } }>).find((element) => element.id === "robot")!;
    expect(robot.config.webhookSecret).toMatch(/^sealed:/);
    expect(ctx.deps.secrets.open(robot.config.webhookSecret.slice("sealed:".length))).toBe("s3cret");
  });

  it("answers the system args and the node palette", async () => {
    const args = await expectOk(await ctx.request("/api/v1/workflow-system-args", { token: alice.token }), 200, z.array(systemArgSchema));
    expect(args.map((arg) => arg.name)).toEqual(expect.arrayContaining(["sys.query", "sys.user", "sys.time"]));
    const zh = await expectOk(
      await ctx.request("/api/v1/workflow-system-args", { token: alice.token, headers: { "accept-language": "zh-CN" } }),
      200,
      z.array(systemArgSchema),
    );
    expect(zh[0]!.description).toMatch(/[\u4e00-\u9fff]/);
    const palette = (await (await ctx.request("/api/v1/workflow-node-types")).json()) as {
      data: Array<{ group: string; types: string[]; outputs: Record<string, string[]> }>;
    };
    expect(palette.data.flatMap((group) => group.types)).toHaveLength(14);
    expect(palette.data.map((group) => group.group)).toEqual(["basic", "branch", "individuality"]);
    expect(palette.data[0]!.outputs.llm).toEqual(["output", "model"]);
  });

  it("lists the references a node reads (the inputs of a NODE run)", async () => {
    const graph = simpleGraph();
    graph.elements[1] = node("reply", "fixed_reply", { content: "{{sys.query}} in {{start.city}} and {{sys.query}}" });
    const workflow = await createWorkflowVia(ctx, alice, graph);
    const references = (await (await ctx.request(`/api/v1/workflows/${workflow.id}/nodes/reply/references`, { token: alice.token })).json()) as {
      data: { references: string[] };
    };
    expect(references.data.references).toEqual(["sys.query", "start.city"]);
    await expectError(await ctx.request(`/api/v1/workflows/${workflow.id}/nodes/ghost/references`, { token: alice.token }), 404);
    await expectError(await ctx.request(`/api/v1/workflows/${workflow.id}/nodes/reply/references`, { token: bob.token }), 404);
  });
});
