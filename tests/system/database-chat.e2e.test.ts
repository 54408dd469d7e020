import * as XLSX from "@e965/xlsx";
import Database from "better-sqlite3";
import path from "node:path";
import pg from "pg";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LlmFake, startOpenAiFake } from "../../packages/api/src/testing/fakes/llm-openai";
import { type DbServer, skipWithoutDbServer, startPostgres } from "../../packages/api/src/testing/db-servers";
import { launchBrowser } from "./browser";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

/**
 * Databases in chat (issue 18) in Chromium: a built-in database made from an XLSX through the
 * API, bound to an app; the console's chat preview asks, the OpenAI-compatible fake model
 * answers with a tool call carrying SQL, and the rows appear as a table. The same against a
 * real PostgreSQL.
 */
const ownerKey = "pk_database_chat_e2e_owner_key_0123456";

let fake: LlmFake;
let parley: ParleyProcess;
let browser: Browser;
let page: Page;
let spaceId = "";

const api = <T = any>(method: string, pathname: string, body?: unknown) => apiCall<T>(parley.url, ownerKey, method, pathname, body);
const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

beforeAll(async () => {
  fake = await startOpenAiFake();
  [parley, browser] = await Promise.all([
    startParley({
      PARLEY_BOOTSTRAP_API_KEY: ownerKey,
      OPENAI_API_KEY: "sk-database-chat",
      OPENAI_BASE_URL: fake.url,
      PARLEY_SEED_DEMO: "false",
      // The test's PostgreSQL listens on loopback.
      PARLEY_DATABASES_ALLOW_LOOPBACK: "true",
    }),
    launchBrowser(),
  ]);
  spaceId = (await api<{ spaceId: string }>("GET", "/api/v1/me")).spaceId;
  expect(spaceId).toMatch(/^spc_/);
  // Remote databases are a plan feature (spec §6).
  await api("PATCH", `/api/v1/instance/spaces/${spaceId}`, { memberGrade: "ENTERPRISE" });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(parley.signInUrl!);
  // The sign-in link is itself under /console/: wait until the code was exchanged and dropped from the address.
  await page.waitForURL(/\/console\/agents$/);
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await fake?.close();
});

async function appBoundTo(name: string, databaseId: string) {
  const app = await api<{ id: string; code: string }>("POST", "/api/v1/apps", {
    name,
    description: "Answers from the shop's data",
    openingIntroduction: "Ask me about our stock.",
    avatarUrl: "https://cdn.example.com/a.png",
    category: "productivity",
    settingsPrompt: "Answer from the database.",
  });
  const config = await api("GET", `/api/v1/apps/${app.id}/advanced-config`);
  await api("PUT", `/api/v1/apps/${app.id}/advanced-config`, { ...config, database: { enabled: true, databaseIds: [databaseId] } });
  return app;
}

async function askInPreview(appId: string, question: string) {
  await page.goto(`${parley.url}/console/agent?id=${appId}`);
  await byTestId("preview-input").fill(question);
  await byTestId("preview-send").click();
  const answer = byTestId("chat-message-assistant").last();
  await expect.poll(() => answer.getAttribute("data-status")).toBe("complete");
  return answer;
}

