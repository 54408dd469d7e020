import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import type { DbServer } from "../../testing/db-servers";
import { RemoteDatabaseError } from "./errors";
import { openRemoteDatabase, RemoteDatabaseRegistry, remoteDatabasePolicy } from "./registry";
import type { RemoteConnection, RemoteDatabase, RemoteKind, RemotePoolLimits } from "./types";

/** What differs between the engines in the shared remote-database tests. */
export interface EngineSpec {
  kind: RemoteKind;
  label: string;
  start: () => Promise<DbServer>;
  /** Statements creating `orders` (with table and column comments) and `stock` (two-column key), with three orders. */
  setup: string[];
  totalType: string;
  tenMillionRows: string;
  /** A statement that sleeps this many seconds, starting `SELECT <sleep>(n) AS probe` so that the process list shows it. */
  sleep: (seconds: number) => string;
  /** Statements running `sleep(0.3)` right now, seen from the server's superuser. */
  activeProbes: (server: DbServer) => Promise<number>;
}

/** Test-only policy: loopback opened explicitly, as an operator would with PARLEY_DATABASES_ALLOW_LOOPBACK=true. */
export const loopbackPolicy = remoteDatabasePolicy(loadConfig({ PARLEY_DATABASES_ALLOW_LOOPBACK: "true" }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function failure(work: Promise<unknown>): Promise<RemoteDatabaseError> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(RemoteDatabaseError);
    return error as RemoteDatabaseError;
  }
  throw new Error("expected the call to fail");
}

