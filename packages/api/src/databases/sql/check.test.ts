import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADVERSARIAL_CASES, CASE_MAX_ROWS, CASE_TABLES, type CheckCase, LEGIT_CASES } from "./cases";
import { type CheckInput, checkStatement, type SqlDialect } from "./check";
import { sqlCheckMessages } from "./messages";

const ALL = { query: true, add: true, edit: true, delete: true };
const DIALECTS: SqlDialect[] = ["sqlite", "mysql", "postgresql"];

function run(dialect: SqlDialect, testCase: CheckCase, extra: Partial<CheckInput> = {}) {
  return checkStatement({
    sql: testCase.sql,
    dialect,
    permissions: { ...ALL, ...testCase.permissions },
    tables: CASE_TABLES,
    maxRows: CASE_MAX_ROWS,
    allowUnfilteredWrites: testCase.allowUnfilteredWrites,
    ...extra,
  });
}

describe.each(DIALECTS)("statement checker (%s)", (dialect) => {
  it("has at least 40 legitimate and 40 adversarial statements", () => {
    expect(LEGIT_CASES[dialect].length).toBeGreaterThanOrEqual(40);
    expect(ADVERSARIAL_CASES[dialect].length).toBeGreaterThanOrEqual(40);
  });

  it.each(LEGIT_CASES[dialect].map((testCase) => [testCase.sql.slice(0, 90), testCase] as const))("accepts %s", (_, testCase) => {
    const result = run(dialect, testCase);
    expect(result.ok ? result.kind : `${result.code}: ${result.detail}`).toBe(testCase.expect);
    if (!result.ok) return;
    expect(result.tables.every((table) => (CASE_TABLES as readonly string[]).includes(table))).toBe(true);
    if (result.kind === "select") expect(result.sql).toMatch(/ LIMIT \d+( OFFSET \d+)?$/);
  });

  it.each(ADVERSARIAL_CASES[dialect].map((testCase) => [testCase.sql.slice(0, 90), testCase] as const))("refuses %s", (_, testCase) => {
    const result = run(dialect, testCase);
    expect(result.ok ? `accepted as ${result.kind}` : result.code).toBe(testCase.expect);
  });
});

describe("row cap", () => {
  const cases: [SqlDialect, string, string][] = [
    ["sqlite", "SELECT * FROM orders", "SELECT * FROM orders LIMIT 101"],
    ["sqlite", "SELECT * FROM orders LIMIT 5;  ", "SELECT * FROM orders LIMIT 5"],
    ["sqlite", "SELECT * FROM orders LIMIT 500 OFFSET 20", "SELECT * FROM orders LIMIT 101 OFFSET 20"],
    ["sqlite", "SELECT * FROM orders LIMIT 20, 500", "SELECT * FROM orders LIMIT 101 OFFSET 20"],
    ["mysql", "SELECT a FROM orders UNION SELECT b FROM customers LIMIT 3", "SELECT a FROM orders UNION SELECT b FROM customers LIMIT 3"],
    ["mysql", "SELECT * FROM (SELECT * FROM orders LIMIT 500) x", "SELECT * FROM (SELECT * FROM orders LIMIT 500) x LIMIT 101"],
    ["postgresql", "SELECT * FROM orders OFFSET 7", "SELECT * FROM orders LIMIT 101 OFFSET 7"],
    ["postgresql", "SELECT * FROM orders OFFSET 7 LIMIT 1000", "SELECT * FROM orders LIMIT 101 OFFSET 7"],
  ];
  it.each(cases)("%s: %s", (dialect, sql, expected) => {
    const result = checkStatement({ sql, dialect, permissions: ALL, tables: CASE_TABLES, maxRows: CASE_MAX_ROWS });
    expect(result.ok && result.sql).toBe(expected);
  });

  it("refuses a LIMIT that is not at the end of the outermost select", () => {
    const result = checkStatement({
      sql: "SELECT * FROM orders LIMIT 5 UNION SELECT * FROM customers",
      dialect: "mysql",
      permissions: ALL,
      tables: CASE_TABLES,
      maxRows: 10,
    });
    expect(result.ok ? "accepted" : result.code).not.toBe("accepted");
  });
});