describe("databases in the console chat preview", () => {
  it("answers from a built-in database made from an XLSX, showing the rows as a table", async () => {
    const database = await api<{ id: string }>("POST", "/api/v1/databases", {
      type: "builtin",
      name: "Teas",
      permissions: { query: true, add: false, edit: false, delete: false },
    });
    const table = await api<{ id: string }>("POST", `/api/v1/databases/${database.id}/tables`, {
      name: "teas",
      description: "Teas we sell",
      fields: [
        { name: "name", type: "text", description: "Tea name" },
        { name: "price", type: "decimal", description: "Price in CNY" },
        { name: "stock", type: "integer" },
      ],
    });
    const sheet = XLSX.utils.aoa_to_sheet([
      ["Tea", "Price", "Stock"],
      ["Longjing", 68, 12],
      ["Tieguanyin", 45, 0],
      ["Pu'er", 120, 5],
    ]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, "Teas");
    const bytes = XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer;
    const form = new FormData();
    form.append("file", new File([new Uint8Array(bytes)], "teas.xlsx"));
    form.append("mapping", JSON.stringify({ Tea: "name", Price: "price", Stock: "stock" }));
    const imported = await api<{ importedRows: number }>("POST", `/api/v1/database-tables/${table.id}/imports`, form);
    expect(imported.importedRows).toBe(3);

    const app = await appBoundTo("Tea helper", database.id);
    fake
      .replyToolCall({ id: "call_1", name: "query_database", arguments: { sql: "SELECT name, price FROM teas WHERE stock > 0 ORDER BY price" } })
      .reply("Longjing (68) and Pu'er (120) are in stock.");
    const answer = await askInPreview(app.id, "Which teas are in stock?");
    const shown = answer.locator('[data-testid="chat-db-table"]');
    await expect.poll(() => shown.count()).toBe(1);
    const cells = await shown
      .locator("tbody tr.ant-table-row")
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent)));
    expect(cells.filter((row) => row.length > 0)).toEqual([
      ["Longjing", "68"],
      ["Pu'er", "120"],
    ]);
    expect(await shown.locator("thead").first().innerText()).toMatch(/name\s+price/);
    expect(await answer.innerText()).toContain("Longjing (68) and Pu'er (120) are in stock.");

    // The databases list names the app that answers from it.
    await page.goto(`${parley.url}/console/database`);
    await expect.poll(() => page.locator(`[data-testid="database-bound-${database.id}"]`).innerText()).toBe("Tea helper");
  });

  describe.skipIf(skipWithoutDbServer("postgresql"))("against PostgreSQL", () => {
    let server: DbServer;
    beforeAll(async () => {
      server = await startPostgres();
      const client = new pg.Client({ host: server.host, port: server.port, user: server.user, password: server.password, database: server.database });
      await client.connect();
      await client.query("CREATE TABLE orders (id serial PRIMARY KEY, customer text NOT NULL, total numeric(10,2))");
      await client.query("INSERT INTO orders (customer, total) VALUES ('Ada', 12.50), ('Lin', 99.00), ('Mei', 7.25)");
      await client.end();
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("answers from a chosen PostgreSQL table, showing the rows as a table", async () => {
      const database = await api<{ id: string }>("POST", "/api/v1/databases", {
        type: "remote",
        name: "Orders PG",
        dialect: "postgres",
        host: server.host,
        port: server.port,
        username: server.user,
        password: server.password,
        databaseName: server.database,
        permissions: { query: true, add: false, edit: false, delete: false },
      });
      // The online-table save is another part's route: the chosen table is written as it writes it.
      const store = new Database(path.join(parley.dataDir, "parley.db"));
      const now = new Date().toISOString();
      store
        .prepare(
          "INSERT INTO database_tables (id, database_id, space_id, name, description, chosen, schema_json, row_count, created_by, updated_at) VALUES (?, ?, ?, 'orders', 'Orders placed in the shop', 1, ?, 0, 'system-test', ?)",
        )
        .run(
          "dbt_e2e_orders",
          database.id,
          spaceId,
          JSON.stringify([
            { name: "customer", type: "text", nullable: false, description: "Who ordered" },
            { name: "total", type: "numeric(10,2)", nullable: true, description: "Order total in CNY" },
          ]),
          now,
        );
      store.close();

      const app = await appBoundTo("Orders helper", database.id);
      fake
        .replyToolCall({ id: "call_pg", name: "query_database", arguments: { sql: "SELECT customer, total FROM orders WHERE total > 10 ORDER BY customer" } })
        .reply("Ada and Lin spent more than 10.");
      const answer = await askInPreview(app.id, "Who spent more than 10?");
      const shown = answer.locator('[data-testid="chat-db-table"]');
      await expect.poll(() => shown.count()).toBe(1);
      const cells = await shown
        .locator("tbody tr.ant-table-row")
        .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent)));
      expect(cells.filter((row) => row.length > 0)).toEqual([
        ["Ada", "12.50"],
        ["Lin", "99.00"],
      ]);
      expect(await answer.innerText()).toContain("Ada and Lin spent more than 10.");
    });
  });
});
