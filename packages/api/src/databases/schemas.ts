import { z } from "@hono/zod-openapi";
import { filterOps } from "./service/rows";
import { fieldTypes, LONGTEXT_MAX, NAME_MAX } from "./service/values";

const id = (example: string) => z.string().openapi({ example });
const time = z.string().openapi({ example: "2026-03-01T10:00:00.000Z" });

/** The statement kinds a database allows. */
export const permissionsSchema = z
  .object({
    query: z.boolean().openapi({ example: true }),
    add: z.boolean().openapi({ example: false }),
    edit: z.boolean().openapi({ example: false }),
    delete: z.boolean().openapi({ example: false }),
  })
  .openapi("DatabasePermissions", { description: "What statements on the database may do; at least one is required" });

/** A database as answered (the remote password never is). */
export const databaseSchema = z
  .object({
    id: id("db_01jd7w3k5q9x2m4n6p8r"),
    type: z.enum(["builtin", "remote"]),
    name: z.string().openapi({ example: "Orders" }),
    description: z.string(),
    permissions: permissionsSchema,
    remote: z
      .object({
        dialect: z.enum(["mysql", "postgres"]),
        host: z.string().openapi({ example: "db.example.com" }),
        port: z.number().int().openapi({ example: 3306 }),
        username: z.string().openapi({ example: "reader" }),
        databaseName: z.string().openapi({ example: "shop" }),
        passwordSet: z.boolean().openapi({ description: "Whether a password is stored; the password itself is never answered" }),
      })
      .nullable(),
    tableCount: z.number().int(),
    rowCount: z.number().int().openapi({ description: "Rows in the built-in tables" }),
    boundApps: z.array(z.object({ id: z.string(), name: z.string() })).openapi({ description: "The space's apps that answer from this database, by name" }),
    createdBy: z.string(),
    creatorName: z.string().nullable(),
    createdAt: time,
    updatedAt: time,
  })
  .openapi("Database");

const remoteFields = {
  dialect: z.enum(["mysql", "postgres"]).optional().openapi({ description: "Remote only: mysql (MySQL, MariaDB) or postgres" }),
  host: z.string().max(255).optional(),
  port: z.number().int().min(1).max(65535).optional(),
  username: z.string().max(128).optional(),
  password: z.string().max(256).optional().openapi({ description: "Remote only; sealed at rest. On edit, empty or absent keeps the stored one" }),
  databaseName: z.string().max(128).optional(),
};

/** Creating a database. */
export const createDatabaseBody = z
  .object({
    type: z.enum(["builtin", "remote"]),
    name: z.string().max(50),
    description: z.string().max(500).optional(),
    permissions: permissionsSchema.optional(),
    ...remoteFields,
  })
  .openapi("CreateDatabase");

/** Editing a database. */
export const updateDatabaseBody = z
  .object({
    name: z.string().max(50).optional(),
    description: z.string().max(500).optional(),
    permissions: permissionsSchema.optional(),
    ...remoteFields,
  })
  .openapi("UpdateDatabase");

/** The database list's filter. */
export const databaseListQuery = z.object({ type: z.enum(["builtin", "remote"]).optional() });

/** A field of a built-in table. */
export const fieldSchema = z
  .object({
    id: id("dbf_01jd7w3k5q9x2m4n6p8r"),
    name: z.string().openapi({ example: "price" }),
    type: z.enum(fieldTypes),
    description: z.string(),
    comment: z.string(),
    position: z.number().int(),
  })
  .openapi("DatabaseField");

/** A table with its fields (built-in) or saved schema (remote). */
export const tableSchema = z
  .object({
    id: id("dbt_01jd7w3k5q9x2m4n6p8r"),
    databaseId: z.string(),
    name: z.string().openapi({ example: "orders" }),
    description: z.string(),
    chosen: z.boolean().openapi({ description: "Remote: whether the model may use the table" }),
    rowCount: z.number().int(),
    fields: z.array(fieldSchema),
    remoteSchema: z.array(z.object({ name: z.string(), type: z.string(), nullable: z.boolean().optional(), description: z.string().optional() })),
    createdAt: time,
    updatedAt: time,
  })
  .openapi("DatabaseTable");

