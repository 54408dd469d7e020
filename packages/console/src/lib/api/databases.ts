import type { components } from "@parley/sdk";
import type { ParleyResult } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";
import { fileNameOfDisposition } from "../save-blob";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A database as answered (the remote password never is). */
export type Database = Schemas["Database"];
/** Query, add, edit and delete permissions of a database. */
export type DatabasePermissions = Schemas["DatabasePermissions"];
/** Body of database create. */
export type CreateDatabase = Schemas["CreateDatabase"];
/** Body of database update. */
export type UpdateDatabase = Schemas["UpdateDatabase"];
/** A table with its fields (built-in) or saved schema (remote). */
export type DatabaseTable = Schemas["DatabaseTable"];
/** A field of a built-in table. */
export type DatabaseField = Schemas["DatabaseField"];
/** A field as asked for on create or add. */
export type DatabaseFieldInput = Schemas["DatabaseFieldInput"];
/** Body of built-in table create. */
export type CreateDatabaseTable = Schemas["CreateDatabaseTable"];
/** A row of a built-in table. */
export type DatabaseRow = Schemas["DatabaseRow"];
/** A page of rows with the cursor of the next. */
export type DatabaseRowPage = Schemas["DatabaseRowPage"];
/** What a pre-parse found: header, first rows, encoding and suggested matching. */
export type DatabasePreParse = Schemas["DatabasePreParse"];
/** What an import did. */
export type DatabaseImportResult = Schemas["DatabaseImportResult"];
/** A field type. */
export type FieldType = DatabaseField["type"];
/** Export and template file formats. */
export type FileFormat = "csv" | "xlsx";

/** The space's databases; one database and its tables are below it (cache keys, see query.ts). */
export const DATABASES = ["databases"];

const db = (databaseId: string) => ({ params: { path: { databaseId } } });
const table = (tableId: string) => ({ params: { path: { tableId } } });

/** A multipart body for openapi-fetch: FormData goes to fetch untouched, which sets the boundary. */
function multipart<Body>(fields: Record<string, string | { blob: Blob; fileName: string }>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === "string") form.append(key, value);
    else form.append(key, value.blob, value.fileName);
  }
  return { body: form as unknown as Body, bodySerializer: (body: unknown) => body as FormData };
}

/** A GET answering a file, with the name the server gives in Content-Disposition. */
async function download(send: (init: { signal: AbortSignal; headers: Record<string, string> }) => Promise<ParleyResult<Blob>>, extra: Extra) {
  let disposition: string | null = null;
  const result = await call(extra, async (init) => {
    const answer = await send(init);
    disposition = answer.response?.headers.get("content-disposition") ?? null;
    return answer;
  });
  return result.ok ? { ok: true as const, data: { blob: result.data, fileName: fileNameOfDisposition(disposition) } } : result;
}

/**
 * The database calls the console makes (spec §7 Database), through the SDK and the request
 * layer. Forms that show a refusal on a field call with `silent`.
 */
export const databaseEndpoints = {
  list: (extra: Extra = {}) => call({ dedupeKey: "databases", ...extra }, (init) => client.GET("/api/v1/databases", init)),
  get: (id: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/databases/{databaseId}", { ...init, ...db(id) })),
  create: (body: CreateDatabase, extra: Extra = {}) => call({ silent: true, ...extra }, (init) => client.POST("/api/v1/databases", { ...init, body })),
  update: (id: string, body: UpdateDatabase, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/databases/{databaseId}", { ...init, ...db(id), body })),
  remove: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/databases/{databaseId}", { ...init, ...db(id) })),
  tables: (id: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/databases/{databaseId}/tables", { ...init, ...db(id) })),
  createTable: (id: string, body: CreateDatabaseTable, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/databases/{databaseId}/tables", { ...init, ...db(id), body })),
  updateTable: (tableId: string, description: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/database-tables/{tableId}", { ...init, ...table(tableId), body: { description } })),
  removeTable: (tableId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/database-tables/{tableId}", { ...init, ...table(tableId) })),
  addField: (tableId: string, body: DatabaseFieldInput, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/database-tables/{tableId}/fields", { ...init, ...table(tableId), body })),
  updateField: (tableId: string, fieldId: string, body: { description?: string; comment?: string }, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.PATCH("/api/v1/database-tables/{tableId}/fields/{fieldId}", { ...init, params: { path: { tableId, fieldId } }, body }),
    ),
  removeField: (tableId: string, fieldId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/database-tables/{tableId}/fields/{fieldId}", { ...init, params: { path: { tableId, fieldId } } })),
  /** A page of rows after the rowid `after`, with filters as the server's JSON. */
  rows: (tableId: string, query: { limit: number; after?: number; filters?: string }, extra: Extra = {}) =>
    call({ dedupeKey: `database-rows-${tableId}`, ...extra }, (init) =>
      client.GET("/api/v1/database-tables/{tableId}/rows", { ...init, params: { path: { tableId }, query } }),
    ),
  addRow: (tableId: string, values: Record<string, string | number | null>, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/database-tables/{tableId}/rows", { ...init, ...table(tableId), body: { values } })),
  editRow: (tableId: string, rowId: number, values: Record<string, string | number | null>, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.PATCH("/api/v1/database-tables/{tableId}/rows/{rowId}", { ...init, params: { path: { tableId, rowId } }, body: { values } }),
    ),
  removeRows: (tableId: string, rowIds: number[], extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/database-tables/{tableId}/rows/delete", { ...init, ...table(tableId), body: { rowIds } })),
  preParse: (tableId: string, upload: Blob, fileName: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.POST("/api/v1/database-tables/{tableId}/imports/pre-parse", {
        ...init,
        ...table(tableId),
        ...multipart<{ file?: string }>({ file: { blob: upload, fileName } }),
      }),
    ),
  /** Imports a file with the column title → field name matching; `fast` streams a large file in batches. */
  importFile: (tableId: string, upload: Blob, fileName: string, mapping: Record<string, string>, fast: boolean, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => {
      const options = {
        ...init,
        ...table(tableId),
        ...multipart<{ file?: string; mapping: string }>({ file: { blob: upload, fileName }, mapping: JSON.stringify(mapping) }),
      };
      return fast ? client.POST("/api/v1/database-tables/{tableId}/imports/fast", options) : client.POST("/api/v1/database-tables/{tableId}/imports", options);
    }),
  exportFile: (tableId: string, format: FileFormat, extra: Extra = {}) =>
    download(
      (init) => client.GET("/api/v1/database-tables/{tableId}/export", { ...init, params: { path: { tableId }, query: { format } }, parseAs: "blob" }),
      extra,
    ),
  template: (tableId: string, format: FileFormat, extra: Extra = {}) =>
    download(
      (init) => client.GET("/api/v1/database-tables/{tableId}/template", { ...init, params: { path: { tableId }, query: { format } }, parseAs: "blob" }),
      extra,
    ),
  /** Binds databases to an app (relation add); the app keeps those it had. */
  bind: (appId: string, databaseIds: string[], extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/apps/{appId}/databases", { ...init, params: { path: { appId } }, body: { databaseIds } })),
};
