import net from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../apps/testing";
import { databaseTables } from "../db/schema/index";
import { upgradeSpaceForTest } from "../plans/testing";
import { type DbServer, skipWithoutDbServer, startMariaDb, startPostgres } from "../testing/db-servers";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { openRemoteDatabase } from "./remote/registry";
import { loopbackPolicy } from "./remote/suite";
import type { RemoteDatabase } from "./remote/types";

// Remote databases end to end over a listening server, against a real PostgreSQL and a real
// MariaDB on loopback (opened for these tests with PARLEY_DATABASES_ALLOW_LOOPBACK, as an
// operator would).
const engines = [
  {
    label: "PostgreSQL",
    dialect: "postgres" as const,
    kind: "postgresql" as const,
    skip: skipWithoutDbServer("postgresql"),
    start: startPostgres,
    setup: [
      "CREATE TABLE orders (id serial PRIMARY KEY, customer text NOT NULL, total numeric(10,2))",
      "COMMENT ON TABLE orders IS 'Orders placed in the shop'",
      "COMMENT ON COLUMN orders.total IS 'Order total in CNY'",
      "CREATE TABLE stock (sku text PRIMARY KEY, qty integer)",
      "CREATE TABLE doomed (id integer)",
    ],
    version: /^\d+\.\d+/,
    totalType: "numeric(10,2)",
  },
  {
    label: "MariaDB",
    dialect: "mysql" as const,
    kind: "mysql" as const,
    skip: skipWithoutDbServer("mariadb"),
    start: startMariaDb,
    setup: [
      "CREATE TABLE orders (id INT AUTO_INCREMENT PRIMARY KEY, customer VARCHAR(80) NOT NULL, total DECIMAL(10,2) COMMENT 'Order total in CNY') COMMENT = 'Orders placed in the shop'",
      "CREATE TABLE stock (sku VARCHAR(20) PRIMARY KEY, qty INT)",
      "CREATE TABLE doomed (id INT)",
    ],
    version: /MariaDB/,
    totalType: "decimal(10,2)",
  },
];

let ctx: TestContext;
let strict: TestContext;
let base: string;
let strictBase: string;
let alice: TestUser;
let bob: TestUser;
let viewer: TestUser;
let strictUser: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({ PARLEY_DATABASES_ALLOW_LOOPBACK: "true" });
  base = await ctx.listen();
  strict = await createTestContext();
  strictBase = await strict.listen();
  alice = await registerUser(ctx, "alice-remote@example.com");
  bob = await registerUser(ctx, "bob-remote@example.com");
  viewer = await registerUser(ctx, "viewer-remote@example.com");
  strictUser = await registerUser(strict, "strict-remote@example.com");
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  await upgradeSpaceForTest(ctx, bob.user.spaceId);
  await upgradeSpaceForTest(strict, strictUser.user.spaceId);
  await addMember(ctx, alice.user.spaceId, viewer, "viewer");
});
afterAll(async () => {
  await ctx?.close();
  await strict?.close();
});