/** A field as asked for. */
export const fieldBody = z
  .object({
    name: z
      .string()
      .min(1)
      .max(NAME_MAX)
      .openapi({ description: "Letters, digits, underscore or Chinese characters; not starting with a digit", example: "price" }),
    type: z.enum(fieldTypes).openapi({ description: `text holds up to 1000 characters; longtext up to ${LONGTEXT_MAX}` }),
    description: z.string().max(500).optional(),
    comment: z.string().max(500).optional(),
  })
  .openapi("DatabaseFieldInput");

/** Creating a built-in table. */
export const createTableBody = z
  .object({
    name: z.string().min(1).max(NAME_MAX).openapi({ example: "orders" }),
    description: z.string().max(500).optional(),
    fields: z.array(fieldBody).max(200),
  })
  .openapi("CreateDatabaseTable");

/** A table's description (update_comment). */
export const updateTableBody = z.object({ description: z.string().max(500) }).openapi("UpdateDatabaseTable");
/** A field's description and comment (update_field_comment). */
export const updateFieldBody = z
  .object({ description: z.string().max(500).optional(), comment: z.string().max(500).optional() })
  .openapi("UpdateDatabaseField");

/** Binding databases to an app (relation add). */
export const bindDatabasesBody = z.object({ databaseIds: z.array(z.string().max(64)).min(1).max(50) }).openapi("BindDatabases");

const cell = z.union([z.string(), z.number(), z.null()]);

/** A row of a built-in table. */
export const rowSchema = z
  .object({ rowId: z.number().int(), values: z.record(z.string(), cell).openapi({ example: { name: "Tea", price: 3.5 } }) })
  .openapi("DatabaseRow");

/** A page of rows. */
export const rowPageSchema = z
  .object({
    items: z.array(rowSchema),
    nextAfter: z.number().int().nullable().openapi({ description: "Pass as `after` for the next page; null on the last" }),
    total: z.number().int().nullable().openapi({ description: "Rows in the table; null when filtered" }),
  })
  .openapi("DatabaseRowPage");

/** One filter on a field. */
export const rowFilterSchema = z.object({ field: z.string(), op: z.enum(filterOps), value: cell.optional() });

/** The rows query. */
export const rowListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(20),
  after: z.coerce.number().int().min(0).optional().openapi({ description: "The rowid the previous page ended at" }),
  filters: z.string().max(4000).optional().openapi({
    description: 'JSON array of filters, e.g. [{"field":"city","op":"eq","value":"Shanghai"}]; ops: eq, ne, gt, gte, lt, lte, contains, empty, notEmpty',
  }),
});

/** A row's values by field name. */
export const rowValuesBody = z.object({ values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])) }).openapi("DatabaseRowValues");
/** Rows to delete. */
export const deleteRowsBody = z.object({ rowIds: z.array(z.number().int()).min(1).max(10_000) }).openapi("DeleteDatabaseRows");

/** An uploaded import file. */
export const uploadBody = z.object({ file: z.any().openapi({ type: "string", format: "binary" }) });
/** An import file with its column matching. */
export const importBody = z.object({
  file: z.any().openapi({ type: "string", format: "binary" }),
  mapping: z.string().openapi({ description: 'JSON object: the file\'s column title → the field it fills, e.g. {"Product":"name"}' }),
});

/** What a pre-parse found. */
export const preParseSchema = z
  .object({
    fileName: z.string(),
    format: z.enum(["csv", "xlsx"]),
    encoding: z.enum(["utf-8", "gbk"]).nullable().openapi({ description: "CSV only: the encoding read (GBK files are detected and decoded)" }),
    decodedFromGbk: z.boolean(),
    encodingNote: z.string().nullable().openapi({ description: "Says, in the request's language, that the file was read as GBK" }),
    header: z.array(z.string()),
    rows: z.array(z.array(z.string())),
    mapping: z.array(z.object({ column: z.string(), fieldName: z.string().nullable() })).openapi({ description: "Suggested column matching" }),
  })
  .openapi("DatabasePreParse");

/** What an import did. */
export const importResultSchema = z
  .object({
    importedRows: z.number().int(),
    encoding: z.enum(["utf-8", "gbk"]).nullable(),
    decodedFromGbk: z.boolean(),
    encodingNote: z.string().nullable(),
  })
  .openapi("DatabaseImportResult");

/** The file format of an export or template. */
export const fileFormatQuery = z.object({ format: z.enum(["csv", "xlsx"]).default("csv") });
