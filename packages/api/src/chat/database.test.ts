import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import pg from "pg";
import { newId } from "../crypto";
import { databaseTables, databaseWriteConfirmations, usageRecords } from "../db/schema/index";
import { type DbServer, skipWithoutDbServer, startPostgres } from "../testing/db-servers";
import { runBuiltinStatement } from "../databases/service/statement";
import { upgradeSpaceForTest } from "../plans/testing";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import type { ChatEvent } from "./events";

// Databases in chat (issue 18): a real server, real SQLite files, and an OpenAI-compatible fake
// model that answers with tool calls carrying SQL.
let fake: LlmFake;
let ctx: TestContext;
let base: string;
let owner: TestUser;

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext({
    OPENAI_API_KEY: "sk-test-parley",
    OPENAI_BASE_URL: fake.url,
    PARLEY_OPENAI_MODELS: "gpt-4.1-mini",
    // The test's PostgreSQL listens on loopback.
    PARLEY_DATABASES_ALLOW_LOOPBACK: "true",
  });
  await ctx.deps.models.ready();
  base = await ctx.listen();
  owner = await registerUser(ctx, "db-chat@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => fake.reset());

async function call(method: string, path: string, json?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${owner.token}`, ...(json !== undefined ? { "content-type": "application/json" } : {}) },
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as { success: boolean; code: number; message: string; data: any } };
}

async function readEvents(response: Response): Promise<ChatEvent[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .map((block) => /^data: (.+)$/m.exec(block)?.[1])
    .filter((data): data is string => data !== undefined)
    .map((data) => JSON.parse(data) as ChatEvent);
}

const textOf = (events: ChatEvent[]) => events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");

/** A built-in database with a table of three products, bound to a new app with the database setting on. */
async function shopApp(name: string, permissions = { query: true, add: false, edit: false, delete: false }, confirmWrites?: boolean) {
  const database = (await call("POST", "/api/v1/databases", { type: "builtin", name, permissions })).body.data;
  const table = (
    await call("POST", `/api/v1/databases/${database.id}/tables`, {
      name: "products",
      description: "What we sell",
      fields: [
        { name: "name", type: "text", description: "Product name" },
        { name: "价格", type: "decimal", description: "Price in CNY" },
        { name: "stock", type: "integer" },
      ],
    })
  ).body.data;
  for (const [product, price, stock] of [
    ["Green tea", 12.5, 40],
    ["Oolong", 30, 7],
    ["Puer", 88, 2],
  ] as const) {
    expect((await call("POST", `/api/v1/database-tables/${table.id}/rows`, { values: { name: product, 价格: price, stock } })).status).toBe(201);
  }
  // A second table that is not part of what the model is shown for the unchosen-table check.
  const app = await createAppVia(ctx, owner, { settingsPrompt: "Answer from the shop's data." });
  const config = (await call("GET", `/api/v1/apps/${app.id}/advanced-config`)).body.data;
  const put = await call("PUT", `/api/v1/apps/${app.id}/advanced-config`, {
    ...config,
    database: { enabled: true, databaseIds: [database.id], ...(confirmWrites === undefined ? {} : { confirmWrites }) },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { database, table, app };
}

const ask = (appCode: string, message: string, conversationId?: string) =>
  fetch(`${base}/api/v1/chat/stream`, {
    method: "POST",
    headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json" },
    body: JSON.stringify({ appCode, message, ...(conversationId ? { conversationId } : {}) }),
  }).then(readEvents);

async function stockOf(databaseId: string) {
  const result = await runBuiltinStatement(ctx.deps, databaseId, 'SELECT name, stock FROM "products" ORDER BY name', [], { maxRows: 100, timeoutMs: 5000 });
  return "rows" in result ? result.rows : [];
}

describe("databases in chat", () => {
  it("offers the schema to the model, runs its SELECT, gives the rows back and records the SQL", async () => {
    const { app } = await shopApp("Shop");
    fake
      .replyToolCall({
        id: "call_1",
        name: "query_database",
        arguments: { database: "Shop", sql: 'SELECT name, "价格" FROM products WHERE stock > 5 ORDER BY name' },
      })
      .reply("We have Green tea (12.5) and Oolong (30).");
    const events = await ask(app.code, "What is in stock?");
    const first = fake.requests[0]!.body as { tools: Array<{ function: { name: string; description: string } }> };
    const tool = first.tools.find((item) => item.function.name === "query_database")!;
    expect(tool.function.description).toContain('table "products": What we sell');
    expect(tool.function.description).toContain('"价格" decimal — Price in CNY');
    expect(tool.function.description).toContain("dialect SQLite; permissions: query");
    expect(tool.function.description).toMatch(/double-quote/);
    const result = events.find((event) => event.type === "tool-result");
    expect(result).toMatchObject({
      ok: true,
      table: {
        columns: ["name", "价格"],
        rows: [
          ["Green tea", 12.5],
          ["Oolong", 30],
        ],
        truncated: false,
      },
    });
    // The model read the rows as a compact table in the second round.
    const second = fake.requests[1]!.body as { messages: Array<{ role: string; content: string }> };
    expect(second.messages.find((message) => message.role === "tool")!.content).toContain("Green tea | 12.5");
    expect(textOf(events)).toContain("Green tea");
    const record = await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.appId, app.id)).get();
    expect(JSON.parse(record!.databaseStatements!)).toEqual([
      expect.objectContaining({ database: "Shop", status: "ran", rows: 2, sql: expect.stringContaining('SELECT name, "价格" FROM products') }),
    ]);
    // The analysis records show the SQL that ran.
    const listed = await call("GET", `/api/v1/analysis/records?appId=${app.id}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.items[0].databaseStatements).toEqual([
      { database: "Shop", status: "ran", sql: expect.stringContaining('SELECT name, "价格" FROM products WHERE stock > 5') },
    ]);
  });

  it("refuses DROP TABLE, a second statement, UNION into an unchosen table and pg_sleep; records each and changes nothing", async () => {
    const { app, database } = await shopApp("Guarded", { query: true, add: false, edit: false, delete: true });
    const attacks = [
      "DROP TABLE products",
      "SELECT * FROM products; DELETE FROM products",
      "SELECT name FROM products UNION SELECT name FROM sqlite_master",
      "SELECT pg_sleep(100)",
      "DELETE FROM products",
    ];
    for (const [index, sql] of attacks.entries()) {
      fake.replyToolCall({ id: `call_${index}`, name: "query_database", arguments: { sql } }).reply("I could not do that.");
      const events = await ask(app.code, `attack ${index}`);
      const result = events.find((event) => event.type === "tool-result");
      expect(result, sql).toMatchObject({ ok: false });
      expect((result as { content: string }).content, sql).toMatch(/^Refused: .*Nothing was changed\.$/);
    }
    expect(await stockOf(database.id)).toEqual([
      ["Green tea", 40],
      ["Oolong", 7],
      ["Puer", 2],
    ]);
    const records = await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.appId, app.id));
    const statements = records.flatMap((record) => JSON.parse(record.databaseStatements ?? "[]") as Array<{ status: string; code: string }>);
    expect(statements).toHaveLength(attacks.length);
    expect(statements.every((statement) => statement.status === "refused")).toBe(true);
    expect(statements.map((statement) => statement.code)).toEqual([
      "sql_kind_not_allowed",
      "sql_multiple_statements",
      "sql_table_not_allowed",
      "sql_function_not_allowed",
      "sql_write_without_where",
    ]);
  });

  it("holds a write for the user's confirmation, then runs it exactly once", async () => {
    const { app, database } = await shopApp("Writable", { query: true, add: false, edit: true, delete: false });
    fake.replyToolCall({ id: "call_w", name: "query_database", arguments: { sql: "UPDATE products SET stock = 99 WHERE name = 'Puer'" } });
    const events = await ask(app.code, "Set Puer's stock to 99");
    const result = events.find((event) => event.type === "tool-result") as Extract<ChatEvent, { type: "tool-result" }>;
    expect(result.confirmation).toMatchObject({ databaseName: "Writable", kind: "update", sql: "UPDATE products SET stock = 99 WHERE name = 'Puer'" });
    expect(textOf(events)).toContain("needs your confirmation");
    expect(fake.requests).toHaveLength(1);
    expect(await stockOf(database.id)).toContainEqual(["Puer", 2]);
    const id = result.confirmation!.id;
    const confirmed = await call("POST", `/api/v1/chat/database-writes/${id}/confirm`);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data).toMatchObject({ affectedRows: 1 });
    expect(await stockOf(database.id)).toContainEqual(["Puer", 99]);
    const again = await call("POST", `/api/v1/chat/database-writes/${id}/confirm`);
    expect(again.status).toBe(409);
    expect(again.body.success).toBe(false);
    expect((await call("POST", "/api/v1/chat/database-writes/dbw_nope/confirm")).status).toBe(404);
    const row = await ctx.deps.db.select().from(databaseWriteConfirmations).where(eq(databaseWriteConfirmations.id, id)).get();
    expect(row!.usedAt).not.toBeNull();
  });

  it("lets a widget visitor confirm a write of their own session, once; another session cannot", async () => {
    const { app, database } = await shopApp("Widget shop", { query: true, add: false, edit: true, delete: false });
    const client = (await call("POST", "/api/v1/web-clients", { appId: app.id, name: "Shop widget" })).body.data;
    const session = async (visitorId: string) => {
      const started = await fetch(`${base}/api/v1/widget/${client.id}/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ visitorId }),
      });
      expect(started.status).toBe(201);
      return ((await started.json()) as { data: { sessionId: string; visitorToken: string } }).data;
    };
    const visitor = await session("visitor-db-1");
    const other = await session("visitor-db-2");
    fake.replyToolCall({ id: "call_v", name: "query_database", arguments: { sql: "UPDATE products SET stock = 0 WHERE name = 'Oolong'" } });
    const events = await fetch(`${base}/api/v1/widget/${client.id}/sessions/${visitor.sessionId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${visitor.visitorToken}` },
      body: JSON.stringify({ content: "Oolong is sold out" }),
    }).then(readEvents);
    const id = (events.find((event) => event.type === "tool-result") as Extract<ChatEvent, { type: "tool-result" }>).confirmation!.id;
    const confirm = (who: { sessionId: string; visitorToken: string }) =>
      fetch(`${base}/api/v1/widget/${client.id}/sessions/${who.sessionId}/database-writes/${id}/confirm`, {
        method: "POST",
        headers: { authorization: `Bearer ${who.visitorToken}` },
      });
    expect((await confirm(other)).status).toBe(404);
    expect(await stockOf(database.id)).toContainEqual(["Oolong", 7]);
    const done = await confirm(visitor);
    expect(done.status).toBe(200);
    expect(((await done.json()) as { data: { affectedRows: number } }).data.affectedRows).toBe(1);
    expect(await stockOf(database.id)).toContainEqual(["Oolong", 0]);
    expect((await confirm(visitor)).status).toBe(409);
  });

  it("runs a permitted write at once when the app does not confirm writes", async () => {
    const { app, database } = await shopApp("Direct", { query: true, add: true, edit: false, delete: false }, false);
    fake
      .replyToolCall({ id: "call_i", name: "query_database", arguments: { sql: "INSERT INTO products (name, \"价格\", stock) VALUES ('Matcha', 20, 5)" } })
      .reply("Added.");
    const events = await ask(app.code, "Add Matcha");
    expect(events.find((event) => event.type === "tool-result")).toMatchObject({ ok: true, content: "1 rows affected." });
    expect(await stockOf(database.id)).toContainEqual(["Matcha", 5]);
  });
});

describe.skipIf(skipWithoutDbServer("postgresql"))("databases in chat against a real PostgreSQL", () => {
  let server: DbServer;
  let admin: pg.Client;
  beforeAll(async () => {
    server = await startPostgres();
    admin = new pg.Client({ host: server.host, port: server.port, user: server.user, password: server.password, database: server.database });
    await admin.connect();
    await admin.query("CREATE TABLE orders (id serial PRIMARY KEY, customer text NOT NULL, total numeric(10,2))");
    await admin.query("CREATE TABLE secrets (token text)");
    await admin.query("INSERT INTO orders (customer, total) VALUES ('Ada', 12.50), ('Lin', 99.00), ('Mei', 7.25)");
    await admin.query("INSERT INTO secrets VALUES ('s3cret')");
  }, 60_000);
  afterAll(async () => {
    await admin?.end();
    await server?.stop();
  });

  it("answers from the chosen tables in a read-only transaction and refuses the rest", async () => {
    const created = await call("POST", "/api/v1/databases", {
      type: "remote",
      name: "Shop PG",
      dialect: "postgres",
      host: server.host,
      port: server.port,
      username: server.user,
      password: server.password,
      databaseName: server.database,
      permissions: { query: true, add: false, edit: false, delete: false },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const database = created.body.data;
    // The online-table save is another part's route: the chosen table is written as it writes it.
    const now = new Date().toISOString();
    const table = { databaseId: database.id, spaceId: owner.user.spaceId, createdBy: owner.user.id, updatedAt: now };
    await ctx.deps.db.insert(databaseTables).values([
      {
        ...table,
        id: newId("dbt"),
        name: "orders",
        description: "Orders placed in the shop",
        chosen: true,
        schemaJson: JSON.stringify([
          { name: "customer", type: "text", nullable: false, description: "Who ordered" },
          { name: "total", type: "numeric(10,2)", nullable: true, description: "Order total in CNY" },
        ]),
      },
      { ...table, id: newId("dbt"), name: "secrets", chosen: false, schemaJson: "[]" },
    ]);
    const app = await createAppVia(ctx, owner, {});
    const config = (await call("GET", `/api/v1/apps/${app.id}/advanced-config`)).body.data;
    expect((await call("PUT", `/api/v1/apps/${app.id}/advanced-config`, { ...config, database: { enabled: true, databaseIds: [database.id] } })).status).toBe(
      200,
    );

    fake
      .replyToolCall({ id: "call_pg", name: "query_database", arguments: { sql: "SELECT customer, total FROM orders WHERE total > 10 ORDER BY customer" } })
      .reply("Ada and Lin.");
    const events = await ask(app.code, "Who spent more than 10?");
    const first = fake.requests[0]!.body as { tools: Array<{ function: { description: string } }> };
    expect(first.tools[0]!.function.description).toContain("dialect PostgreSQL");
    expect(first.tools[0]!.function.description).not.toContain("secrets");
    expect(events.find((event) => event.type === "tool-result")).toMatchObject({
      ok: true,
      table: {
        columns: ["customer", "total"],
        rows: [
          ["Ada", "12.50"],
          ["Lin", "99.00"],
        ],
      },
    });
    expect(textOf(events)).toBe("Ada and Lin.");

    for (const sql of [
      "SELECT customer FROM orders UNION SELECT token FROM secrets",
      "SELECT pg_sleep(100)",
      "DELETE FROM orders WHERE id = 1",
      "SELECT 1; DROP TABLE orders",
    ]) {
      fake.replyToolCall({ id: "call_x", name: "query_database", arguments: { sql } }).reply("No.");
      const refused = await ask(app.code, "try");
      expect(
        refused.find((event) => event.type === "tool-result"),
        sql,
      ).toMatchObject({ ok: false, content: expect.stringMatching(/^Refused: /) });
    }
    expect((await admin.query("SELECT count(*)::int AS n FROM orders")).rows[0]).toEqual({ n: 3 });
    const records = await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.appId, app.id));
    const statuses = records.flatMap((record) => (JSON.parse(record.databaseStatements ?? "[]") as Array<{ status: string }>).map((entry) => entry.status));
    expect(statuses.sort()).toEqual(["ran", "refused", "refused", "refused", "refused"]);
  });
});