describe("table names", () => {
  it("PostgreSQL folds unquoted names and keeps quoted ones", () => {
    const base = { dialect: "postgresql" as const, permissions: ALL, maxRows: 10 };
    expect(checkStatement({ ...base, sql: "SELECT * FROM Orders", tables: ["orders"] }).ok).toBe(true);
    expect(checkStatement({ ...base, sql: 'SELECT * FROM "Orders"', tables: ["orders"] }).ok).toBe(false);
    expect(checkStatement({ ...base, sql: 'SELECT * FROM "Orders"', tables: ["Orders"] }).ok).toBe(true);
    expect(checkStatement({ ...base, sql: "SELECT * FROM Orders", tables: ["Orders"] }).ok).toBe(false);
  });

  it("case folding is ASCII only, as in PostgreSQL and SQLite (Äpfel and äpfel are two tables)", () => {
    const base = { permissions: ALL, maxRows: 10, tables: ["äpfel"] };
    expect(checkStatement({ ...base, dialect: "postgresql", sql: "SELECT * FROM ÄPFEL" }).ok).toBe(false);
    expect(checkStatement({ ...base, dialect: "postgresql", sql: "SELECT * FROM äPFEL" }).ok).toBe(true);
    expect(checkStatement({ ...base, dialect: "sqlite", sql: 'SELECT * FROM "ÄPFEL"' }).ok).toBe(false);
    expect(checkStatement({ ...base, dialect: "sqlite", sql: 'SELECT * FROM "äPFEL"' }).ok).toBe(true);
  });

  it("a SQLite string used as a table name is the table it names", () => {
    const base = { dialect: "sqlite" as const, permissions: ALL, maxRows: 10, tables: CASE_TABLES };
    expect(checkStatement({ ...base, sql: "SELECT * FROM 'secret'" }).ok).toBe(false);
    expect(checkStatement({ ...base, sql: "SELECT * FROM orders WHERE id IN (SELECT id FROM 'secret')" }).ok).toBe(false);
  });

  it("MySQL matches names exactly and SQLite ignores case", () => {
    expect(checkStatement({ dialect: "mysql", sql: "SELECT * FROM Orders", tables: ["orders"], permissions: ALL, maxRows: 10 }).ok).toBe(false);
    expect(checkStatement({ dialect: "sqlite", sql: "SELECT * FROM Orders", tables: ["orders"], permissions: ALL, maxRows: 10 }).ok).toBe(true);
  });

  it("reports the tables a statement touches, not its CTEs", () => {
    const result = checkStatement({
      dialect: "sqlite",
      sql: "WITH big AS (SELECT * FROM orders) SELECT * FROM big JOIN customers ON customers.id = big.customer_id",
      tables: CASE_TABLES,
      permissions: ALL,
      maxRows: 10,
    });
    expect(result.ok && result.tables).toEqual(["customers", "orders"]);
  });
});

describe("messages", () => {
  it("every refusal carries the parameters its message names", () => {
    for (const dialect of DIALECTS) {
      for (const testCase of ADVERSARIAL_CASES[dialect]) {
        const result = run(dialect, testCase);
        if (result.ok) continue;
        for (const language of ["en", "zh-CN"] as const) {
          for (const [, name] of sqlCheckMessages[result.code][language].matchAll(/\{(\w+)\}/g)) {
            expect(result.params[name as string], `${result.code} ${name} (${testCase.sql})`).toBeTypeOf("string");
          }
        }
      }
    }
  });

  it("every refusal code has English and Chinese text", () => {
    const codes = new Set(DIALECTS.flatMap((dialect) => ADVERSARIAL_CASES[dialect].map((testCase) => testCase.expect)));
    for (const code of codes) {
      const message = sqlCheckMessages[code as keyof typeof sqlCheckMessages];
      expect(message?.en, code).toBeTruthy();
      expect(message?.["zh-CN"], code).toBeTruthy();
    }
  });
});