async function call(user: TestUser, method: string, path: string, json?: unknown, init: { spaceId?: string; to?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${user.token}` };
  if (json !== undefined) headers["content-type"] = "application/json";
  if (init.spaceId) headers["x-parley-space"] = init.spaceId;
  return fetch(`${init.to ?? base}${path}`, { method, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
}

async function data<T = any>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (JSON.parse(text) as { data: T }).data;
}

async function refused(response: Response, status: number, field?: string) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = JSON.parse(text) as { success: boolean; code: number; message: string; data: { field?: string } | null };
  expect(body.success).toBe(false);
  if (field) expect(body.data?.field, text).toBe(field);
  return { ...body, text };
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe("remote databases over HTTP", () => {
  it("answers 400 naming the missing field of unsaved settings, before connecting", async () => {
    await refused(
      await call(alice, "POST", "/api/v1/databases/connection-test", { dialect: "mysql", port: 3306, username: "u", password: "p", databaseName: "d" }),
      400,
      "host",
    );
    await refused(
      await call(alice, "POST", "/api/v1/databases/connection-test", {
        dialect: "mysql",
        host: "db.example.com",
        port: 3306,
        username: "u",
        databaseName: "d",
      }),
      400,
      "password",
    );
    await refused(await call(alice, "POST", "/api/v1/databases/connection-test", { dialect: "oracle" }), 400);
  });

  it("refuses a metadata address whatever the policy, naming host", async () => {
    const body = await refused(
      await call(alice, "POST", "/api/v1/databases/connection-test", {
        dialect: "mysql",
        host: "169.254.169.254",
        port: 3306,
        username: "u",
        password: "secret-Pw-1",
        databaseName: "d",
      }),
      400,
      "host",
    );
    expect(body.text).not.toContain("secret-Pw-1");
  });
});

for (const engine of engines) {
  describe.skipIf(engine.skip)(`remote databases over HTTP: ${engine.label}`, () => {
    let server: DbServer;
    let admin: RemoteDatabase;
    let databaseId: string;
    const settings = () => ({
      dialect: engine.dialect,
      host: server.host,
      port: server.port,
      username: server.user,
      password: server.password,
      databaseName: server.database,
    });

    beforeAll(async () => {
      server = await engine.start();
      admin = openRemoteDatabase(
        { kind: engine.kind, host: server.host, port: server.port, user: server.user, password: server.password, database: server.database },
        { policy: loopbackPolicy },
      );
      for (const statement of engine.setup) await admin.execute(statement, { timeoutMs: 10_000 });
    });
    afterAll(async () => {
      await admin?.close();
      await server?.stop();
    });

    it("tests unsaved settings: ok with latency and version; wrong password, closed port and loopback by default are clear errors", async () => {
      const tested = await data(await call(alice, "POST", "/api/v1/databases/connection-test", settings()));
      expect(tested.ok).toBe(true);
      expect(Number.isInteger(tested.latencyMs)).toBe(true);
      expect(tested.serverVersion).toMatch(engine.version);

      const wrong = "Wrong-Pass-7731";
      const denied = await refused(await call(alice, "POST", "/api/v1/databases/connection-test", { ...settings(), password: wrong }), 400, "password");
      expect(denied.message).toContain(server.user);
      expect(denied.text).not.toContain(wrong);
      expect(denied.text).not.toContain(server.password);

      const port = await closedPort();
      const down = await refused(await call(alice, "POST", "/api/v1/databases/connection-test", { ...settings(), port }), 502);
      expect(down.code).toBe(502);
      expect(down.message).toContain(`:${port}`);
      expect(down.text).not.toContain(server.password);

      const unknown = await refused(
        await call(alice, "POST", "/api/v1/databases/connection-test", { ...settings(), databaseName: "no_such_db" }),
        400,
        "databaseName",
      );
      expect(unknown.message).toContain("no_such_db");

      // An instance with the default policy refuses loopback before connecting.
      const loopback = await refused(await call(strictUser, "POST", "/api/v1/databases/connection-test", settings(), { to: strictBase }), 400, "host");
      expect(loopback.text).not.toContain(server.password);

      // In Chinese for a Chinese reader.
      const zh = await fetch(`${base}/api/v1/databases/connection-test`, {
        method: "POST",
        headers: { authorization: `Bearer ${alice.token}`, "content-type": "application/json", "accept-language": "zh-CN" },
        body: JSON.stringify({ ...settings(), password: wrong }),
      });
      expect(((await zh.json()) as { message: string }).message).toContain("数据库拒绝了用户");
    });

    it("tests a saved database, with a replacement password; saving settings does not connect", async () => {
      // Saving works offline: a wrong password is stored as given, the test says it is wrong.
      const created = await data(
        await call(alice, "POST", "/api/v1/databases", { type: "remote", name: `Shop ${engine.label}`, ...settings(), password: "not-it-yet" }),
        201,
      );
      databaseId = created.id;
      await refused(await call(alice, "POST", "/api/v1/databases/connection-test", { databaseId }), 400, "password");
      expect((await data(await call(alice, "POST", "/api/v1/databases/connection-test", { databaseId, password: server.password }))).ok).toBe(true);
      await data(await call(alice, "PATCH", `/api/v1/databases/${databaseId}`, { password: server.password }));
      expect((await data(await call(alice, "POST", "/api/v1/databases/connection-test", { databaseId }))).ok).toBe(true);
    });

    it("lists online tables with comments and estimates, saves the chosen ones with descriptions, and a re-save removes the unchosen", async () => {
      const listed = await data<any[]>(await call(alice, "GET", `/api/v1/databases/${databaseId}/online-tables`));
      expect(listed.map((table) => table.name)).toEqual(["doomed", "orders", "stock"]);
      const orders = listed.find((table) => table.name === "orders")!;
      expect(orders).toMatchObject({ comment: "Orders placed in the shop", chosen: false, tableId: null, description: "", primaryKey: ["id"] });
      expect(orders.columns.map((column: { name: string }) => column.name)).toEqual(["id", "customer", "total"]);
      expect(orders.columns[2]).toEqual({ name: "total", type: engine.totalType, nullable: true, comment: "Order total in CNY", description: "" });
      expect(orders.rowsEstimate === null || Number.isInteger(orders.rowsEstimate)).toBe(true);

      const saved = await data<any[]>(
        await call(alice, "POST", `/api/v1/databases/${databaseId}/online-tables`, {
          tables: [
            { name: "orders", description: "Every order with its customer", columns: [{ name: "customer", description: "Who ordered" }] },
            { name: "stock" },
          ],
        }),
      );
      const savedOrders = saved.find((table) => table.name === "orders")!;
      expect(savedOrders).toMatchObject({ chosen: true, description: "Every order with its customer" });
      expect(savedOrders.tableId).toMatch(/^dbt_/);
      expect(savedOrders.columns.find((column: { name: string }) => column.name === "customer").description).toBe("Who ordered");
      expect(saved.find((table) => table.name === "doomed")!.chosen).toBe(false);

      const rows = await ctx.deps.db.select().from(databaseTables).where(eq(databaseTables.databaseId, databaseId));
      expect(rows.map((row) => row.name).sort()).toEqual(["orders", "stock"]);
      const ordersRow = rows.find((row) => row.name === "orders")!;
      expect(ordersRow.chosen).toBe(true);
      expect(JSON.parse(ordersRow.schemaJson)).toEqual([
        { name: "id", type: expect.any(String), nullable: false, description: "" },
        { name: "customer", type: expect.any(String), nullable: false, description: "Who ordered" },
        // No description given: the server's comment is what the model reads.
        { name: "total", type: engine.totalType, nullable: true, description: "Order total in CNY" },
      ]);
      // The tables call shows the saved schema, as the chat tool reads it.
      const tables = await data<any[]>(await call(alice, "GET", `/api/v1/databases/${databaseId}/tables`));
      expect(tables.find((table) => table.name === "orders").remoteSchema[1]).toEqual({
        name: "customer",
        type: expect.any(String),
        nullable: false,
        description: "Who ordered",
      });

      // Re-saving keeps the table's id and removes stock.
      const again = await data<any[]>(
        await call(alice, "POST", `/api/v1/databases/${databaseId}/online-tables`, { tables: [{ name: "orders", description: "Orders, edited" }] }),
      );
      expect(again.find((table) => table.name === "orders")).toMatchObject({ tableId: savedOrders.tableId, description: "Orders, edited" });
      const after = await ctx.deps.db.select().from(databaseTables).where(eq(databaseTables.databaseId, databaseId));
      expect(after.map((row) => row.name)).toEqual(["orders"]);
    });

    it("refuses a table that no longer exists or a column it lacks, by name, changing nothing", async () => {
      await admin.execute("DROP TABLE doomed", { timeoutMs: 10_000 });
      const before = await ctx.deps.db.select().from(databaseTables).where(eq(databaseTables.databaseId, databaseId));
      const gone = await refused(
        await call(alice, "POST", `/api/v1/databases/${databaseId}/online-tables`, { tables: [{ name: "stock" }, { name: "doomed" }] }),
        400,
        "tables.1.name",
      );
      expect(gone.message).toContain('"doomed"');
      await refused(
        await call(alice, "POST", `/api/v1/databases/${databaseId}/online-tables`, {
          tables: [{ name: "stock", columns: [{ name: "colour", description: "x" }] }],
        }),
        400,
        "tables.0.columns.0.name",
      );
      await refused(
        await call(alice, "POST", `/api/v1/databases/${databaseId}/online-tables`, { tables: [{ name: "stock" }, { name: "stock" }] }),
        400,
        "tables.1.name",
      );
      expect(await ctx.deps.db.select().from(databaseTables).where(eq(databaseTables.databaseId, databaseId))).toEqual(before);
    });

    it("keeps it to the space and the roles: another space gets 404, a viewer reads but cannot save or test", async () => {
      await refused(await call(bob, "GET", `/api/v1/databases/${databaseId}/online-tables`), 404);
      await refused(await call(bob, "POST", `/api/v1/databases/${databaseId}/online-tables`, { tables: [] }), 404);
      await refused(await call(bob, "POST", "/api/v1/databases/connection-test", { databaseId }), 404);

      const seen = await data<any[]>(await call(viewer, "GET", `/api/v1/databases/${databaseId}/online-tables`, undefined, { spaceId: alice.user.spaceId }));
      expect(seen.find((table) => table.name === "orders").chosen).toBe(true);
      await refused(await call(viewer, "POST", `/api/v1/databases/${databaseId}/online-tables`, { tables: [] }, { spaceId: alice.user.spaceId }), 403);
      await refused(await call(viewer, "POST", "/api/v1/databases/connection-test", { databaseId }, { spaceId: alice.user.spaceId }), 403);
      expect((await ctx.deps.db.select().from(databaseTables).where(eq(databaseTables.databaseId, databaseId))).length).toBe(1);

      // Online tables are for remote databases only.
      const builtin = await data(await call(alice, "POST", "/api/v1/databases", { type: "builtin", name: `Local ${engine.label}` }), 201);
      await refused(await call(alice, "GET", `/api/v1/databases/${builtin.id}/online-tables`), 400, "databaseId");
    });

    it("keeps one pool per database, closed when its settings change or it is deleted", async () => {
      const registry = ctx.deps.remoteDatabases;
      await data(await call(alice, "GET", `/api/v1/databases/${databaseId}/online-tables`));
      const withPool = registry.size;
      await data(await call(alice, "PATCH", `/api/v1/databases/${databaseId}`, { port: server.port }));
      expect(registry.size).toBe(withPool - 1);
      const sizeBefore = registry.size;
      await data(await call(alice, "GET", `/api/v1/databases/${databaseId}/online-tables`));
      expect(registry.size).toBe(sizeBefore + 1);
      await data(await call(alice, "DELETE", `/api/v1/databases/${databaseId}`));
      expect(registry.size).toBe(sizeBefore);
      expect(await ctx.deps.db.select().from(databaseTables).where(eq(databaseTables.databaseId, databaseId))).toEqual([]);
    });
  });
}
