import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { operationKey } from "../access/operations";
import { fail } from "../errors";
import { requireAuth } from "../http/auth";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody, standardErrors } from "../http/openapi";
import { translate } from "../http/translate";
import {
  bindDatabasesBody,
  createDatabaseBody,
  createTableBody,
  databaseListQuery,
  databaseSchema,
  deleteRowsBody,
  fieldBody,
  fileFormatQuery,
  importBody,
  importResultSchema,
  preParseSchema,
  rowFilterSchema,
  rowListQuery,
  rowPageSchema,
  rowSchema,
  rowValuesBody,
  tableSchema,
  updateDatabaseBody,
  updateFieldBody,
  updateTableBody,
  uploadBody,
} from "./schemas";
import { bindDatabases, createDatabase, deleteDatabase, getDatabase, listDatabases, updateDatabase } from "./service/databases";
import {
  type ColumnMapping,
  FAST_IMPORT_MAX_BYTES,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  exportTableFile,
  fastImportRows,
  importRows,
  preParse,
  templateFile,
  type UploadedFile,
} from "./service/files";
import { addRow, deleteRows, editRow, listRows, type RowFilter } from "./service/rows";
import { addField, createBuiltinTable, deleteField, deleteTable, getTable, listTables, updateField, updateTable } from "./service/tables";

const tags = ["Databases"];
const databaseParam = idParam("databaseId", "db_01jd7w3k5q9x2m4n6p8r");
const tableParam = idParam("tableId", "dbt_01jd7w3k5q9x2m4n6p8r");
const fieldParams = tableParam.extend(idParam("fieldId", "dbf_01jd7w3k5q9x2m4n6p8r").shape);
const rowParams = tableParam.extend({
  rowId: z.coerce
    .number()
    .int()
    .min(1)
    .openapi({ param: { name: "rowId", in: "path" }, example: 1 }),
});
const appParam = idParam("appId", "app_01jd7w3k5q9x2m4n6p8r");
const deleted = z.object({ deleted: z.literal(true) });
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const MB = 1024 * 1024;

/** Paths whose bodies are import files, larger than the general body limit allows. */
export const DATABASE_UPLOAD_PATH = /^\/api\/v1\/database-tables\/[^/]+\/imports(?:\/fast|\/pre-parse)?$/;
/** Largest body those paths accept: the fast import's file plus multipart framing. */
export const DATABASE_UPLOAD_MAX_BYTES = FAST_IMPORT_MAX_BYTES + MB;

async function fileOf(c: Context<AppEnv>): Promise<{ file: UploadedFile; mapping: unknown }> {
  const form = (await c.req.parseBody()) as { file?: unknown; mapping?: unknown };
  if (!(form.file instanceof File)) throw fail.invalid("field_required", "file", { field: "file" });
  return { file: { fileName: form.file.name, bytes: new Uint8Array(await form.file.arrayBuffer()) }, mapping: form.mapping };
}

function mappingOf(raw: unknown): ColumnMapping {
  let value: unknown;
  try {
    value = typeof raw === "string" ? JSON.parse(raw) : undefined;
  } catch {
    value = undefined;
  }
  const parsed = z.record(z.string(), z.string()).safeParse(value);
  if (!parsed.success)
    throw fail.invalid("validation_failed", "mapping", { field: "mapping", reason: 'a JSON object of column title → field name, e.g. {"Product":"name"}' });
  return parsed.data;
}

function filtersOf(raw: string | undefined): RowFilter[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = undefined;
  }
  const parsed = z.array(rowFilterSchema).max(10).safeParse(value);
  if (!parsed.success) throw fail.invalid("validation_failed", "filters", { field: "filters", reason: "a JSON array of at most 10 { field, op, value }" });
  return parsed.data;
}

/** A signed-in GET whose 200 answer is a file streamed as it is written; errors answer as envelopes. */
function defineFileRoute(path: string, summary: string) {
  return createRoute({
    method: "get",
    path,
    tags,
    summary,
    security: [{ bearer: [] }],
    middleware: [requireAuth({ operation: operationKey("get", path) })],
    request: { params: tableParam, query: fileFormatQuery },
    responses: {
      200: {
        description: summary,
        content: {
          "text/csv": { schema: z.string().openapi({ type: "string", format: "binary" }) },
          [XLSX_TYPE]: { schema: z.string().openapi({ type: "string", format: "binary" }) },
        },
      },
      ...standardErrors,
    },
  });
}