describe("accepted SQLite statements run on a real database", () => {
  let directory: string;
  let db: Database.Database;

  beforeAll(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "parley-sql-check-"));
    db = new Database(path.join(directory, "check.db"));
    db.exec(`
      CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, city TEXT, created_at TEXT);
      CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price REAL, category TEXT);
      CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, product_id INTEGER, quantity INTEGER, total REAL, status TEXT, created_at TEXT);
      CREATE TABLE secret (id INTEGER PRIMARY KEY, token TEXT);
      INSERT INTO secret VALUES (1, 'do not read');
    `);
    const customer = db.prepare("INSERT INTO customers VALUES (?, ?, ?, ?)");
    const product = db.prepare("INSERT INTO products VALUES (?, ?, ?, ?)");
    const order = db.prepare("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?)");
    const cities = ["Paris", "北京", "Oslo", null];
    for (let id = 1; id <= 8; id++) customer.run(id, `Customer ${id}`, cities[id % 4], `2026-0${(id % 9) + 1}-01`);
    for (let id = 1; id <= 5; id++) product.run(id, `Product ${id}`, id * 2.5, id % 2 ? "tea" : "cake");
    for (let id = 1; id <= 300; id++) {
      order.run(id, (id % 8) + 1, (id % 5) + 1, id % 4, id * 1.5, id % 3 ? "paid" : "new", `2026-0${(id % 9) + 1}-${String((id % 28) + 1).padStart(2, "0")}`);
    }
  });

  afterAll(() => {
    db.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it.each(LEGIT_CASES.sqlite.map((testCase) => [testCase.sql.slice(0, 90), testCase] as const))("runs %s", (_, testCase) => {
    const result = run("sqlite", testCase);
    if (!result.ok) throw new Error(`refused: ${result.code} ${result.detail}`);
    const statement = db.prepare(result.sql);
    db.exec("SAVEPOINT check_case");
    try {
      if (result.kind === "select") {
        const rows = statement.all();
        expect(rows.length).toBeLessThanOrEqual(CASE_MAX_ROWS + 1);
      } else {
        statement.run();
      }
    } finally {
      db.exec("ROLLBACK TO check_case");
      db.exec("RELEASE check_case");
    }
  });

  it("a read of every row comes back one over the cap, so the caller can tell it was cut", () => {
    const result = checkStatement({ sql: "SELECT * FROM orders", dialect: "sqlite", permissions: ALL, tables: CASE_TABLES, maxRows: 50 });
    if (!result.ok) throw new Error(result.detail);
    expect(db.prepare(result.sql).all()).toHaveLength(51);
  });

  it("Chinese table and column names run when quoted (the SQLite grammar refuses them unquoted)", () => {
    db.exec('CREATE TABLE "订单" ("编号" INTEGER PRIMARY KEY, "名称" TEXT); INSERT INTO "订单" VALUES (1, \'茶\'), (2, \'咖啡\')');
    const base = { dialect: "sqlite" as const, permissions: ALL, tables: ["订单"], maxRows: 10 };
    const read = checkStatement({ ...base, sql: 'SELECT "名称", COUNT(*) AS n FROM "订单" WHERE "名称" LIKE \'茶%\' GROUP BY "名称"' });
    if (!read.ok) throw new Error(read.detail);
    expect(db.prepare(read.sql).all()).toEqual([{ 名称: "茶", n: 1 }]);
    expect(checkStatement({ ...base, sql: "SELECT 名称 FROM 订单" }).ok).toBe(false);
  });

  it("no adversarial statement accepted; the secret table is untouched", () => {
    for (const testCase of ADVERSARIAL_CASES.sqlite) expect(run("sqlite", testCase).ok).toBe(false);
    expect(db.prepare("SELECT token FROM secret").all()).toEqual([{ token: "do not read" }]);
  });
});
