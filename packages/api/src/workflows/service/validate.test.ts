import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../../apps/testing";
import { expectError, expectOk } from "../../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../../testing/harness";
import { workflowSchema, workflowValidationSchema } from "../schemas";
import { createWorkflowVia, line, node, validWorkflowBody } from "../testing";

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let workflowId: string;
let appId: string;
let bobAppId: string;

type Element = ReturnType<typeof node>;
type Line = ReturnType<typeof line>;
type Graph = { elements: Element[]; lines: Line[] };

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await registerUser(ctx, "alice-rules@example.com");
  bob = await registerUser(ctx, "bob-rules@example.com");
  workflowId = (await createWorkflowVia(ctx, alice)).id;
  appId = (await createAppVia(ctx, alice)).id;
  bobAppId = (await createAppVia(ctx, bob)).id;
});
afterAll(async () => ctx.close());

/** start → middle → end, valid as it stands. */
function graphWith(middle: Element = node("mid", "fixed_reply", { content: "ok" })): Graph {
  return {
    elements: [
      node("start", "start", { variables: [{ identifier: "city", displayName: "City", type: "text", required: false }] }),
      middle,
      node("end", "end", { output: "{{mid.output}}" }),
    ],
    lines: [line("start", middle.id), line(middle.id, "end")],
  };
}

async function issuesOf(graph: Graph) {
  const result = await expectOk(
    await ctx.request(`/api/v1/workflows/${workflowId}/validate`, { method: "POST", token: alice.token, json: graph }),
    200,
    workflowValidationSchema,
  );
  return result.issues;
}

/** The graph is refused on save with the rule's message naming the node and field; validate lists exactly that rule. */
async function expectRule(graph: Graph, code: string, field: string, message?: RegExp, only = true) {
  const issues = await issuesOf(graph);
  if (only) expect(issues.map((issue) => issue.code)).toEqual([code]);
  else expect(issues[0]!.code).toBe(code);
  expect(issues[0]!.field).toBe(field);
  const refused = await expectError(await ctx.request(`/api/v1/workflows/${workflowId}/graph`, { method: "PUT", token: alice.token, json: graph }), 400, {
    field,
  });
  if (message) expect(refused.message).toMatch(message);
  return refused;
}

