import { and, asc, eq, sql } from "drizzle-orm";
import type { RangeCaller } from "../../access/follow";
import { newId } from "../../crypto";
import { databaseFields, type databases, databaseTables } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { loadDatabase, storeOf } from "./databases";
import { type FieldType, NAME_MAX, quoted, storageType, validName } from "./values";

type TableRow = typeof databaseTables.$inferSelect;
type FieldRow = typeof databaseFields.$inferSelect;

/** A table holds at most this many fields. */
export const FIELDS_MAX = 100;

/** A field as answered. */
export interface FieldView {
  id: string;
  name: string;
  type: FieldType;
  description: string;
  comment: string;
  position: number;
}

/** A table as answered, with its fields (built-in) or its saved schema (remote). */
export interface TableView {
  id: string;
  databaseId: string;
  name: string;
  description: string;
  chosen: boolean;
  rowCount: number;
  fields: FieldView[];
  remoteSchema: Array<{ name: string; type: string; nullable?: boolean; description?: string }>;
  createdAt: string;
  updatedAt: string;
}

/** A table with its database and fields, loaded for a change or a read. */
export interface LoadedTable {
  database: typeof databases.$inferSelect;
  table: TableRow;
  fields: FieldRow[];
}

const fieldView = (field: FieldRow): FieldView => ({
  id: field.id,
  name: field.name,
  type: field.type,
  description: field.description,
  comment: field.comment,
  position: field.position,
});

function tableView(table: TableRow, fields: FieldRow[]): TableView {
  return {
    id: table.id,
    databaseId: table.databaseId,
    name: table.name,
    description: table.description,
    chosen: table.chosen,
    rowCount: table.rowCount,
    fields: fields.map(fieldView),
    remoteSchema: JSON.parse(table.schemaJson) as TableView["remoteSchema"],
    createdAt: table.createdAt,
    updatedAt: table.updatedAt,
  };
}

async function fieldsOf(deps: Pick<Deps, "db">, tableId: string): Promise<FieldRow[]> {
  return deps.db.select().from(databaseFields).where(eq(databaseFields.tableId, tableId)).orderBy(asc(databaseFields.position));
}

/** A table of a database the caller reaches; another space's or out of range answers 404. */
export async function loadTable(deps: Pick<Deps, "db">, auth: RangeCaller, tableId: string): Promise<LoadedTable> {
  const table = await deps.db
    .select()
    .from(databaseTables)
    .where(and(eq(databaseTables.id, tableId), eq(databaseTables.spaceId, auth.spaceId)))
    .get();
  if (!table) throw fail.notFound("database_table");
  let database: LoadedTable["database"];
  try {
    database = await loadDatabase(deps, auth, table.databaseId);
  } catch {
    throw fail.notFound("database_table");
  }
  return { database, table, fields: await fieldsOf(deps, table.id) };
}

/** A built-in table: remote tables have no rows here. */
export async function loadBuiltinTable(deps: Pick<Deps, "db">, auth: RangeCaller, tableId: string): Promise<LoadedTable> {
  const loaded = await loadTable(deps, auth, tableId);
  if (loaded.database.type !== "builtin") throw fail.invalid("database_not_builtin", "tableId");
  return loaded;
}

/** Tables of a database, by name, with their fields. */
export async function listTables(deps: Pick<Deps, "db">, auth: RangeCaller, databaseId: string): Promise<TableView[]> {
  const database = await loadDatabase(deps, auth, databaseId);
  const tables = await deps.db.select().from(databaseTables).where(eq(databaseTables.databaseId, database.id)).orderBy(asc(databaseTables.name));
  const fields = tables.length
    ? await deps.db
        .select()
        .from(databaseFields)
        .where(sql`${databaseFields.tableId} in (select id from ${databaseTables} where ${databaseTables.databaseId} = ${database.id})`)
        .orderBy(asc(databaseFields.position))
    : [];
  return tables.map((table) =>
    tableView(
      table,
      fields.filter((field) => field.tableId === table.id),
    ),
  );
}