/** The contract every remote engine keeps, run against a real server. */
export function describeRemoteDatabase(spec: EngineSpec, skip: boolean): void {
  describe.skipIf(skip)(`${spec.label} remote database`, () => {
    let server: DbServer;
    let db: RemoteDatabase;
    const opened: RemoteDatabase[] = [];
    const connection = (over: Partial<RemoteConnection> = {}): RemoteConnection => ({
      kind: spec.kind,
      host: server.host,
      port: server.port,
      user: server.user,
      password: server.password,
      database: server.database,
      ...over,
    });
    const open = (over: Partial<RemoteConnection> = {}, limits?: Partial<RemotePoolLimits>, policy = loopbackPolicy) => {
      const database = openRemoteDatabase(connection(over), { policy, ...(limits ? { limits } : {}) });
      opened.push(database);
      return database;
    };

    beforeAll(async () => {
      server = await spec.start();
      console.info(`${spec.label} started in ${server.startupMs} ms`);
      db = open();
      for (const statement of spec.setup) await db.execute(statement, { timeoutMs: 5_000 });
    });

    afterAll(async () => {
      await Promise.allSettled(opened.map((database) => database.close()));
      await server?.stop();
    });

    it("tests a connection: ok, wrong password, closed port, unknown database", async () => {
      await db.test();

      const wrong = "not-the-password-Zq9";
      const denied = await failure(open({ password: wrong }).test());
      expect(denied.code).toBe("auth_failed");
      expect(denied.params).toEqual({ user: server.user });

      const closedPort = await freePort();
      const down = await failure(open({ port: closedPort }).test());
      expect(down.code).toBe("unreachable");
      expect(down.message).toContain(`127.0.0.1:${closedPort}`);

      const missing = await failure(open({ database: "no_such_db" }).test());
      expect(missing.code).toBe("unknown_database");
      expect(missing.params.database).toBe("no_such_db");

      for (const error of [denied, down, missing]) {
        const everything = `${error.message} ${JSON.stringify(error)} ${String(error.stack)}`;
        expect(everything).not.toContain(wrong);
        expect(everything).not.toContain(server.password);
      }
    });

    it("refuses loopback by default and metadata addresses always, before connecting", async () => {
      const byDefault = remoteDatabasePolicy(loadConfig({}));
      const refused = await failure(open({}, undefined, byDefault).test());
      expect(refused.code).toBe("refused_address");
      expect((await failure(open({ host: "localhost" }, undefined, byDefault).test())).code).toBe("refused_address");
      const privateOpen = remoteDatabasePolicy(loadConfig({ PARLEY_DATABASES_ALLOW_PRIVATE_NETWORK: "true", PARLEY_DATABASES_ALLOW_LOOPBACK: "true" }));
      for (const host of ["169.254.169.254", "fd00:ec2::254", "::ffff:169.254.169.254", "metadata.google.internal"]) {
        expect((await failure(open({ host }, undefined, privateOpen).test())).code).toBe("refused_address");
      }
      expect((await failure(open({ host: "10.1.2.3" }, undefined, byDefault).test())).code).toBe("refused_address");
      // With the private network opened the address is tried: it fails on the wire, not by the rules.
      const privateOnly = remoteDatabasePolicy(loadConfig({ PARLEY_DATABASES_ALLOW_PRIVATE_NETWORK: "true" }));
      const tried = await failure(open({ host: "10.255.255.1" }, { connectTimeoutMs: 300 }, privateOnly).test());
      expect(tried.code).toBe("unreachable");
      expect((await failure(open({}, undefined, privateOnly).test())).code).toBe("refused_address");
    });

    it("connects to the address the checked resolution gave, never resolving the name again", async () => {
      const named = (answers: string[]) =>
        openRemoteDatabase(connection({ host: "db.parley.test" }), {
          policy: loopbackPolicy,
          resolver: async () => answers.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) })),
        });
      const resolved = named(["127.0.0.1"]);
      opened.push(resolved);
      // The system resolver knows no .test name: reaching the server proves the checked address was used.
      await resolved.test();
      const rebound = named(["127.0.0.1", "169.254.169.254"]);
      opened.push(rebound);
      const refused = await failure(rebound.test());
      expect(refused.code).toBe("refused_address");
      expect(refused.message).toContain("db.parley.test");
    });

    it("lists tables and describes them with their comments and keys", async () => {
      const tables = await db.listTables();
      expect(tables.map((table) => table.name)).toEqual(["orders", "stock"]);
      expect(tables[0]!.comment).toBe("Orders placed in the shop");

      const [orders, stock] = await db.describe(["orders", "stock", "not_a_table"]);
      expect(orders!.comment).toBe("Orders placed in the shop");
      expect(orders!.primaryKey).toEqual(["id"]);
      expect(orders!.columns.map((column) => column.name)).toEqual(["id", "customer", "total", "placed_at"]);
      expect(orders!.columns[1]).toMatchObject({ name: "customer", nullable: false });
      expect(orders!.columns[2]).toEqual({ name: "total", type: spec.totalType, nullable: true, comment: "Order total in CNY, tax included" });
      expect(stock!.primaryKey).toEqual(["sku", "warehouse"]);
      expect(stock!.comment).toBeUndefined();
    });

    it("answers a read with columns and JSON-safe rows", async () => {
      const result = await db.query("SELECT customer, total FROM orders ORDER BY id", { maxRows: 10, timeoutMs: 5_000 });
      expect(result).toEqual({
        columns: ["customer", "total"],
        rows: [
          ["Ada", "12.50"],
          ["Lin", "99.00"],
          ["Mei", "7.25"],
        ],
        truncated: false,
      });
      const capped = await db.query("SELECT customer FROM orders ORDER BY id", { maxRows: 2, timeoutMs: 5_000 });
      expect(capped).toEqual({ columns: ["customer"], rows: [["Ada"], ["Lin"]], truncated: true });
    });

    it("stops a 10-million-row result at maxRows, quickly and in little memory", async () => {
      const heapBefore = process.memoryUsage().heapUsed;
      const began = Date.now();
      const result = await db.query(spec.tenMillionRows, { maxRows: 500, timeoutMs: 20_000 });
      const elapsed = Date.now() - began;
      expect(result.truncated).toBe(true);
      expect(result.rows).toHaveLength(500);
      expect(String(result.rows[0]![0])).toBe("1");
      expect(elapsed).toBeLessThan(3_000);
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);

      const strict = await failure(db.query(spec.tenMillionRows, { maxRows: 500, timeoutMs: 20_000, failWhenTruncated: true }));
      expect(strict.code).toBe("too_many_rows");
      expect(strict.message).toContain("500");
      // The pool still answers after a connection was cut short.
      expect((await db.query("SELECT COUNT(*) AS n FROM orders", { maxRows: 1, timeoutMs: 5_000 })).rows).toEqual([["3"]]);
    });

    it("ends a slow statement at the timeout with the timeout code", async () => {
      const began = Date.now();
      const slow = await failure(db.query(spec.sleep(5), { maxRows: 10, timeoutMs: 500 }));
      expect(slow.code).toBe("timeout");
      expect(slow.messageId).toBe("remote_db_timeout");
      expect(Date.now() - began).toBeLessThan(2_500);
      await db.test();
    });

    it("refuses writes in a read, and writes through execute in their own transaction", async () => {
      for (const write of ["INSERT INTO orders (customer, total) VALUES ('Eve', 1.00)", "UPDATE orders SET total = 0", "DELETE FROM orders"]) {
        expect((await failure(db.query(write, { maxRows: 10, timeoutMs: 5_000 }))).code).toBe("read_only");
      }
      const count = async () => (await db.query("SELECT customer FROM orders", { maxRows: 100, timeoutMs: 5_000 })).rows.length;
      expect(await count()).toBe(3);

      expect(await db.execute("INSERT INTO orders (customer, total) VALUES ('Eve', 1.00)", { timeoutMs: 5_000 })).toEqual({ affectedRows: 1 });
      expect(await db.execute("UPDATE orders SET total = total + 1 WHERE customer IN ('Eve', 'Ada')", { timeoutMs: 5_000 })).toEqual({ affectedRows: 2 });
      expect(await count()).toBe(4);
      const broken = await failure(db.execute("INSERT INTO orders (customer, total) VALUES (NULL, 1.00)", { timeoutMs: 5_000 }));
      expect(broken.code).toBe("query_failed");
      expect(await db.execute("DELETE FROM orders WHERE customer = 'Eve'", { timeoutMs: 5_000 })).toEqual({ affectedRows: 1 });
      expect(await count()).toBe(3);
    });

    it("keeps a pool within its connection limit and says when it is busy", async () => {
      const small = open({}, { maxConnections: 2 });
      let peak = 0;
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          peak = Math.max(peak, await spec.activeProbes(server));
          await new Promise((resolve) => setTimeout(resolve, 30));
        }
      })();
      const began = Date.now();
      const results = await Promise.all(Array.from({ length: 6 }, () => small.query(spec.sleep(0.3), { maxRows: 1, timeoutMs: 5_000 })));
      const elapsed = Date.now() - began;
      watching = false;
      await watcher;
      expect(results).toHaveLength(6);
      expect(peak).toBe(2);
      // Six 0.3 s sleeps two at a time take at least three rounds.
      expect(elapsed).toBeGreaterThanOrEqual(850);

      const single = open({}, { maxConnections: 1, connectTimeoutMs: 300 });
      const holding = single.query(spec.sleep(1.5), { maxRows: 1, timeoutMs: 5_000 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const busy = await failure(single.query("SELECT 1", { maxRows: 1, timeoutMs: 5_000 }));
      expect(busy.code).toBe("busy");
      expect(busy.params).toEqual({ max: 1 });
      await holding;
    });

    it("keeps one pool per database and settings version, and closes the old one", async () => {
      const registry = new RemoteDatabaseRegistry({ policy: loopbackPolicy });
      const first = registry.get("db1", 1, connection());
      expect(registry.get("db1", 1, connection())).toBe(first);
      await first.test();
      const second = registry.get("db1", 2, connection());
      expect(second).not.toBe(first);
      expect((await failure(first.test())).code).toBe("closed");
      await second.test();
      await registry.closeAll();
      expect(registry.size).toBe(0);
      expect((await failure(second.test())).code).toBe("closed");
    });
  });
}
