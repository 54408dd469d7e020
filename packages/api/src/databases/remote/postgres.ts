import pg from "pg";
import Cursor from "pg-cursor";
import { resolveChecked } from "../../plugins/service/network";
import { plainValue, RemoteDatabaseError, type RemoteErrorCode, toRemoteError, withDeadline } from "./errors";
import type { QueryOptions, QueryResult, RemoteConnection, RemoteDatabase, RemoteOptions, RemotePoolLimits, RemoteTable, TableSchema } from "./types";

// SQLSTATE classes and codes that have a code of their own; the rest is `query_failed`.
function classify(error: unknown): RemoteErrorCode | undefined {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code === "28P01" || code === "28000") return "auth_failed";
  if (code === "3D000") return "unknown_database";
  if (code === "57014" || code === "PARLEY_DEADLINE") return "timeout";
  if (code === "25006") return "read_only";
  if (code === "53300" || code === "57P03") return "unreachable";
  // pg's own words when connecting takes longer than connectionTimeoutMillis.
  if (message === "timeout exceeded when trying to connect") return "busy";
  if (message?.startsWith("Connection terminated due to connection timeout") || message === "Connection terminated unexpectedly") return "unreachable";
  return undefined;
}

/** A PostgreSQL database behind a `pg` pool whose sockets go to the checked address. */
export class PostgresDatabase implements RemoteDatabase {
  readonly kind = "postgresql" as const;
  private pool: Promise<pg.Pool> | undefined;
  private closed = false;

  constructor(
    private readonly connection: RemoteConnection,
    private readonly options: RemoteOptions,
    private readonly limits: RemotePoolLimits,
  ) {}

  private open(): Promise<pg.Pool> {
    if (this.closed) return Promise.reject(new RemoteDatabaseError("closed"));
    this.pool ??= resolveChecked(this.connection.host, this.options.policy, this.options.resolver).then((address) => {
      const pool = new pg.Pool({
        host: address,
        port: this.connection.port,
        user: this.connection.user,
        password: this.connection.password,
        database: this.connection.database,
        max: this.limits.maxConnections,
        idleTimeoutMillis: this.limits.idleTimeoutMs,
        connectionTimeoutMillis: this.limits.connectTimeoutMs,
        application_name: "parley",
        allowExitOnIdle: true,
      });
      // An idle connection the server drops must not become an uncaught error; the pool replaces it.
      pool.on("error", () => {});
      return pool;
    });
    // A refused or unresolvable host is tried again on the next call.
    this.pool.catch(() => {
      this.pool = undefined;
    });
    return this.pool;
  }

  private fail(error: unknown, timeoutMs?: number): RemoteDatabaseError {
    return toRemoteError(
      error,
      { connection: this.connection, maxConnections: this.limits.maxConnections, ...(timeoutMs ? { timeoutMs } : {}) },
      classify(error),
    );
  }

  private async withClient<T>(work: (client: pg.PoolClient) => Promise<T>, timeoutMs?: number): Promise<T> {
    let client: pg.PoolClient | undefined;
    let broken = false;
    try {
      const pool = await this.open();
      client = await pool.connect();
      const held = client;
      const running = work(held);
      return await (timeoutMs === undefined
        ? running
        : withDeadline(running, timeoutMs + 1_000, () => {
            broken = true;
            held.release(true);
          }));
    } catch (error) {
      broken = true;
      throw this.fail(error, timeoutMs);
    } finally {
      // A connection that failed mid-transaction is not trusted again: it is closed, not pooled.
      if (client && !broken) client.release();
      else if (client) {
        try {
          client.release(true);
        } catch {
          // Already released by the deadline.
        }
      }
    }
  }

  async test(): Promise<void> {
    await this.withClient((client) => client.query("SELECT 1"));
  }

  async listTables(): Promise<RemoteTable[]> {
    const result = await this.withClient((client) =>
      client.query<{ name: string; comment: string | null; estimate: string }>(
        `SELECT c.relname AS name, obj_description(c.oid, 'pg_class') AS comment, c.reltuples::bigint AS estimate
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
          ORDER BY c.relname`,
      ),
    );
    return result.rows.map((row) => ({
      name: row.name,
      ...(row.comment ? { comment: row.comment } : {}),
      // -1 means never analysed: no estimate rather than a wrong one.
      ...(Number(row.estimate) >= 0 ? { rowsEstimate: Number(row.estimate) } : {}),
    }));
  }

  async describe(tables: string[]): Promise<TableSchema[]> {
    if (tables.length === 0) return [];
    return this.withClient(async (client) => {
      const found = await client.query<{ name: string; comment: string | null }>(
        `SELECT c.relname AS name, obj_description(c.oid, 'pg_class') AS comment
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relname = ANY($1)
          ORDER BY c.relname`,
        [tables],
      );
      const columns = await client.query<{ table: string; name: string; type: string; nullable: boolean; comment: string | null }>(
        `SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
                NOT a.attnotnull AS nullable, col_description(c.oid, a.attnum) AS comment
           FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relname = ANY($1) AND a.attnum > 0 AND NOT a.attisdropped
          ORDER BY c.relname, a.attnum`,
        [tables],
      );
      const keys = await client.query<{ table: string; name: string }>(
        `SELECT c.relname AS table, a.attname AS name
           FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY(i.indkey)
          WHERE i.indisprimary AND n.nspname = current_schema() AND c.relname = ANY($1)
          ORDER BY c.relname, array_position(i.indkey::int2[], a.attnum)`,
        [tables],
      );
      return found.rows.map((table) => ({
        name: table.name,
        ...(table.comment ? { comment: table.comment } : {}),
        columns: columns.rows
          .filter((column) => column.table === table.name)
          .map((column) => ({ name: column.name, type: column.type, nullable: column.nullable, ...(column.comment ? { comment: column.comment } : {}) })),
        primaryKey: keys.rows.filter((key) => key.table === table.name).map((key) => key.name),
      }));
    });
  }

  async query(sql: string, options: QueryOptions): Promise<QueryResult> {
    const result = await this.withClient(async (client) => {
      await client.query("BEGIN READ ONLY");
      await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`);
      // A cursor fetches maxRows + 1 rows and no more: a huge result never reaches this process.
      const cursor = client.query(new Cursor(sql, [], { rowMode: "array" }));
      const { rows, fields } = await new Promise<{ rows: unknown[][]; fields: pg.FieldDef[] }>((resolve, reject) => {
        cursor.read(options.maxRows + 1, (error, rows, result) =>
          error ? reject(error) : resolve({ rows: rows as unknown[][], fields: result?.fields ?? [] }),
        );
      });
      await cursor.close();
      await client.query("ROLLBACK");
      return { rows, fields };
    }, options.timeoutMs);
    const truncated = result.rows.length > options.maxRows;
    if (truncated && options.failWhenTruncated) throw new RemoteDatabaseError("too_many_rows", { max: options.maxRows });
    return {
      columns: result.fields.map((field) => field.name),
      rows: result.rows.slice(0, options.maxRows).map((row) => row.map(plainValue)),
      truncated,
    };
  }

  async execute(sql: string, options: { timeoutMs: number }): Promise<{ affectedRows: number }> {
    return this.withClient(async (client) => {
      await client.query("BEGIN");
      await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`);
      try {
        const result = await client.query(sql);
        await client.query("COMMIT");
        return { affectedRows: result.rowCount ?? 0 };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    }, options.timeoutMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = await this.pool?.catch(() => undefined);
    this.pool = undefined;
    await pool?.end();
  }
}