/** One table with its fields (table_schema). */
export async function getTable(deps: Pick<Deps, "db">, auth: RangeCaller, tableId: string): Promise<TableView> {
  const { table, fields } = await loadTable(deps, auth, tableId);
  return tableView(table, fields);
}

/** A field as asked for. */
export interface FieldInput {
  name: string;
  type: FieldType;
  description?: string | undefined;
  comment?: string | undefined;
}

function checkName(name: string, field: string) {
  if (!validName(name)) throw fail.invalid("database_name_invalid", field, { field, max: NAME_MAX });
}

/** The SQL column definition of a field. */
const columnOf = (field: { name: string; type: FieldType }) => `${quoted(field.name)} ${storageType[field.type]}`;

/**
 * Creates a table in a built-in database (builtin/create_table): the table of that name in the
 * database's file, STRICT so SQLite itself keeps each column to its type. Names are checked
 * (duplicates named) before anything is made; a failure after the file's table exists drops it again.
 */
export async function createBuiltinTable(
  deps: Pick<Deps, "db" | "now" | "config">,
  auth: Auth,
  databaseId: string,
  input: { name: string; description?: string | undefined; fields: FieldInput[] },
): Promise<TableView> {
  const database = await loadDatabase(deps, auth, databaseId);
  if (database.type !== "builtin") throw fail.invalid("database_not_builtin", "databaseId");
  const name = input.name.trim();
  checkName(name, "name");
  if (input.fields.length === 0) throw fail.invalid("field_required", "fields", { field: "fields" });
  if (input.fields.length > FIELDS_MAX) throw fail.invalid("database_fields_too_many", "fields", { max: FIELDS_MAX });
  const seen = new Set<string>();
  input.fields.forEach((field, index) => {
    const fieldName = field.name.trim();
    checkName(fieldName, `fields.${index}.name`);
    const key = fieldName.toLowerCase();
    // SQLite column names are case-insensitive: "Price" and "price" are one column.
    if (seen.has(key)) throw fail.invalid("database_field_duplicate", `fields.${index}.name`, { name: fieldName });
    seen.add(key);
  });
  const clash = await deps.db
    .select({ id: databaseTables.id })
    .from(databaseTables)
    .where(and(eq(databaseTables.databaseId, database.id), sql`lower(${databaseTables.name}) = lower(${name})`))
    .get();
  if (clash) throw fail.conflict("database_table_name_taken", { name });
  const fields = input.fields.map((field) => ({ ...field, name: field.name.trim() }));
  const handle = storeOf(deps).open(database.id);
  handle.exec(`CREATE TABLE ${quoted(name)} (${fields.map(columnOf).join(", ")}) STRICT`);
  const id = newId("dbt");
  const now = deps.now().toISOString();
  try {
    await deps.db.insert(databaseTables).values({
      id,
      databaseId: database.id,
      spaceId: auth.spaceId,
      name,
      description: input.description?.trim() ?? "",
      createdBy: auth.userId,
      updatedAt: now,
    });
    await deps.db.insert(databaseFields).values(
      fields.map((field, position) => ({
        id: newId("dbf"),
        tableId: id,
        name: field.name,
        type: field.type,
        description: field.description?.trim() ?? "",
        comment: field.comment?.trim() ?? "",
        position,
      })),
    );
  } catch (error) {
    // Nothing half-made: the fields go with their table row (cascade), the file's table is dropped.
    await deps.db.delete(databaseTables).where(eq(databaseTables.id, id));
    handle.exec(`DROP TABLE IF EXISTS ${quoted(name)}`);
    throw error;
  }
  return getTable(deps, auth, id);
}

/** Deletes a table and, for a built-in one, its rows. */
export async function deleteTable(deps: Pick<Deps, "db" | "config">, auth: Auth, tableId: string) {
  const { database, table } = await loadTable(deps, auth, tableId);
  await deps.db.delete(databaseTables).where(eq(databaseTables.id, table.id));
  if (database.type === "builtin")
    storeOf(deps)
      .open(database.id)
      .exec(`DROP TABLE IF EXISTS ${quoted(table.name)}`);
  return { deleted: true as const };
}

