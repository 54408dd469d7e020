import * as XLSX from "@e965/xlsx";
import { eq } from "drizzle-orm";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createAppVia } from "../apps/testing";
import { databases, databaseTables } from "../db/schema/index";
import { upgradeSpaceForTest } from "../plans/testing";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { IMPORT_MAX_BYTES } from "./service/files";
import { runBuiltinStatement } from "./service/statement";
import { diskBuiltinStore } from "./service/store";

// Databases (issue 18) over a real listening server and real SQLite files: Parley's own and each
// built-in database's.
let ctx: TestContext;
let base: string;
let alice: TestUser;
let bob: TestUser;
let viewer: TestUser;
let free: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  base = await ctx.listen();
  alice = await registerUser(ctx, "alice-db@example.com");
  bob = await registerUser(ctx, "bob-db@example.com");
  viewer = await registerUser(ctx, "viewer-db@example.com");
  free = await registerUser(ctx, "free-db@example.com");
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  await upgradeSpaceForTest(ctx, bob.user.spaceId);
  await addMember(ctx, alice.user.spaceId, viewer, "viewer");
});
afterAll(async () => {
  await ctx.close();
});

async function call(user: TestUser, method: string, path: string, json?: unknown, init: { spaceId?: string; body?: FormData; language?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${user.token}` };
  if (json !== undefined) headers["content-type"] = "application/json";
  if (init.spaceId) headers["x-parley-space"] = init.spaceId;
  if (init.language) headers["accept-language"] = init.language;
  return fetch(`${base}${path}`, { method, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : init.body ? { body: init.body } : {}) });
}

async function data<T = any>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (JSON.parse(text) as { data: T }).data;
}

async function refused(response: Response, status: number, field?: string) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = JSON.parse(text) as { success: boolean; code: number; message: string; data: { field?: string; feature?: string } | null };
  expect(body.success).toBe(false);
  if (field) expect(body.data?.field, text).toBe(field);
  return body;
}

function form(fileName: string, bytes: Uint8Array | string, mapping?: Record<string, string>) {
  const body = new FormData();
  body.append("file", new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], fileName));
  if (mapping) body.append("mapping", JSON.stringify(mapping));
  return body;
}

const productFields = [
  { name: "name", type: "text", description: "Product name" },
  { name: "price", type: "decimal", description: "Price in CNY" },
  { name: "stock", type: "integer" },
  { name: "added", type: "datetime" },
  { name: "notes", type: "longtext" },
];

async function builtinTable(user: TestUser, name: string) {
  const database = await data(
    await call(user, "POST", "/api/v1/databases", { type: "builtin", name, permissions: { query: true, add: true, edit: false, delete: false } }),
    201,
  );
  const table = await data(
    await call(user, "POST", `/api/v1/databases/${database.id}/tables`, { name: "products", description: "What we sell", fields: productFields }),
    201,
  );
  return { database, table };
}

async function rowsOf(user: TestUser, tableId: string, query = "") {
  return data(await call(user, "GET", `/api/v1/database-tables/${tableId}/rows?limit=200${query}`));
}

describe("databases", () => {
  it("creates, lists, edits and deletes a built-in database, each in a file of its own", async () => {
    const { database, table } = await builtinTable(alice, "Shop");
    expect(database).toMatchObject({ type: "builtin", name: "Shop", permissions: { query: true, add: true }, remote: null, tableCount: 0 });
    expect(table.fields.map((field: { name: string; type: string }) => `${field.name}:${field.type}`)).toEqual([
      "name:text",
      "price:decimal",
      "stock:integer",
      "added:datetime",
      "notes:longtext",
    ]);
    const file = diskBuiltinStore(ctx.dataDir).locate(database.id);
    expect(file.startsWith(`${ctx.dataDir}/databases/`)).toBe(true);
    expect(fs.existsSync(file)).toBe(true);
    const list = await data(await call(alice, "GET", "/api/v1/databases"));
    expect(list.map((item: { id: string }) => item.id)).toContain(database.id);
    expect(list.find((item: { id: string }) => item.id === database.id).tableCount).toBe(1);

    const edited = await data(
      await call(alice, "PATCH", `/api/v1/databases/${database.id}`, {
        description: "Shop data",
        permissions: { query: true, add: true, edit: true, delete: true },
      }),
    );
    expect(edited).toMatchObject({ description: "Shop data", permissions: { edit: true, delete: true } });
    await refused(
      await call(alice, "PATCH", `/api/v1/databases/${database.id}`, { permissions: { query: false, add: false, edit: false, delete: false } }),
      400,
      "permissions",
    );
    await refused(await call(alice, "POST", "/api/v1/databases", { type: "builtin", name: "Shop" }), 409);
    await refused(
      await call(alice, "POST", "/api/v1/databases", { type: "builtin", name: "None", permissions: { query: false, add: false, edit: false, delete: false } }),
      400,
      "permissions",
    );
    await refused(await call(alice, "POST", "/api/v1/databases", { type: "builtin", name: "  " }), 400, "name");

    await data(await call(alice, "DELETE", `/api/v1/databases/${database.id}`));
    expect(fs.existsSync(file)).toBe(false);
    await refused(await call(alice, "GET", `/api/v1/databases/${database.id}`), 404);
    await refused(await call(alice, "GET", `/api/v1/database-tables/${table.id}`), 404);
  });

  it("keeps a remote database's password sealed and never answers it; a plan without customer service is refused", async () => {
    const remote = {
      type: "remote",
      name: "Warehouse",
      dialect: "postgres",
      host: "db.example.com",
      port: 5432,
      username: "reader",
      password: "pg-secret-pass-7788",
      databaseName: "stock",
    };
    await refused(await call(alice, "POST", "/api/v1/databases", { ...remote, password: undefined }), 400, "password");
    await refused(await call(alice, "POST", "/api/v1/databases", { ...remote, host: "" }), 400, "host");
    const created = await data(await call(alice, "POST", "/api/v1/databases", remote), 201);
    expect(created.remote).toEqual({ dialect: "postgres", host: "db.example.com", port: 5432, username: "reader", databaseName: "stock", passwordSet: true });
    expect(JSON.stringify(created)).not.toContain("pg-secret-pass-7788");
    const row = await ctx.deps.db.select().from(databases).where(eq(databases.id, created.id)).get();
    expect(row!.password.startsWith("sealed:")).toBe(true);
    expect(row!.host.startsWith("sealed:")).toBe(true);
    expect(JSON.stringify(row)).not.toContain("pg-secret-pass-7788");
    // An edit without a password keeps the stored one.
    const edited = await data(await call(alice, "PATCH", `/api/v1/databases/${created.id}`, { port: 6432 }));
    expect(edited.remote).toMatchObject({ port: 6432, passwordSet: true });
    expect((await ctx.deps.db.select().from(databases).where(eq(databases.id, created.id)).get())!.password).toBe(row!.password);
    // Built-in operations refuse a remote database.
    await refused(await call(alice, "POST", `/api/v1/databases/${created.id}/tables`, { name: "t", fields: [{ name: "a", type: "text" }] }), 400);
    const body = await refused(await call(free, "POST", "/api/v1/databases", remote), 402);
    expect(body).toMatchObject({ code: 701, data: { feature: "remoteDatabase" } });
    expect(body.message).toMatch(/Remote database/);
    expect(await ctx.deps.db.select().from(databases).where(eq(databases.spaceId, free.user.spaceId))).toEqual([]);
  });

  it("checks table and field names: duplicates, bad names and taken names are clear errors that make nothing", async () => {
    const database = await data(await call(alice, "POST", "/api/v1/databases", { type: "builtin", name: "Names" }), 201);
    const dup = await refused(
      await call(alice, "POST", `/api/v1/databases/${database.id}/tables`, {
        name: "t",
        fields: [
          { name: "city", type: "text" },
          { name: "City", type: "integer" },
        ],
      }),
      400,
      "fields.1.name",
    );
    expect(dup.message).toContain('"City"');
    await refused(await call(alice, "POST", `/api/v1/databases/${database.id}/tables`, { name: "1st", fields: [{ name: "a", type: "text" }] }), 400, "name");
    await refused(
      await call(alice, "POST", `/api/v1/databases/${database.id}/tables`, { name: "t", fields: [{ name: 'a"; DROP', type: "text" }] }),
      400,
      "fields.0.name",
    );
    await refused(
      await call(alice, "POST", `/api/v1/databases/${database.id}/tables`, { name: "t", fields: [{ name: "rowid", type: "text" }] }),
      400,
      "fields.0.name",
    );
    await refused(await call(alice, "POST", `/api/v1/databases/${database.id}/tables`, { name: "t", fields: [{ name: "a", type: "blob" }] }), 400);
    expect(await data(await call(alice, "GET", `/api/v1/databases/${database.id}/tables`))).toEqual([]);
    const chinese = await data(
      await call(alice, "POST", `/api/v1/databases/${database.id}/tables`, { name: "订单", fields: [{ name: "金额", type: "decimal" }] }),
      201,
    );
    await refused(await call(alice, "POST", `/api/v1/databases/${database.id}/tables`, { name: "订单", fields: [{ name: "a", type: "text" }] }), 409);
    await refused(await call(alice, "POST", `/api/v1/database-tables/${chinese.id}/fields`, { name: "金额", type: "text" }), 409);
    const zh = await refused(
      await call(
        alice,
        "POST",
        `/api/v1/databases/${database.id}/tables`,
        {
          name: "t2",
          fields: [
            { name: "x", type: "text" },
            { name: "x", type: "text" },
          ],
        },
        { language: "zh-CN" },
      ),
      400,
    );
    expect(zh.message).toContain("重复");
  });

  it("adds, edits, pages, filters and deletes rows with values checked against their field types", async () => {
    const { table } = await builtinTable(alice, "Rows");
    const path = `/api/v1/database-tables/${table.id}/rows`;
    const tea = await data(
      await call(alice, "POST", path, { values: { name: "Tea", price: "3.50", stock: "12", added: "2024-05-01 13:45", notes: "x".repeat(5000) } }),
      201,
    );
    expect(tea.values).toMatchObject({ name: "Tea", price: 3.5, stock: 12, added: "2024-05-01 13:45:00" });
    expect(tea.values.notes).toHaveLength(5000);
    await refused(await call(alice, "POST", path, { values: { stock: "twelve" } }), 400, "stock");
    await refused(await call(alice, "POST", path, { values: { stock: 1.5 } }), 400, "stock");
    await refused(await call(alice, "POST", path, { values: { price: "3,5" } }), 400, "price");
    await refused(await call(alice, "POST", path, { values: { added: "2024-02-30" } }), 400, "added");
    const long = await refused(await call(alice, "POST", path, { values: { name: "y".repeat(1001) } }), 400, "name");
    expect(long.message).toMatch(/long text/);
    await refused(await call(alice, "POST", path, { values: { colour: "red" } }), 400, "colour");
    await refused(await call(alice, "POST", path, { values: {} }), 400);
    expect((await rowsOf(alice, table.id)).items).toHaveLength(1);

    for (let index = 0; index < 45; index += 1)
      await data(await call(alice, "POST", path, { values: { name: `Item ${index}`, price: index, stock: index % 5 } }), 201);
    const first = await data(await call(alice, "GET", `${path}?limit=20`));
    expect(first.items).toHaveLength(20);
    expect(first.total).toBe(46);
    const second = await data(await call(alice, "GET", `${path}?limit=20&after=${first.nextAfter}`));
    expect(second.items[0].rowId).toBeGreaterThan(first.items[19].rowId);
    const third = await data(await call(alice, "GET", `${path}?limit=20&after=${second.nextAfter}`));
    expect(third.items).toHaveLength(6);
    expect(third.nextAfter).toBeNull();
    const filters = encodeURIComponent(
      JSON.stringify([
        { field: "stock", op: "eq", value: 3 },
        { field: "price", op: "gte", value: "20" },
      ]),
    );
    const filtered = await data(await call(alice, "GET", `${path}?filters=${filters}`));
    expect(filtered.items.map((row: { values: { name: string } }) => row.values.name)).toEqual(["Item 23", "Item 28", "Item 33", "Item 38", "Item 43"]);
    expect(filtered.total).toBeNull();
    const contains = await data(
      await call(alice, "GET", `${path}?filters=${encodeURIComponent(JSON.stringify([{ field: "name", op: "contains", value: "Tea" }]))}`),
    );
    expect(contains.items).toHaveLength(1);
    await refused(await call(alice, "GET", `${path}?filters=${encodeURIComponent(JSON.stringify([{ field: "nope", op: "eq", value: 1 }]))}`), 400, "filters");
    await refused(await call(alice, "GET", `${path}?filters=not-json`), 400, "filters");

    const edited = await data(await call(alice, "PATCH", `${path}/${tea.rowId}`, { values: { stock: 11 } }));
    expect(edited.values).toMatchObject({ name: "Tea", stock: 11 });
    await refused(await call(alice, "PATCH", `${path}/999999`, { values: { stock: 1 } }), 404);
    expect(await data(await call(alice, "POST", `${path}/delete`, { rowIds: [tea.rowId, first.items[1].rowId, 999999] }))).toEqual({ deleted: 2 });
    expect((await data(await call(alice, "GET", `/api/v1/database-tables/${table.id}`))).rowCount).toBe(44);
  });

  it("adds and deletes fields, keeps the last one, and edits comments", async () => {
    const { table } = await builtinTable(alice, "Fields");
    await data(await call(alice, "POST", `/api/v1/database-tables/${table.id}/rows`, { values: { name: "Tea" } }), 201);
    const added = await data(
      await call(alice, "POST", `/api/v1/database-tables/${table.id}/fields`, { name: "origin", type: "text", comment: "Country" }),
      201,
    );
    expect(added.fields.at(-1)).toMatchObject({ name: "origin", type: "text", comment: "Country", position: 5 });
    expect((await rowsOf(alice, table.id)).items[0].values.origin).toBeNull();
    const origin = added.fields.at(-1);
    const commented = await data(await call(alice, "PATCH", `/api/v1/database-tables/${table.id}/fields/${origin.id}`, { description: "Where it grows" }));
    expect(commented.fields.at(-1)).toMatchObject({ description: "Where it grows", comment: "Country" });
    expect(await data(await call(alice, "PATCH", `/api/v1/database-tables/${table.id}`, { description: "Teas" }))).toMatchObject({ description: "Teas" });
    let current = added;
    for (const field of added.fields.slice(1)) current = await data(await call(alice, "DELETE", `/api/v1/database-tables/${table.id}/fields/${field.id}`));
    expect(current.fields.map((field: { name: string }) => field.name)).toEqual(["name"]);
    expect((await rowsOf(alice, table.id)).items[0].values).toEqual({ name: "Tea" });
    await refused(await call(alice, "DELETE", `/api/v1/database-tables/${table.id}/fields/${current.fields[0].id}`), 409);
    await data(await call(alice, "DELETE", `/api/v1/database-tables/${table.id}`));
    await refused(await call(alice, "GET", `/api/v1/database-tables/${table.id}/rows`), 404);
  });

  it("pre-parses, imports CSV (GBK decoded) and XLSX with a column matching, all or nothing", async () => {
    const { table } = await builtinTable(alice, "Imports");
    const gbk = Buffer.from(
      new Uint8Array([
        ...Buffer.from("Product name,Price,Stock\r\n"),
        // "绿茶" and "红茶" in GBK.
        0xc2,
        0xcc,
        0xb2,
        0xe8,
        ...Buffer.from(",3.5,10\r\n"),
        0xba,
        0xec,
        0xb2,
        0xe8,
        ...Buffer.from(",4,20\r\n"),
      ]),
    );
    const pre = await data(await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports/pre-parse`, undefined, { body: form("teas.csv", gbk) }));
    expect(pre).toMatchObject({
      format: "csv",
      encoding: "gbk",
      decodedFromGbk: true,
      header: ["Product name", "Price", "Stock"],
      rows: [
        ["绿茶", "3.5", "10"],
        ["红茶", "4", "20"],
      ],
    });
    expect(pre.encodingNote).toMatch(/GBK/);
    expect(pre.mapping).toEqual([
      { column: "Product name", fieldName: "name" },
      { column: "Price", fieldName: "price" },
      { column: "Stock", fieldName: "stock" },
    ]);
    const mapping = { "Product name": "name", Price: "price", Stock: "stock" };
    const imported = await data(await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports`, undefined, { body: form("teas.csv", gbk, mapping) }));
    expect(imported).toMatchObject({ importedRows: 2, encoding: "gbk", decodedFromGbk: true });
    expect((await rowsOf(alice, table.id)).items.map((row: { values: { name: string } }) => row.values.name)).toEqual(["绿茶", "红茶"]);

    // One bad value: the row and field are named and nothing is written.
    const bad = "Product name,Price,Stock\nA,1,1\nB,2,two\nC,3,3\n";
    const body = await refused(
      await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports`, undefined, { body: form("bad.csv", bad, mapping) }),
      400,
      "rows.3.stock",
    );
    expect(body.message).toContain("#3 stock");
    await refused(
      await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports/fast`, undefined, { body: form("bad.csv", bad, mapping) }),
      400,
      "rows.3.stock",
    );
    expect((await rowsOf(alice, table.id)).items).toHaveLength(2);
    await refused(
      await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports`, undefined, { body: form("bad.csv", bad, { Colour: "name" }) }),
      400,
      "mapping",
    );
    await refused(
      await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports`, undefined, { body: form("bad.csv", bad, { "Product name": "colour" }) }),
      400,
      "mapping",
    );
    await refused(await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports`, undefined, { body: form("bad.txt", bad, mapping) }), 400, "file");
    await refused(
      await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports`, undefined, { body: form("empty.csv", "Product,Price\n", mapping) }),
      400,
      "file",
    );
    await refused(
      await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports`, undefined, {
        body: form("big.csv", `Product\n${"x\n".repeat(IMPORT_MAX_BYTES / 2 + 10)}`, { Product: "name" }),
      }),
      413,
    );

    // Quoted fields: commas, quotes and line breaks inside; a quote never closed is a clear error.
    const quoted = 'name,notes\r\n"Tea, green","He said ""fresh""\nand cold"\r\n';
    expect(
      await data(
        await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports`, undefined, { body: form("q.csv", quoted, { name: "name", notes: "notes" }) }),
      ),
    ).toMatchObject({
      importedRows: 1,
      encoding: "utf-8",
    });
    expect((await rowsOf(alice, table.id)).items.at(-1).values).toMatchObject({ name: "Tea, green", notes: 'He said "fresh"\nand cold' });
    await data(await call(alice, "POST", `/api/v1/database-tables/${table.id}/rows/delete`, { rowIds: [(await rowsOf(alice, table.id)).items.at(-1).rowId] }));
    await refused(
      await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports/fast`, undefined, { body: form("q.csv", 'name\n"open', { name: "name" }) }),
      400,
      "file",
    );

    const sheet = XLSX.utils.aoa_to_sheet([
      ["name", "price", "added"],
      ["Oolong", 5.25, "2024-06-01"],
      ["Puer", 8, "2024-06-02 08:00:00"],
    ]);
    // A real date cell (shown as a date by the spreadsheet) arrives as the date-time it holds.
    sheet.C3 = { t: "d", v: new Date(Date.UTC(2024, 5, 2, 8, 0, 0)), z: "m/d/yy" };
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, "Teas");
    const xlsx = new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer);
    const fast = await data(
      await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports/fast`, undefined, {
        body: form("teas.xlsx", xlsx, { name: "name", price: "price", added: "added" }),
      }),
    );
    expect(fast).toMatchObject({ importedRows: 2, encoding: null, decodedFromGbk: false, encodingNote: null });
    const rows = (await rowsOf(alice, table.id)).items;
    expect(rows.at(-1).values).toMatchObject({ name: "Puer", price: 8, added: "2024-06-02 08:00:00" });
    expect((await data(await call(alice, "GET", `/api/v1/database-tables/${table.id}`))).rowCount).toBe(4);

    const csvLines = ["name,stock", ...Array.from({ length: 12_000 }, (_, index) => `bulk ${index},${index}`)].join("\n");
    expect(
      (
        await data(
          await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports/fast`, undefined, {
            body: form("bulk.csv", csvLines, { name: "name", stock: "stock" }),
          }),
        )
      ).importedRows,
    ).toBe(12_000);
    expect((await data(await call(alice, "GET", `/api/v1/database-tables/${table.id}`))).rowCount).toBe(12_004);
  });

  it("exports a table as streamed CSV and XLSX and gives the template", async () => {
    const { table } = await builtinTable(alice, "Exports");
    await data(await call(alice, "POST", `/api/v1/database-tables/${table.id}/rows`, { values: { name: "=HYPERLINK(1)", price: 2.5, stock: 7 } }), 201);
    const many = ["name,stock", ...Array.from({ length: 4_500 }, (_, index) => `row ${index},${index}`)].join("\n");
    await data(
      await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports/fast`, undefined, {
        body: form("many.csv", many, { name: "name", stock: "stock" }),
      }),
    );

    const csv = await call(alice, "GET", `/api/v1/database-tables/${table.id}/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toContain("products-");
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.startsWith("name,price,stock,added,notes\r\n")).toBe(true);
    expect(text).toContain("'=HYPERLINK(1),2.5,7,,");
    expect(text.trim().split("\r\n")).toHaveLength(4_502);

    const xlsx = await call(alice, "GET", `/api/v1/database-tables/${table.id}/export?format=xlsx`);
    expect(xlsx.headers.get("content-type")).toContain("spreadsheetml");
    const book = XLSX.read(new Uint8Array(await xlsx.arrayBuffer()), { type: "array" });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 });
    expect(rows[0]).toEqual(["name", "price", "stock", "added", "notes"]);
    expect(rows).toHaveLength(4_502);
    expect(rows[1]).toEqual(["=HYPERLINK(1)", 2.5, 7]);

    const template = await call(alice, "GET", `/api/v1/database-tables/${table.id}/template?format=csv`);
    expect(Buffer.from(await template.arrayBuffer()).toString("utf8")).toBe("\uFEFFname,price,stock,added,notes\r\n");
    const xlsxTemplate = await call(alice, "GET", `/api/v1/database-tables/${table.id}/template?format=xlsx`);
    const templateBook = XLSX.read(new Uint8Array(await xlsxTemplate.arrayBuffer()), { type: "array" });
    expect(XLSX.utils.sheet_to_json<unknown[]>(templateBook.Sheets[templateBook.SheetNames[0]!]!, { header: 1 })).toEqual([
      ["name", "price", "stock", "added", "notes"],
    ]);
  });

  it("keeps spaces apart and roles apart: another space's ids are not found, a viewer reads but cannot edit", async () => {
    const { database, table } = await builtinTable(alice, "Private");
    await data(await call(alice, "POST", `/api/v1/database-tables/${table.id}/rows`, { values: { name: "Secret tea" } }), 201);
    for (const [method, url, body] of [
      ["GET", `/api/v1/databases/${database.id}`],
      ["PATCH", `/api/v1/databases/${database.id}`, { name: "Mine" }],
      ["DELETE", `/api/v1/databases/${database.id}`],
      ["GET", `/api/v1/databases/${database.id}/tables`],
      ["GET", `/api/v1/database-tables/${table.id}`],
      ["GET", `/api/v1/database-tables/${table.id}/rows`],
      ["POST", `/api/v1/database-tables/${table.id}/rows`, { values: { name: "x" } }],
      ["GET", `/api/v1/database-tables/${table.id}/export`],
      ["DELETE", `/api/v1/database-tables/${table.id}`],
    ] as Array<[string, string, unknown?]>) {
      await refused(await call(bob, method, url, body), 404);
    }
    expect((await data(await call(bob, "GET", "/api/v1/databases"))).map((item: { id: string }) => item.id)).not.toContain(database.id);
    const bobApp = await createAppVia(ctx, bob, { name: "Bob bot" });
    await refused(await call(bob, "POST", `/api/v1/apps/${bobApp.id}/databases`, { databaseIds: [database.id] }), 400, "databaseIds");

    const space = { spaceId: alice.user.spaceId };
    expect((await data(await call(viewer, "GET", "/api/v1/databases", undefined, space))).map((item: { id: string }) => item.id)).toContain(database.id);
    expect((await data(await call(viewer, "GET", `/api/v1/database-tables/${table.id}/rows`, undefined, space))).items).toHaveLength(1);
    await refused(await call(viewer, "POST", `/api/v1/database-tables/${table.id}/rows`, { values: { name: "x" } }, space), 403);
    await refused(await call(viewer, "POST", "/api/v1/databases", { type: "builtin", name: "Viewer's" }, space), 403);
    await refused(await call(viewer, "DELETE", `/api/v1/database-tables/${table.id}`, undefined, space), 403);
    expect((await rowsOf(alice, table.id)).items).toHaveLength(1);
  });

  it("binds databases to apps and refuses to delete one apps still use", async () => {
    const { database } = await builtinTable(alice, "Bound");
    const app = await createAppVia(ctx, alice, { name: "Tea bot" });
    expect(await data(await call(alice, "POST", `/api/v1/apps/${app.id}/databases`, { databaseIds: [database.id] }))).toEqual({
      appId: app.id,
      databaseIds: [database.id],
    });
    await refused(await call(alice, "POST", `/api/v1/apps/${app.id}/databases`, { databaseIds: ["db_unknown0000"] }), 400, "databaseIds");
    const conflict = await refused(await call(alice, "DELETE", `/api/v1/databases/${database.id}`), 409);
    expect(conflict.message).toContain("Tea bot");
    // The list and the detail name the apps that answer from it.
    const listed = (await data(await call(alice, "GET", "/api/v1/databases"))).find((item: { id: string }) => item.id === database.id);
    expect(listed.boundApps).toEqual([{ id: app.id, name: "Tea bot" }]);
    expect((await data(await call(alice, "GET", `/api/v1/databases/${database.id}`))).boundApps).toEqual([{ id: app.id, name: "Tea bot" }]);
    // The app's database settings accept the database now that it exists.
    const advanced = await data(await call(alice, "GET", `/api/v1/apps/${app.id}/advanced-config`));
    expect(advanced.database.databaseIds).toEqual([database.id]);
    const cleared = await call(alice, "PUT", `/api/v1/apps/${app.id}/advanced-config`, { ...advanced, database: { enabled: false, databaseIds: [] } });
    expect(cleared.status, await cleared.clone().text()).toBe(200);
    expect((await data(await call(alice, "GET", `/api/v1/databases/${database.id}`))).boundApps).toEqual([]);
    await data(await call(alice, "DELETE", `/api/v1/databases/${database.id}`));
  });

  it("runs checked free statements with a row cap and a time cap (runBuiltinStatement)", async () => {
    const { database, table } = await builtinTable(alice, "Statements");
    const lines = ["name,stock", ...Array.from({ length: 300 }, (_, index) => `n${index},${index}`)].join("\n");
    await data(
      await call(alice, "POST", `/api/v1/database-tables/${table.id}/imports/fast`, undefined, {
        body: form("s.csv", lines, { name: "name", stock: "stock" }),
      }),
    );
    const read = await runBuiltinStatement(ctx.deps, database.id, 'SELECT name, stock FROM "products" WHERE stock >= ? ORDER BY stock', [100], {
      maxRows: 50,
      timeoutMs: 2000,
    });
    expect(read).toMatchObject({ columns: ["name", "stock"], truncated: true });
    expect((read as { rows: unknown[][] }).rows).toHaveLength(50);
    expect((read as { rows: unknown[][] }).rows[0]).toEqual(["n100", 100]);
    const all = await runBuiltinStatement(ctx.deps, database.id, 'SELECT count(*) AS n FROM "products"', [], { maxRows: 50, timeoutMs: 2000 });
    expect(all).toEqual({ columns: ["n"], rows: [[300]], truncated: false });
    const started = Date.now();
    await expect(
      runBuiltinStatement(ctx.deps, database.id, "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r", [], {
        maxRows: 10,
        timeoutMs: 300,
      }),
    ).rejects.toMatchObject({ messageId: "database_statement_timeout", params: { ms: 300 } });
    expect(Date.now() - started).toBeLessThan(2000);
    // The next read is not stuck behind the stopped one.
    expect(await runBuiltinStatement(ctx.deps, database.id, 'SELECT count(*) AS n FROM "products"', [], { maxRows: 5, timeoutMs: 2000 })).toMatchObject({
      rows: [[300]],
    });
    const write = await runBuiltinStatement(ctx.deps, database.id, 'DELETE FROM "products" WHERE stock < ?', [10], { maxRows: 0, timeoutMs: 2000 });
    expect(write).toEqual({ affectedRows: 10 });
    expect((await ctx.deps.db.select().from(databaseTables).where(eq(databaseTables.id, table.id)).get())!.rowCount).toBe(290);
    await expect(runBuiltinStatement(ctx.deps, database.id, 'SELECT nope FROM "products"', [], { maxRows: 5, timeoutMs: 2000 })).rejects.toMatchObject({
      messageId: "database_statement_failed",
    });
  });
});
