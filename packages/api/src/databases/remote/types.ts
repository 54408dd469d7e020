import type { AddressPolicy, Resolver } from "../../plugins/service/network";

/** The two remote engines: `mysql` covers MySQL and MariaDB. */
export type RemoteKind = "mysql" | "postgresql";

/** Where a remote database is and who logs in. The password is held only here, never echoed. */
export interface RemoteConnection {
  kind: RemoteKind;
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

/** Limits of one database's connection pool. */
export interface RemotePoolLimits {
  /** Connections open at once; more callers wait for one to come free. */
  maxConnections: number;
  /** An idle connection is closed after this long. */
  idleTimeoutMs: number;
  /** Connecting (and waiting for a free connection) fails after this long. */
  connectTimeoutMs: number;
}

/** Default pool limits: a customer's database is theirs, so Parley keeps its footprint small. */
export const defaultPoolLimits: RemotePoolLimits = { maxConnections: 4, idleTimeoutMs: 30_000, connectTimeoutMs: 5_000 };

/** What opening a remote database needs besides the connection. */
export interface RemoteOptions {
  /** The instance's address rules for databases (see `remoteDatabasePolicy`). */
  policy: AddressPolicy;
  /** DNS; tests may replace it. */
  resolver?: Resolver;
  limits?: Partial<RemotePoolLimits>;
}

/** One table the database offers. */
export interface RemoteTable {
  name: string;
  comment?: string;
  /** The engine's own estimate of the row count, when it keeps one. */
  rowsEstimate?: number;
}

/** One column of a described table. */
export interface RemoteColumn {
  name: string;
  /** The engine's spelling of the type, e.g. `character varying(40)` or `decimal(10,2)`. */
  type: string;
  nullable: boolean;
  comment?: string;
}

/** A table's schema as the model will read it. */
export interface TableSchema {
  name: string;
  comment?: string;
  columns: RemoteColumn[];
  /** Columns of the primary key in key order; empty when there is none. */
  primaryKey: string[];
}

/** A read's limits. */
export interface QueryOptions {
  /** Rows returned at most; one more is fetched to know whether there were more. */
  maxRows: number;
  timeoutMs: number;
  /** Fail with `too_many_rows` instead of returning the first `maxRows` rows. */
  failWhenTruncated?: boolean;
}

/** A read's result; values are JSON-safe (big numbers and dates as strings, bytes as hex). */
export interface QueryResult {
  columns: string[];
  rows: unknown[][];
  /** True when the statement had more than `maxRows` rows; the rest was never fetched. */
  truncated: boolean;
}

/** A customer's MySQL/MariaDB or PostgreSQL database behind a pool with limits. */
export interface RemoteDatabase {
  readonly kind: RemoteKind;
  /** Connects and runs a trivial statement; throws a `RemoteDatabaseError` saying why not. */
  test(): Promise<void>;
  /** Tables and views of the database (PostgreSQL: of the current schema) with their comments. */
  listTables(): Promise<RemoteTable[]>;
  /** Columns, comments and primary keys of the named tables; names that do not exist are left out. */
  describe(tables: string[]): Promise<TableSchema[]>;
  /** One statement in a READ ONLY transaction, capped in rows and time. It is not checked here: callers check it first. */
  query(sql: string, options: QueryOptions): Promise<QueryResult>;
  /** One write statement in its own transaction, committed when it succeeds. */
  execute(sql: string, options: { timeoutMs: number }): Promise<{ affectedRows: number }>;
  /** Closes the pool; later calls fail. */
  close(): Promise<void>;
}