/** Edits a table's description (update_comment). */
export async function updateTable(deps: Pick<Deps, "db" | "now">, auth: Auth, tableId: string, input: { description: string }) {
  const { table } = await loadTable(deps, auth, tableId);
  await deps.db
    .update(databaseTables)
    .set({ description: input.description.trim(), updatedAt: deps.now().toISOString() })
    .where(eq(databaseTables.id, table.id));
  return getTable(deps, auth, table.id);
}

/**
 * Adds a field to a built-in table (add_field): existing rows hold null in it. A field's type
 * never changes afterwards (no operation offers it): a change that could lose data is made as a
 * new field, filled, and the old one deleted.
 */
export async function addField(deps: Pick<Deps, "db" | "config">, auth: Auth, tableId: string, input: FieldInput): Promise<TableView> {
  const { database, table, fields } = await loadBuiltinTable(deps, auth, tableId);
  const name = input.name.trim();
  checkName(name, "name");
  if (fields.some((field) => field.name.toLowerCase() === name.toLowerCase())) throw fail.conflict("database_field_taken", { name });
  if (fields.length >= FIELDS_MAX) throw fail.invalid("database_fields_too_many", "name", { max: FIELDS_MAX });
  const handle = storeOf(deps).open(database.id);
  handle.exec(`ALTER TABLE ${quoted(table.name)} ADD COLUMN ${columnOf({ name, type: input.type })}`);
  try {
    await deps.db.insert(databaseFields).values({
      id: newId("dbf"),
      tableId: table.id,
      name,
      type: input.type,
      description: input.description?.trim() ?? "",
      comment: input.comment?.trim() ?? "",
      position: Math.max(-1, ...fields.map((field) => field.position)) + 1,
    });
  } catch (error) {
    handle.exec(`ALTER TABLE ${quoted(table.name)} DROP COLUMN ${quoted(name)}`);
    throw error;
  }
  return getTable(deps, auth, table.id);
}

async function loadField(deps: Pick<Deps, "db">, auth: RangeCaller, tableId: string, fieldId: string) {
  const loaded = await loadTable(deps, auth, tableId);
  const field = loaded.fields.find((candidate) => candidate.id === fieldId);
  if (!field) throw fail.notFound("database_field");
  return { ...loaded, field };
}

/** Deletes a field of a built-in table with its values (delete_field); the last field stays. */
export async function deleteField(deps: Pick<Deps, "db" | "config">, auth: Auth, tableId: string, fieldId: string): Promise<TableView> {
  const { database, table, fields, field } = await loadField(deps, auth, tableId, fieldId);
  if (database.type !== "builtin") throw fail.invalid("database_not_builtin", "tableId");
  if (fields.length <= 1) throw fail.conflict("database_field_last");
  storeOf(deps)
    .open(database.id)
    .exec(`ALTER TABLE ${quoted(table.name)} DROP COLUMN ${quoted(field.name)}`);
  await deps.db.delete(databaseFields).where(eq(databaseFields.id, field.id));
  return getTable(deps, auth, table.id);
}

/** Edits a field's description and comment (update_field_comment). */
export async function updateField(
  deps: Pick<Deps, "db">,
  auth: Auth,
  tableId: string,
  fieldId: string,
  input: { description?: string | undefined; comment?: string | undefined },
) {
  const { field } = await loadField(deps, auth, tableId, fieldId);
  const set = {
    ...(input.description !== undefined ? { description: input.description.trim() } : {}),
    ...(input.comment !== undefined ? { comment: input.comment.trim() } : {}),
  };
  if (Object.keys(set).length) await deps.db.update(databaseFields).set(set).where(eq(databaseFields.id, field.id));
  return getTable(deps, auth, tableId);
}

/** Sets a built-in table's row count from its file (after imports and free statements). */
export async function recountRows(deps: Pick<Deps, "db" | "config">, database: { id: string }, table: { id: string; name: string }) {
  const [row] = storeOf(deps)
    .open(database.id)
    .all<{ n: number }>(`SELECT count(*) AS n FROM ${quoted(table.name)}`);
  await deps.db
    .update(databaseTables)
    .set({ rowCount: Number(row?.n ?? 0) })
    .where(eq(databaseTables.id, table.id));
}
