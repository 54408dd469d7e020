import type { z } from "@hono/zod-openapi";
import type { TestContext, TestUser } from "../testing/harness";
import { expectOk } from "../testing/flows";
import { workflowRunSchema, workflowSchema } from "./schemas";

/** A create-workflow body that passes every card rule. */
export function validWorkflowBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Daily report",
    description: "Summarises the day",
    avatarUrl: "https://cdn.example.com/avatars/report.png",
    category: "office",
    ...overrides,
  };
}

/** A node for tests. */
export function node(id: string, type: string, config: Record<string, unknown> = {}) {
  return { id, type, config: { name: id, ...config }, position: { x: 0, y: 0 } };
}

/** A line for tests. */
export function line(source: string, target: string, sourceHandle: string | null = null, id = `${source}-${target}${sourceHandle ? `-${sourceHandle}` : ""}`) {
  return { id, source, target, sourceHandle };
}

/** start → fixed_reply → end, answering "Hello {{sys.query}}". */
export function simpleGraph() {
  return {
    elements: [
      node("start", "start", { inputs: { text: true } }),
      node("reply", "fixed_reply", { content: "Hello {{sys.query}}" }),
      node("end", "end", { output: "{{reply.output}}" }),
    ],
    lines: [line("start", "reply"), line("reply", "end")],
  };
}

/** Creates a workflow through the API (optionally with a graph saved through save). */
export async function createWorkflowVia(
  ctx: TestContext,
  user: TestUser,
  graph?: { elements: unknown[]; lines: unknown[] },
  overrides: Record<string, unknown> = {},
): Promise<z.infer<typeof workflowSchema>> {
  const created = await expectOk(
    await ctx.request("/api/v1/workflows", { method: "POST", token: user.token, json: validWorkflowBody(overrides) }),
    201,
    workflowSchema,
  );
  if (!graph) return created;
  const response = await ctx.request(`/api/v1/workflows/${created.id}/graph`, { method: "PUT", token: user.token, json: graph });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`save failed: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: { workflow: z.infer<typeof workflowSchema> } }).data.workflow;
}

/** Runs a workflow through the API, waiting for it. */
export async function runVia(ctx: TestContext, user: TestUser, workflowId: string, body: Record<string, unknown> = {}) {
  return expectOk(
    await ctx.request(`/api/v1/workflows/${workflowId}/runs`, { method: "POST", token: user.token, json: { wait: true, ...body } }),
    201,
    workflowRunSchema,
  );
}
