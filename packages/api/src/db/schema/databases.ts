import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { spaces } from "./spaces";

/**
 * A database of a space (spec §3 Database): built-in (its rows live in a SQLite file of its own
 * under the data directory, see docs/decisions/0020-databases.md) or remote (a customer's MySQL or
 * PostgreSQL). The remote credentials are sealed at rest and never answered.
 */
export const databases = sqliteTable(
  "databases",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["builtin", "remote"] }).notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Statement kinds allowed on the database (spec §5: at least one). */
    allowQuery: integer("allow_query", { mode: "boolean" }).notNull().default(true),
    allowAdd: integer("allow_add", { mode: "boolean" }).notNull().default(false),
    allowEdit: integer("allow_edit", { mode: "boolean" }).notNull().default(false),
    allowDelete: integer("allow_delete", { mode: "boolean" }).notNull().default(false),
    /** Remote only: mysql (MySQL, MariaDB) or postgres. */
    dialect: text("dialect", { enum: ["mysql", "postgres"] }),
    /** Remote only, sealed: host, username and password (`sealed:` values of the instance's secret box). */
    host: text("host").notNull().default(""),
    port: integer("port"),
    username: text("username").notNull().default(""),
    password: text("password").notNull().default(""),
    databaseName: text("database_name").notNull().default(""),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("databases_name_idx").on(table.spaceId, table.name)],
);

/**
 * A table of a database. Built-in: the table of that name in the database's own file. Remote: a table
 * chosen from the online tables (`chosen`), with the schema read when it was saved (`schemaJson`:
 * columns with their types and the descriptions the model reads).
 */
export const databaseTables = sqliteTable(
  "database_tables",
  {
    id: text("id").primaryKey(),
    databaseId: text("database_id")
      .notNull()
      .references(() => databases.id, { onDelete: "cascade" }),
    spaceId: text("space_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Remote only: whether the table is one the model may use. */
    chosen: integer("chosen", { mode: "boolean" }).notNull().default(true),
    /** Remote only: JSON of the saved schema, `[{ name, type, nullable, description }]`. */
    schemaJson: text("schema_json").notNull().default("[]"),
    /** Built-in only: rows in the table, kept with every write (the databaseRows quota reads it). */
    rowCount: integer("row_count").notNull().default(0),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("database_tables_name_idx").on(table.databaseId, table.name), index("database_tables_space_idx").on(table.spaceId)],
);

/** A field of a built-in table (spec §3 Field): the column of that name in the table of the database's own file. */
export const databaseFields = sqliteTable(
  "database_fields",
  {
    id: text("id").primaryKey(),
    tableId: text("table_id")
      .notNull()
      .references(() => databaseTables.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type", { enum: ["integer", "decimal", "text", "datetime", "longtext"] }).notNull(),
    description: text("description").notNull().default(""),
    comment: text("comment").notNull().default(""),
    position: integer("position").notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("database_fields_name_idx").on(table.tableId, table.name)],
);

/**
 * A write the model asked for that waits for the user's confirmation (the app's
 * `confirmWrites`): the exact checked statement, bound to its conversation. Confirming runs it
 * once (`usedAt` is set in the same statement that claims it) before `expiresAt`.
 */
export const databaseWriteConfirmations = sqliteTable(
  "database_write_confirmations",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    appId: text("app_id").notNull(),
    databaseId: text("database_id")
      .notNull()
      .references(() => databases.id, { onDelete: "cascade" }),
    sql: text("sql").notNull(),
    kind: text("kind", { enum: ["insert", "update", "delete"] }).notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    /** JSON of what running it came to (affected rows, or the failure). */
    result: text("result"),
    createdAt: createdAt(),
  },
  (table) => [index("database_write_confirmations_conversation_idx").on(table.conversationId)],
);
