/**
 * The relational store: drizzle over a SQLite file (embedded) or a libsql server. Opened once
 * by the server in db/client.ts; everything else receives it as `deps.db`.
 */
export type { Db } from "../db/client";