function fileResponse(file: { body: ReadableStream<Uint8Array>; contentType: string; fileName: string }) {
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return new Response(file.body, {
    status: 200,
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

const multipart = <T extends z.ZodType>(schema: T) => ({ required: true, content: { "multipart/form-data": { schema } } }) as const;

/**
 * Databases (spec §7 Database calls): built-in databases with their tables, fields and rows,
 * imports (pre-parse, import, fast import), exports and templates; remote databases' settings;
 * binding databases to apps. Everything is scoped to the caller's space and data range.
 */
export function registerDatabaseRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/databases",
      tags,
      summary: "Databases of the space the caller reaches, newest first (list)",
      request: { query: databaseListQuery },
      data: z.array(databaseSchema),
    }),
    async (c) => ok(c, await listDatabases(c.var.deps, c.var.auth, c.req.valid("query"))),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/databases",
      tags,
      status: 201,
      summary: "Create a built-in or remote database (create); a remote one needs every connection field and the plan's customer service",
      request: { body: jsonBody(createDatabaseBody) },
      data: databaseSchema,
      extraErrors: { 409: "The name is taken", 402: "The plan does not include remote databases (envelope code 701)" },
    }),
    async (c) => ok(c, await createDatabase(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/databases/{databaseId}",
      tags,
      summary: "One database",
      request: { params: databaseParam },
      data: databaseSchema,
    }),
    async (c) => ok(c, await getDatabase(c.var.deps, c.var.auth, c.req.valid("param").databaseId)),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/databases/{databaseId}",
      tags,
      summary: "Edit a database's name, description, permissions or remote connection (update); an empty password keeps the stored one",
      request: { params: databaseParam, body: jsonBody(updateDatabaseBody) },
      data: databaseSchema,
      extraErrors: { 409: "The name is taken" },
    }),
    async (c) => ok(c, await updateDatabase(c.var.deps, c.var.auth, c.req.valid("param").databaseId, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/databases/{databaseId}",
      tags,
      summary: "Delete a database with its tables and rows (delete); refused while apps use it",
      request: { params: databaseParam },
      data: deleted,
      extraErrors: { 409: "Apps still use the database (the message names them)" },
    }),
    async (c) => ok(c, await deleteDatabase(c.var.deps, c.var.auth, c.req.valid("param").databaseId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/apps/{appId}/databases",
      tags,
      summary: "Bind databases of the same space to an app (relation/add); the app keeps those it had",
      request: { params: appParam, body: jsonBody(bindDatabasesBody) },
      data: z.object({ appId: z.string(), databaseIds: z.array(z.string()) }).openapi("BoundDatabases"),
    }),
    async (c) => ok(c, await bindDatabases(c.var.deps, c.var.auth, c.req.valid("param").appId, c.req.valid("json").databaseIds)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/databases/{databaseId}/tables",
      tags,
      summary: "Tables of a database with their fields or saved schema (tables)",
      request: { params: databaseParam },
      data: z.array(tableSchema),
    }),
    async (c) => ok(c, await listTables(c.var.deps, c.var.auth, c.req.valid("param").databaseId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/databases/{databaseId}/tables",
      tags,
      status: 201,
      summary: "Create a table in a built-in database (builtin/create_table); field types integer, decimal, text (≤ 1000 characters), datetime, longtext",
      request: { params: databaseParam, body: jsonBody(createTableBody) },
      data: tableSchema,
      extraErrors: { 409: "The database already has a table of that name" },
    }),
    async (c) => ok(c, await createBuiltinTable(c.var.deps, c.var.auth, c.req.valid("param").databaseId, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/database-tables/{tableId}",
      tags,
      summary: "One table with its fields (table_schema)",
      request: { params: tableParam },
      data: tableSchema,
    }),
    async (c) => ok(c, await getTable(c.var.deps, c.var.auth, c.req.valid("param").tableId)),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/database-tables/{tableId}",
      tags,
      summary: "Edit a table's description, which the model reads (update_comment)",
      request: { params: tableParam, body: jsonBody(updateTableBody) },
      data: tableSchema,
    }),
    async (c) => ok(c, await updateTable(c.var.deps, c.var.auth, c.req.valid("param").tableId, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/database-tables/{tableId}",
      tags,
      summary: "Delete a table with its rows (table/delete)",
      request: { params: tableParam },
      data: deleted,
    }),
    async (c) => ok(c, await deleteTable(c.var.deps, c.var.auth, c.req.valid("param").tableId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/database-tables/{tableId}/fields",
      tags,
      status: 201,
      summary: "Add a field to a built-in table (add_field); existing rows hold null in it. Field types never change: add a new field instead",
      request: { params: tableParam, body: jsonBody(fieldBody) },
      data: tableSchema,
      extraErrors: { 409: "The table already has a field of that name" },
    }),
    async (c) => ok(c, await addField(c.var.deps, c.var.auth, c.req.valid("param").tableId, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/database-tables/{tableId}/fields/{fieldId}",
      tags,
      summary: "Edit a field's description and comment (update_field_comment)",
      request: { params: fieldParams, body: jsonBody(updateFieldBody) },
      data: tableSchema,
    }),
    async (c) => {
      const { tableId, fieldId } = c.req.valid("param");
      return ok(c, await updateField(c.var.deps, c.var.auth, tableId, fieldId, c.req.valid("json")));
    },
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/database-tables/{tableId}/fields/{fieldId}",
      tags,
      summary: "Delete a field with its values (delete_field); a table keeps at least one field",
      request: { params: fieldParams },
      data: tableSchema,
      extraErrors: { 409: "It is the table's last field" },
    }),
    async (c) => {
      const { tableId, fieldId } = c.req.valid("param");
      return ok(c, await deleteField(c.var.deps, c.var.auth, tableId, fieldId));
    },
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/database-tables/{tableId}/rows",
      tags,
      summary: "A page of a built-in table's rows in rowid order, with filters per field (data)",
      request: { params: tableParam, query: rowListQuery },
      data: rowPageSchema,
    }),
    async (c) => {
      const { filters, ...query } = c.req.valid("query");
      return ok(c, await listRows(c.var.deps, c.var.auth, c.req.valid("param").tableId, { ...query, filters: filtersOf(filters) }));
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/database-tables/{tableId}/rows",
      tags,
      status: 201,
      summary: "Add a row (add_data); each value is checked against its field's type",
      request: { params: tableParam, body: jsonBody(rowValuesBody) },
      data: rowSchema,
      extraErrors: { 402: "The plan's database rows are used up (envelope code 701)" },
    }),
    async (c) => ok(c, await addRow(c.var.deps, c.var.auth, c.req.valid("param").tableId, c.req.valid("json").values), 201),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/database-tables/{tableId}/rows/{rowId}",
      tags,
      summary: "Edit the given fields of a row (edit_data)",
      request: { params: rowParams, body: jsonBody(rowValuesBody) },
      data: rowSchema,
    }),
    async (c) => {
      const { tableId, rowId } = c.req.valid("param");
      return ok(c, await editRow(c.var.deps, c.var.auth, tableId, rowId, c.req.valid("json").values));
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/database-tables/{tableId}/rows/delete",
      tags,
      summary: "Delete rows by their rowid (delete_data)",
      request: { params: tableParam, body: jsonBody(deleteRowsBody) },
      data: z.object({ deleted: z.number().int() }).openapi("DeletedDatabaseRows"),
    }),
    async (c) => ok(c, await deleteRows(c.var.deps, c.var.auth, c.req.valid("param").tableId, c.req.valid("json").rowIds)),
  );

  const note = (c: Context<AppEnv>, result: { decodedFromGbk: boolean }) => (result.decodedFromGbk ? translate(c.var.language, "database_import_gbk") : null);
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/database-tables/{tableId}/imports/pre-parse",
      tags,
      summary: `Read the head of a CSV or XLSX (at most ${FAST_IMPORT_MAX_BYTES / MB} MB): encoding (GBK detected and decoded), header, first rows and a suggested column matching (pre_parse)`,
      request: { params: tableParam, body: multipart(uploadBody) },
      data: preParseSchema,
      extraErrors: { 413: "The file is too large" },
    }),
    async (c) => {
      const { file } = await fileOf(c);
      const result = await preParse(c.var.deps, c.var.auth, c.req.valid("param").tableId, file);
      return ok(c, { ...result, encodingNote: note(c, result) });
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/database-tables/{tableId}/imports",
      tags,
      summary: `Import a CSV or XLSX with a column matching, all or nothing (import_data); at most ${IMPORT_MAX_BYTES / MB} MB and ${IMPORT_MAX_ROWS} rows`,
      request: { params: tableParam, body: multipart(importBody) },
      data: importResultSchema,
      extraErrors: { 413: "The file is too large", 402: "The plan's database rows would be passed (envelope code 701)" },
    }),
    async (c) => {
      const { file, mapping } = await fileOf(c);
      const result = await importRows(c.var.deps, c.var.auth, c.req.valid("param").tableId, file, mappingOf(mapping));
      return ok(c, { ...result, encodingNote: note(c, result) });
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/database-tables/{tableId}/imports/fast",
      tags,
      summary: `Fast import of a large CSV or XLSX (fast_import_data): streamed, batched, one transaction; at most ${FAST_IMPORT_MAX_BYTES / MB} MB`,
      request: { params: tableParam, body: multipart(importBody) },
      data: importResultSchema,
      extraErrors: { 413: "The file is too large", 402: "The plan's database rows would be passed (envelope code 701)" },
    }),
    async (c) => {
      const { file, mapping } = await fileOf(c);
      const result = await fastImportRows(c.var.deps, c.var.auth, c.req.valid("param").tableId, file, mappingOf(mapping));
      return ok(c, { ...result, encodingNote: note(c, result) });
    },
  );
  app.openapi(
    defineFileRoute("/api/v1/database-tables/{tableId}/export", "Download a built-in table's rows as CSV or XLSX, streamed (table/export)"),
    async (c) => fileResponse(await exportTableFile(c.var.deps, c.var.auth, c.req.valid("param").tableId, c.req.valid("query").format)),
  );
  app.openapi(
    defineFileRoute(
      "/api/v1/database-tables/{tableId}/template",
      "The import template: a CSV or XLSX with the table's field names as its header (template_file)",
    ),
    async (c) => fileResponse(await templateFile(c.var.deps, c.var.auth, c.req.valid("param").tableId, c.req.valid("query").format)),
  );
}