describe("workflow rules (spec §5)", () => {
  it("accepts the valid graph", async () => {
    expect(await issuesOf(graphWith())).toEqual([]);
    expect((await ctx.request(`/api/v1/workflows/${workflowId}/graph`, { method: "PUT", token: alice.token, json: graphWith() })).status).toBe(200);
  });

  it("requires name, description, avatar and category, each named", async () => {
    for (const [field, message] of [
      ["name", "Give the workflow a name"],
      ["description", "Describe the workflow"],
      ["avatarUrl", "Choose an avatar for the workflow"],
      ["category", "Choose a category for the workflow"],
    ] as const) {
      await expectError(await ctx.request("/api/v1/workflows", { method: "POST", token: alice.token, json: validWorkflowBody({ [field]: "  " }) }), 400, {
        field,
        message,
      });
    }
    await expectError(await ctx.request("/api/v1/workflows", { method: "POST", token: alice.token, json: validWorkflowBody({ name: "x".repeat(51) }) }), 400, {
      field: "name",
      message: /at most 50/,
    });
    const zh = await expectError(
      await ctx.request("/api/v1/workflows", {
        method: "POST",
        token: alice.token,
        json: validWorkflowBody({ name: "" }),
        headers: { "accept-language": "zh-CN" },
      }),
      400,
    );
    expect(zh.message).toBe("请填写工作流名称");
  });

  it("allows at most one start and one end node, and needs both", async () => {
    const twoStarts = graphWith();
    twoStarts.elements.push(node("start2", "start"));
    twoStarts.lines.push(line("start2", "mid"));
    await expectRule(twoStarts, "workflow_start_duplicate", "elements.start2", /start2/);
    const twoEnds = graphWith();
    twoEnds.elements.push(node("end2", "end"));
    twoEnds.lines.push(line("mid", "end2"));
    await expectRule(twoEnds, "workflow_end_duplicate", "elements.end2", /end2/);
    const noEnd = graphWith();
    noEnd.elements.pop();
    noEnd.lines.pop();
    await expectRule(noEnd, "workflow_end_missing", "elements");
    const noStart = graphWith();
    noStart.elements.shift();
    noStart.lines.shift();
    await expectRule(noStart, "workflow_start_missing", "elements");
  });

  it("needs the end connected to the start", async () => {
    const cut = graphWith();
    cut.lines.pop();
    await expectRule(cut, "workflow_end_unconnected", "elements.end", /end \(end\)/);
  });

  it("refuses cycles, dangling lines, unknown node types, duplicate or malformed ids, unknown branch handles", async () => {
    const cycle = graphWith();
    cycle.elements.splice(2, 0, node("back", "fixed_reply", { content: "again" }));
    cycle.lines.push(line("mid", "back"), line("back", "mid"));
    await expectRule(cycle, "workflow_cycle", "elements.mid", /loop through node mid \(mid\)/);
    const dangling = graphWith();
    dangling.lines.push(line("mid", "ghost", null, "line_ghost"));
    await expectRule(dangling, "workflow_line_dangling", "lines.line_ghost", /line_ghost.*ghost/);
    await expectRule(graphWith(node("mid", "teleport", {})), "workflow_node_type_unknown", "elements.mid.type", /mid.*teleport/);
    const duplicate = graphWith();
    duplicate.elements.push(node("mid", "fixed_reply", { content: "x" }));
    await expectRule(duplicate, "workflow_node_id_duplicate", "elements.mid", /mid/);
    await expectRule(graphWith(node("bad id!", "fixed_reply", { content: "x" })), "workflow_node_id_invalid", "elements.bad id!", /bad id!/, false);
    const lines = graphWith();
    lines.lines.push({ ...lines.lines[0]! });
    await expectRule(lines, "workflow_line_duplicate", `lines.${lines.lines[0]!.id}`);
    const branch = graphWith(
      node("mid", "logic_branch", { branches: [{ id: "yes", conditions: [{ left: "{{start.city}}", operator: "not_empty" }], node_id: null }] }),
    );
    branch.elements.push(node("t", "fixed_reply", { content: "t" }));
    branch.lines = [line("start", "mid"), line("mid", "end", "yes"), line("mid", "t", "nope", "line_nope"), line("t", "end")];
    await expectRule(branch, "workflow_line_handle_unknown", "lines.line_nope", /nope/);
    await expectRule(
      graphWith(node("mid", "llm", { model: "gpt-4.1-mini", input: "x", temperature: 9 })),
      "workflow_node_config_invalid",
      "elements.mid.config.temperature",
      /mid/,
    );
  });

  it("checks start variables: identifiers of letters, digits and underscore, unique; select options not empty", async () => {
    const variables = (list: unknown[]) => {
      const graph = graphWith();
      graph.elements[0] = node("start", "start", { variables: list });
      return graph;
    };
    const variable = (identifier: string, extra: Record<string, unknown> = {}) => ({
      identifier,
      displayName: identifier,
      type: "text",
      required: false,
      ...extra,
    });
    await expectRule(variables([variable("my-city")]), "workflow_variable_identifier_invalid", "elements.start.config.variables.0.identifier", /my-city/);
    await expectRule(
      variables([variable("city"), variable("city")]),
      "workflow_variable_identifier_duplicate",
      "elements.start.config.variables.1.identifier",
      /city/,
    );
    await expectRule(
      variables([variable("size", { type: "select", options: [] })]),
      "workflow_variable_options_empty",
      "elements.start.config.variables.0.options",
      /size/,
    );
    await expectRule(
      variables([variable("size", { type: "select", options: [" "] })]),
      "workflow_variable_options_empty",
      "elements.start.config.variables.0.options",
    );
    expect(await issuesOf(variables([variable("size_2", { type: "select", options: ["S", "M"] })]))).toEqual([]);
  });

  it("does not repeat structured output variables", async () => {
    const llm = (structuredOutput: unknown[]) => graphWith(node("mid", "llm", { model: "gpt-4.1-mini", input: "{{sys.query}}", structuredOutput }));
    await expectRule(
      llm([
        { name: "mood", type: "string" },
        { name: "mood", type: "number" },
      ]),
      "workflow_output_variable_duplicate",
      "elements.mid.config.structuredOutput.1.name",
      /mood/,
    );
    await expectRule(llm([{ name: "my mood", type: "string" }]), "workflow_output_variable_invalid", "elements.mid.config.structuredOutput.0.name");
  });

  it("requires, as applicable, a model, knowledge base, app, plugin, database, client, receiver, webhook url and secret — and that they exist", async () => {
    await expectRule(
      graphWith(node("mid", "llm", { input: "{{sys.query}}" })),
      "workflow_node_model_required",
      "elements.mid.config.model",
      /Node mid \(mid\): choose a model/,
    );
    await expectRule(graphWith(node("mid", "llm", { model: "gpt-99", input: "x" })), "workflow_node_model_unknown", "elements.mid.config.model", /gpt-99/);
    await expectRule(
      graphWith(node("mid", "intent_branch", { input: "x", intentions: [{ id: "a", name: "a", node_id: null }] })),
      "workflow_node_model_required",
      "elements.mid.config.model",
    );
    await expectRule(
      graphWith(node("mid", "knowledge_base", { input: "x", knowledgeBaseIds: [] })),
      "workflow_node_knowledge_base_required",
      "elements.mid.config.knowledgeBaseIds",
    );
    await expectRule(
      graphWith(node("mid", "knowledge_base", { input: "x", knowledgeBaseIds: ["kb_nope"] })),
      "workflow_node_knowledge_base_unknown",
      "elements.mid.config.knowledgeBaseIds",
      /kb_nope/,
    );
    await expectRule(graphWith(node("mid", "app", { input: "x" })), "workflow_node_app_required", "elements.mid.config.appId");
    await expectRule(graphWith(node("mid", "app", { input: "x", appId: bobAppId })), "workflow_node_app_unknown", "elements.mid.config.appId");
    expect(await issuesOf(graphWith(node("mid", "app", { input: "x", appId })))).toEqual([]);
    await expectRule(graphWith(node("mid", "plugin", {})), "workflow_node_plugin_required", "elements.mid.config.pluginCode");
    await expectRule(graphWith(node("mid", "plugin", { pluginCode: "plg_missing" })), "workflow_node_plugin_unknown", "elements.mid.config.pluginCode");
    expect(await issuesOf(graphWith(node("mid", "plugin", { pluginCode: "current_time" })))).toEqual([]);
    await expectRule(graphWith(node("mid", "database", { input: "x" })), "workflow_node_database_required", "elements.mid.config.databaseId");
    await expectRule(
      graphWith(node("mid", "channel_send", { mode: "client", receiver: "u1", content: "x" })),
      "workflow_node_client_required",
      "elements.mid.config.clientId",
    );
    await expectRule(
      graphWith(node("mid", "channel_send", { mode: "client", clientId: "chc_nope", receiver: "u1", content: "x" })),
      "workflow_node_client_unknown",
      "elements.mid.config.clientId",
    );
    const noReceiver = graphWith(node("mid", "channel_send", { mode: "client", clientId: "chc_nope", content: "x" }));
    expect((await issuesOf(noReceiver)).map((issue) => issue.code)).toContain("workflow_node_receiver_required");
    await expectRule(
      graphWith(node("mid", "channel_send", { mode: "webhook", webhookSecret: "s", content: "x" })),
      "workflow_node_webhook_url_required",
      "elements.mid.config.webhookUrl",
    );
    await expectRule(
      graphWith(node("mid", "channel_send", { mode: "webhook", webhookUrl: "ftp://x", webhookSecret: "s", content: "x" })),
      "workflow_node_webhook_url_required",
      "elements.mid.config.webhookUrl",
    );
    await expectRule(
      graphWith(node("mid", "channel_send", { mode: "webhook", webhookUrl: "https://example.com/hook", content: "x" })),
      "workflow_node_webhook_secret_required",
      "elements.mid.config.webhookSecret",
    );
    await expectRule(graphWith(node("mid", "timer", {})), "workflow_node_timer_required", "elements.mid.config.delaySeconds");
  });

  it("needs each node's input", async () => {
    for (const [type, key, config] of [
      ["llm", "input", { model: "gpt-4.1-mini" }],
      ["app", "input", { appId: "" }],
      ["knowledge_base", "input", { knowledgeBaseIds: [] }],
      ["database", "input", { databaseId: "db_1" }],
      ["code_block", "code", {}],
      ["fixed_reply", "content", {}],
      ["channel_send", "content", { mode: "webhook", webhookUrl: "https://example.com/x", webhookSecret: "s" }],
      ["intent_branch", "input", { model: "gpt-4.1-mini", intentions: [{ id: "a", name: "a", node_id: null }] }],
    ] as const) {
      const issues = await issuesOf(graphWith(node("mid", type, { ...config, [key]: " " })));
      expect(
        issues.find((issue) => issue.code === "workflow_node_input_required"),
        type,
      ).toMatchObject({ field: `elements.mid.config.${key}`, nodeId: "mid" });
    }
    await expectRule(
      graphWith(node("mid", "fixed_reply", { content: "" })),
      "workflow_node_input_required",
      "elements.mid.config.content",
      /mid.*input cannot be empty/,
    );
  });

  it("checks branches: at least one branch or intention with conditions, one else at most, references to existing nodes", async () => {
    await expectRule(graphWith(node("mid", "logic_branch", { branches: [] })), "workflow_node_branches_empty", "elements.mid.config.branches");
    await expectRule(
      graphWith(node("mid", "logic_branch", { branches: [{ id: "a", conditions: [], node_id: null }] })),
      "workflow_node_conditions_empty",
      "elements.mid.config.branches.0.conditions",
    );
    await expectRule(
      graphWith(
        node("mid", "logic_branch", {
          branches: [
            { id: "a", conditions: [{ left: "1", operator: "empty" }], node_id: null },
            { id: "e1", isElse: true, node_id: null },
            { id: "e2", isElse: true, node_id: null },
          ],
        }),
      ),
      "workflow_node_else_duplicate",
      "elements.mid.config.branches",
    );
    await expectRule(
      graphWith(node("mid", "intent_branch", { model: "gpt-4.1-mini", input: "x", intentions: [] })),
      "workflow_node_intentions_empty",
      "elements.mid.config.intentions",
    );
    await expectRule(
      graphWith(node("mid", "fixed_reply", { content: "{{ghost.output}}" })),
      "workflow_reference_unknown",
      "elements.mid.config.content",
      /ghost/,
    );
    // Code is JavaScript: braces in it are not references.
    expect(await issuesOf(graphWith(node("mid", "code_block", { code: "function main() { return '{{ghost.output}}' }" })))).toEqual([]);
  });

  it("checks the cron expression: 5 fields, not empty", async () => {
    expect((await ctx.request(`/api/v1/workflows/${workflowId}/graph`, { method: "PUT", token: alice.token, json: graphWith() })).status).toBe(200);
    await expectError(
      await ctx.request(`/api/v1/workflows/${workflowId}/scheduler`, { method: "PUT", token: alice.token, json: { cron: "0 0 9 * * *" } }),
      400,
      { field: "cron", message: /has 6/ },
    );
    await expectError(await ctx.request(`/api/v1/workflows/${workflowId}/scheduler`, { method: "PUT", token: alice.token, json: { cron: "" } }), 400, {
      field: "cron",
    });
    await expectError(await ctx.request(`/api/v1/workflows/${workflowId}/scheduler`, { method: "PUT", token: alice.token, json: { cron: "* * * *" } }), 400, {
      field: "cron",
      message: /has 4/,
    });
  });

  it("keeps a draft that breaks rules (answering them) but never an unreadable one", async () => {
    const draft = graphWith(node("mid", "llm", { input: "x" }));
    const saved = await ctx.request(`/api/v1/workflows/${workflowId}/graph?draft=true`, { method: "PUT", token: alice.token, json: draft });
    expect(saved.status).toBe(200);
    const body = (await saved.json()) as { data: { issues: Array<{ code: string; message: string }> } };
    expect(body.data.issues.map((issue) => issue.code)).toEqual(["workflow_node_model_required"]);
    expect(body.data.issues[0]!.message).toBe("Node mid (mid): choose a model");
    await expectError(
      await ctx.request(`/api/v1/workflows/${workflowId}/graph?draft=true`, {
        method: "PUT",
        token: alice.token,
        json: graphWith(node("mid", "teleport", {})),
      }),
      400,
      { field: "elements.mid.type" },
    );
    // A run refuses the broken graph, naming the node.
    await expectError(await ctx.request(`/api/v1/workflows/${workflowId}/runs`, { method: "POST", token: alice.token, json: { query: "x" } }), 400, {
      field: "elements.mid.config.model",
    });
    await expectError(await ctx.request(`/api/v1/workflows/${workflowId}/publish`, { method: "POST", token: alice.token }), 400, {
      field: "elements.mid.config.model",
    });
  });

  it("deleting a node removes its lines and clears branch targets that led to it", async () => {
    const graph: Graph = {
      elements: [
        node("start", "start"),
        node("check", "logic_branch", {
          branches: [
            { id: "yes", conditions: [{ left: "{{sys.query}}", operator: "not_empty" }], node_id: null },
            { id: "no", isElse: true, node_id: null },
          ],
        }),
        node("intent", "intent_branch", { model: "gpt-4.1-mini", input: "{{sys.query}}", intentions: [{ id: "i1", name: "greet", node_id: null }] }),
        node("target", "fixed_reply", { content: "x" }),
        node("end", "end", { output: "{{target.output}}" }),
      ],
      lines: [line("start", "check"), line("check", "target", "yes"), line("check", "intent", "no"), line("intent", "target", "i1"), line("target", "end")],
    };
    const workflow = await createWorkflowVia(ctx, alice, graph);
    const before = workflow.elements.find((element) => element.id === "check")!.config as { branches: Array<{ node_id: string | null }> };
    expect(before.branches.map((branch) => branch.node_id)).toEqual(["target", "intent"]);
    const after = await expectOk(
      await ctx.request(`/api/v1/workflows/${workflow.id}/nodes/target`, { method: "DELETE", token: alice.token }),
      200,
      workflowSchema,
    );
    expect(after.elements.map((element) => element.id)).toEqual(["start", "check", "intent", "end"]);
    expect(after.lines.map((entry) => `${entry.source}>${entry.target}`)).toEqual(["start>check", "check>intent"]);
    const check = after.elements.find((element) => element.id === "check")!.config as { branches: Array<{ node_id: string | null }> };
    expect(check.branches.map((branch) => branch.node_id)).toEqual([null, "intent"]);
    const intent = after.elements.find((element) => element.id === "intent")!.config as { intentions: Array<{ node_id: string | null }> };
    expect(intent.intentions.map((intention) => intention.node_id)).toEqual([null]);
    await expectError(await ctx.request(`/api/v1/workflows/${workflow.id}/nodes/target`, { method: "DELETE", token: alice.token }), 404);
  });
});
