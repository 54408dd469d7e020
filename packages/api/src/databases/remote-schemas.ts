import { z } from "@hono/zod-openapi";

/** Settings to test: unsaved (every field required) or a saved database's, with fields replaced. */
export const connectionTestBody = z
  .object({
    databaseId: z
      .string()
      .max(64)
      .optional()
      .openapi({ description: "Test a saved remote database; the other fields, when given, replace its stored ones (an empty password keeps it)" }),
    dialect: z.enum(["mysql", "postgres"]).optional().openapi({ description: "mysql (MySQL, MariaDB) or postgres" }),
    host: z.string().max(255).optional().openapi({ example: "db.example.com" }),
    port: z.number().int().min(1).max(65535).optional().openapi({ example: 3306 }),
    username: z.string().max(128).optional(),
    password: z.string().max(256).optional().openapi({ description: "Used for this test only; never stored or answered" }),
    databaseName: z.string().max(128).optional(),
  })
  .openapi("DatabaseConnectionTest");

/** A connection test that succeeded. */
export const connectionTestResultSchema = z
  .object({
    ok: z.literal(true),
    latencyMs: z.number().int().openapi({ description: "Connecting and one round trip, in milliseconds", example: 12 }),
    serverVersion: z.string().openapi({ example: "10.11.6-MariaDB-0+deb12u1" }),
  })
  .openapi("DatabaseConnectionTestResult");

/** A table the remote server offers now. */
export const onlineTableSchema = z
  .object({
    name: z.string().openapi({ example: "orders" }),
    comment: z.string().openapi({ description: "The server's own comment on the table" }),
    rowsEstimate: z.number().int().nullable().openapi({ description: "The engine's estimate; null when it keeps none" }),
    chosen: z.boolean().openapi({ description: "Whether the model may use the table" }),
    tableId: z.string().nullable().openapi({ description: "The saved table (database-tables) when chosen" }),
    description: z.string().openapi({ description: "The saved description the model reads" }),
    primaryKey: z.array(z.string()),
    columns: z.array(
      z.object({
        name: z.string(),
        type: z.string().openapi({ example: "decimal(10,2)" }),
        nullable: z.boolean(),
        comment: z.string(),
        description: z.string().openapi({ description: "The saved description the model reads" }),
      }),
    ),
  })
  .openapi("DatabaseOnlineTable");

/** The online table save: every chosen table; tables left out are no longer chosen. */
export const saveOnlineTablesBody = z
  .object({
    tables: z
      .array(
        z.object({
          name: z.string().min(1).max(128),
          description: z.string().max(1000).optional().openapi({ description: "Empty takes the server's comment" }),
          columns: z
            .array(z.object({ name: z.string().min(1).max(128), description: z.string().max(500).optional() }))
            .max(1000)
            .optional()
            .openapi({ description: "Column descriptions; columns left out take the server's comment" }),
        }),
      )
      .max(200),
  })
  .openapi("SaveDatabaseOnlineTables");
