import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient as createLibsqlClient } from "@libsql/client";
import Database from "better-sqlite3";
import { drizzle as drizzleBetterSqlite } from "drizzle-orm/better-sqlite3";
import { migrate as migrateBetterSqlite } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzleLibsql } from "drizzle-orm/libsql";
import { migrate as migrateLibsql } from "drizzle-orm/libsql/migrator";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as schema from "./schema/index";

/** The relational store as services see it: the same drizzle API over either driver. */
export type Db = BaseSQLiteDatabase<"sync" | "async", unknown, typeof schema>;

/** An open database and how to close it. */
export interface Database_ {
  db: Db;
  driver: "better-sqlite3" | "libsql";
  close(): Promise<void>;
}

/** Where the generated SQL migrations live, in the source tree and next to the build alike. */
export function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [path.resolve(here, "../../drizzle"), path.resolve(here, "../drizzle")]) {
    if (fs.existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
  }
  throw new Error(`SQL migrations not found near ${here}`);
}

function filePath(url: string): string {
  return url.startsWith("file:") ? url.slice("file:".length) : url;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * drizzle asks better-sqlite3 to compile every query anew; the SQL text of a query shape never
 * changes (values are bound), so compiled statements are kept and reused, most recent first.
 * Statements run to completion synchronously, so one is never in use twice at once.
 */
function cacheStatements(sqlite: Database.Database): void {
  const compile = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, Database.Statement>();
  sqlite.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (statement) {
      cache.delete(source);
    } else {
      statement = compile(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    cache.set(source, statement);
    return statement;
  }) as typeof sqlite.prepare;
}

/** Opens the configured database and applies every pending migration. */
/**
 * Applies the migrations, once more when the first try fails: processes started at the same moment
 * on one store both find it unmigrated; the one that loses the write lock fails on tables the other
 * just created, and its second look finds every migration applied.
 */
async function migrateOnce(migrate: () => unknown): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await migrate();
      return;
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

export async function openDatabase(options: {
  driver: "better-sqlite3" | "libsql";
  url: string;
  authToken?: string;
  /** SQLite page cache in MB (default 32). */
  cacheMb?: number;
  /** Memory-mapped reads in MB (default 0: off). */
  mmapMb?: number;
}): Promise<Database_> {
  const migrations = { migrationsFolder: migrationsFolder() };
  if (options.driver === "better-sqlite3") {
    const file = filePath(options.url);
    if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new Database(file);
    sqlite.pragma("journal_mode = WAL");
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: still consistent after a
    // crash, and many times faster for the small writes every chat turn makes.
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    // Both count in the process's RSS as they fill, so the defaults suit a small host (32 MB
    // cache, no mmap; the operating system's page cache still holds the file). A large
    // knowledge base ranks full text about 30% faster at 100k chunks with a 128 MB cache and
    // 1 GB of mmap (bench:retrieval-scale): PARLEY_SQLITE_CACHE_MB / PARLEY_SQLITE_MMAP_MB.
    sqlite.pragma(`cache_size = -${Math.round((options.cacheMb ?? 32) * 1024)}`);
    sqlite.pragma(`mmap_size = ${Math.round((options.mmapMb ?? 0) * 1024 * 1024)}`);
    cacheStatements(sqlite);
    const db = drizzleBetterSqlite(sqlite, { schema });
    await migrateOnce(() => migrateBetterSqlite(db, migrations));
    return {
      db: db as unknown as Db,
      driver: "better-sqlite3",
      close: async () => {
        sqlite.close();
      },
    };
  }
  if (options.url.startsWith("file:")) {
    fs.mkdirSync(path.dirname(path.resolve(filePath(options.url))), { recursive: true });
  }
  const client = createLibsqlClient({ url: options.url, ...(options.authToken ? { authToken: options.authToken } : {}) });
  if (options.url.startsWith("file:")) {
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("PRAGMA synchronous = NORMAL");
    await client.execute("PRAGMA busy_timeout = 5000");
  }
  await client.execute("PRAGMA foreign_keys = ON");
  const db = drizzleLibsql(client, { schema });
  await migrateOnce(() => migrateLibsql(db, migrations));
  return { db: db as unknown as Db, driver: "libsql", close: async () => client.close() };
}
