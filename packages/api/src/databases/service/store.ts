import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/**
 * The rows of built-in databases, behind a port so the scaled-out deployment can swap where they
 * live (docs/decisions/0020-databases.md). A handle is one database's own store, isolated from
 * Parley's tables and from every other database.
 */
export interface BuiltinHandle {
  /** Runs DDL or a statement without result. */
  exec(sql: string): void;
  /** Runs one parameterised write; answers the rows changed and the last rowid. */
  run(sql: string, params?: readonly unknown[]): { changes: number; lastInsertRowid: number };
  /** Answers every row of a parameterised read (callers bound it with LIMIT). */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): T[];
  /** Reads row by row, so a caller can stop early. */
  iterate<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): IterableIterator<T>;
  /** The columns a read answers, in order, without running it. */
  columns(sql: string): string[];
  /** Prepares one statement to run many times (bulk inserts). */
  prepare(sql: string): { run(params: readonly unknown[]): void };
  /** Runs `work` in one transaction: everything or nothing. */
  transaction<T>(work: () => T): T;
}

/** Where the built-in databases of an instance live. */
export interface BuiltinStore {
  /** The database's handle, opened (and created) on first use. */
  open(databaseId: string): BuiltinHandle;
  /** Where the database lives, for records and operators (a path, or a server namespace). */
  locate(databaseId: string): string;
  /**
   * A connection of its own, for work that spans awaits (a streamed import holds its write
   * transaction across batches): statements of other requests never join its transaction.
   */
  session(databaseId: string): BuiltinHandle & { close(): void };
  /** Drops the database and everything in it. */
  drop(databaseId: string): void;
}

/** How many databases stay open per store; the least recently used one is closed past it. */
export const OPEN_HANDLES_MAX = 32;

const ID_SHAPE = /^[a-z]+_[0-9a-z]+$/;

function handleOf(db: Database.Database): BuiltinHandle {
  const cache = new Map<string, Database.Statement>();
  const statement = (sql: string) => {
    let prepared = cache.get(sql);
    if (!prepared) {
      prepared = db.prepare(sql);
      // Statements are generated from a table's fields: a few shapes per table, so the cache stays small.
      if (cache.size > 200) cache.clear();
      cache.set(sql, prepared);
    }
    return prepared;
  };
  return {
    exec: (sql) => {
      db.exec(sql);
      cache.clear();
    },
    run: (sql, params = []) => {
      const result = statement(sql).run(...(params as unknown[]));
      return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
    },
    all: <T>(sql: string, params: readonly unknown[] = []) => statement(sql).all(...(params as unknown[])) as T[],
    iterate: <T>(sql: string, params: readonly unknown[] = []) => db.prepare(sql).iterate(...(params as unknown[])) as IterableIterator<T>,
    columns: (sql) =>
      db
        .prepare(sql)
        .columns()
        .map((column) => column.name),
    prepare: (sql) => {
      const prepared = db.prepare(sql);
      return { run: (params) => void prepared.run(...(params as unknown[])) };
    },
    transaction: <T>(work: () => T) => db.transaction(work)(),
  };
}

const stores = new Map<string, BuiltinStore>();

/**
 * The embedded store: `<dataDir>/databases/<id>.sqlite`, one file per database (WAL), opened
 * lazily and kept in a small LRU of open handles. One store per data directory.
 */
export function diskBuiltinStore(dataDir: string): BuiltinStore {
  const known = stores.get(dataDir);
  if (known) return known;
  const folder = path.join(dataDir, "databases");
  const open = new Map<string, { db: Database.Database; handle: BuiltinHandle }>();
  const fileOf = (databaseId: string) => {
    if (!ID_SHAPE.test(databaseId)) throw new Error(`Not a database id: ${databaseId}`);
    return path.join(folder, `${databaseId}.sqlite`);
  };
  const close = (databaseId: string) => {
    const entry = open.get(databaseId);
    if (!entry) return;
    open.delete(databaseId);
    entry.db.close();
  };
  const connect = (databaseId: string) => {
    fs.mkdirSync(folder, { recursive: true });
    const db = new Database(fileOf(databaseId));
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 5000");
    db.pragma("trusted_schema = OFF");
    return db;
  };
  const store: BuiltinStore = {
    open(databaseId) {
      const entry = open.get(databaseId);
      if (entry) {
        // Map order is the LRU order: touch by re-inserting.
        open.delete(databaseId);
        open.set(databaseId, entry);
        return entry.handle;
      }
      const db = connect(databaseId);
      const created = { db, handle: handleOf(db) };
      open.set(databaseId, created);
      while (open.size > OPEN_HANDLES_MAX) close(open.keys().next().value!);
      return created.handle;
    },
    locate: fileOf,
    session(databaseId) {
      const db = connect(databaseId);
      return { ...handleOf(db), close: () => db.close() };
    },
    drop(databaseId) {
      close(databaseId);
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${fileOf(databaseId)}${suffix}`, { force: true });
    },
  };
  stores.set(dataDir, store);
  return store;
}

/** The file of a built-in database, for the read worker (which opens it read-only). */
export function builtinFile(dataDir: string, databaseId: string): string {
  return diskBuiltinStore(dataDir).locate(databaseId);
}
