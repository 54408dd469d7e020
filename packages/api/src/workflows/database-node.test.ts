import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendLedger } from "../billing/service/ledger";
import { runBuiltinStatement } from "../databases/service/statement";
import { upgradeSpaceForTest } from "../plans/testing";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { createWorkflowVia, line, node, runVia } from "./testing";

// The workflow database node (issue 18) on a real built-in database, with the fake model writing SQL for questions.
let ctx: TestContext;
let fake: LlmFake;
let alice: TestUser;
let databaseId: string;

async function call(method: string, path: string, json?: unknown) {
  const response = await ctx.request(path, { method, token: alice.token, ...(json !== undefined ? { json } : {}) });
  const body = (await response.json()) as { data: any };
  expect(response.status, JSON.stringify(body)).toBeLessThan(300);
  return body.data;
}

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini" });
  await ctx.deps.models.ready();
  alice = await registerUser(ctx, "alice-wfdb@example.com");
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  await appendLedger(ctx.deps, { spaceId: alice.user.spaceId, delta: 1_000_000, reason: "adjustment", reference: "test" });
  const database = await call("POST", "/api/v1/databases", {
    type: "builtin",
    name: "Orders",
    permissions: { query: true, add: false, edit: false, delete: false },
  });
  databaseId = database.id;
  const table = await call("POST", `/api/v1/databases/${databaseId}/tables`, {
    name: "orders",
    description: "Customer orders",
    fields: [
      { name: "customer", type: "text", description: "Who ordered" },
      { name: "total", type: "decimal" },
    ],
  });
  for (const [customer, total] of [
    ["Ann", 10],
    ["Bo", 25.5],
    ["Ann", 4],
  ] as const)
    await call("POST", `/api/v1/database-tables/${table.id}/rows`, { values: { customer, total } });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

function graph(input: string) {
  return {
    elements: [
      node("start", "start", { inputs: { text: true } }),
      node("db", "database", { databaseId, input }),
      node("end", "end", { output: "{{db.output}}\nSQL: {{db.sql}}" }),
    ],
    lines: [line("start", "db"), line("db", "end")],
  };
}

describe("the workflow database node", () => {
  it("runs SQL given as its input under the database's permissions", async () => {
    const workflow = await createWorkflowVia(
      ctx,
      alice,
      graph("SELECT customer, sum(total) AS spent FROM orders WHERE customer = '{{sys.query}}' GROUP BY customer"),
    );
    const run = await runVia(ctx, alice, workflow.id, { query: "Ann" });
    expect(run.status, run.error ?? "").toBe("success");
    expect(run.output).toContain("customer | spent\nAnn | 14");
    expect(run.output).toContain("SQL: SELECT customer, sum(total) AS spent FROM orders WHERE customer = 'Ann'");
  });

  it("asks the space's default model to write SQL for a question, then runs it", async () => {
    fake.reply("```sql\nSELECT customer, total FROM orders ORDER BY total DESC LIMIT 1;\n```");
    const workflow = await createWorkflowVia(ctx, alice, graph("Who placed the biggest order?"));
    const run = await runVia(ctx, alice, workflow.id, { query: "x" });
    expect(run.status, run.error ?? "").toBe("success");
    expect(run.output).toContain("Bo | 25.5");
    const prompt = JSON.stringify(fake.requests.at(-1)!.body);
    expect(prompt).toContain('table \\"orders\\": Customer orders');
    expect(prompt).toContain("Who placed the biggest order?");
  });

  it("fails the node with the checker's reason on a refused statement, and changes nothing", async () => {
    const workflow = await createWorkflowVia(ctx, alice, graph("DELETE FROM orders WHERE customer = 'Ann'"));
    const run = await runVia(ctx, alice, workflow.id, { query: "x" });
    expect(run.status).toBe("failure");
    expect(run.error).toMatch(/refused: This database does not permit delete/);
    const rows = await runBuiltinStatement(ctx.deps, databaseId, "SELECT count(*) FROM orders", [], { maxRows: 10, timeoutMs: 5000 });
    expect("rows" in rows && rows.rows).toEqual([[3]]);
  });
});
