import mysql from "mysql2";
import type { FieldPacket, Pool, PoolConnection, RowDataPacket } from "mysql2/promise";
import { resolveChecked } from "../../plugins/service/network";
import { plainValue, RemoteDatabaseError, type RemoteErrorCode, toRemoteError, withDeadline } from "./errors";
import type { QueryOptions, QueryResult, RemoteConnection, RemoteDatabase, RemoteOptions, RemotePoolLimits, RemoteTable, TableSchema } from "./types";

// MySQL/MariaDB error numbers that have a code of their own; the rest is `query_failed`.
function classify(error: unknown): RemoteErrorCode | undefined {
  const { errno, code } = (error ?? {}) as { errno?: number; code?: string };
  if (code === "PARLEY_DEADLINE" || code === "PROTOCOL_SEQUENCE_TIMEOUT") return "timeout";
  if (code === "PARLEY_POOL_WAIT") return "busy";
  switch (errno) {
    case 1045: // ER_ACCESS_DENIED_ERROR
    case 1698: // ER_ACCESS_DENIED_NO_PASSWORD_ERROR
      return "auth_failed";
    case 1044: // ER_DBACCESS_DENIED_ERROR: MySQL says this also for a database that does not exist
    case 1049: // ER_BAD_DB_ERROR
      return "unknown_database";
    case 1969: // MariaDB ER_STATEMENT_TIMEOUT (max_statement_time)
    case 3024: // MySQL ER_QUERY_TIMEOUT (max_execution_time)
    case 1317: // ER_QUERY_INTERRUPTED
      return "timeout";
    case 1792: // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
      return "read_only";
    case 1040: // ER_CON_COUNT_ERROR
    case 1129: // ER_HOST_IS_BLOCKED
    case 1130: // ER_HOST_NOT_PRIVILEGED
      return "unreachable";
    default:
      return undefined;
  }
}

interface Session {
  connection: PoolConnection;
  /** MariaDB limits statements with max_statement_time (seconds), MySQL with max_execution_time (ms, SELECT only). */
  mariadb: boolean;
}

/** A MySQL or MariaDB database behind a `mysql2` pool whose sockets go to the checked address. */
export class MysqlDatabase implements RemoteDatabase {
  readonly kind = "mysql" as const;
  private pool: Promise<Pool> | undefined;
  private mariadb: boolean | undefined;
  private closed = false;

  constructor(
    private readonly connection: RemoteConnection,
    private readonly options: RemoteOptions,
    private readonly limits: RemotePoolLimits,
  ) {}

  private open(): Promise<Pool> {
    if (this.closed) return Promise.reject(new RemoteDatabaseError("closed"));
    this.pool ??= resolveChecked(this.connection.host, this.options.policy, this.options.resolver).then((address) => {
      const pool = mysql.createPool({
        host: address,
        port: this.connection.port,
        user: this.connection.user,
        password: this.connection.password,
        database: this.connection.database,
        connectionLimit: this.limits.maxConnections,
        maxIdle: this.limits.maxConnections,
        idleTimeout: this.limits.idleTimeoutMs,
        connectTimeout: this.limits.connectTimeoutMs,
        waitForConnections: true,
        queueLimit: 0,
        multipleStatements: false,
        supportBigNumbers: true,
        bigNumberStrings: true,
        dateStrings: true,
        charset: "utf8mb4_general_ci",
        // Session limits (max_statement_time) and an unfinished transaction never outlive one use.
        resetOnRelease: true,
      });
      // An idle connection the server drops must not become an uncaught error.
      pool.on("connection", (connection) => connection.on("error", () => {}));
      return pool.promise();
    });
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

  private async withSession<T>(work: (session: Session) => Promise<T>, timeoutMs?: number): Promise<T> {
    let connection: PoolConnection | undefined;
    let broken = false;
    try {
      const pool = await this.open();
      // mysql2 waits for a free connection without end: the connect timeout bounds the wait too.
      const waiting = pool.getConnection();
      connection = await withDeadline(waiting, this.limits.connectTimeoutMs + 500, () => {
        waiting.then(
          (late) => late.release(),
          () => {},
        );
      }).catch((error: { code?: string }) => {
        throw error.code === "PARLEY_DEADLINE" ? Object.assign(new Error("no free connection"), { code: "PARLEY_POOL_WAIT" }) : error;
      });
      if (this.mariadb === undefined) {
        const [rows] = await connection.query<RowDataPacket[]>("SELECT VERSION() AS version");
        this.mariadb = String(rows[0]?.version ?? "").includes("MariaDB");
      }
      const held = connection;
      const running = work({ connection: held, mariadb: this.mariadb });
      return await (timeoutMs === undefined
        ? running
        : withDeadline(running, timeoutMs + 1_000, () => {
            broken = true;
            this.killQuery(held.threadId);
            held.destroy();
          }));
    } catch (error) {
      broken = true;
      throw this.fail(error, timeoutMs);
    } finally {
      if (connection && !broken) connection.release();
      else connection?.destroy();
    }
  }

  // The server keeps running a statement after its client is gone: stop it from a second connection.
  private killQuery(threadId: number): void {
    this.open()
      .then((pool) => pool.query(`KILL QUERY ${Number(threadId)}`))
      .catch(() => {});
  }

  private static async limitTime(session: Session, timeoutMs: number): Promise<void> {
    const ms = Math.max(1, Math.floor(timeoutMs));
    await session.connection.query(session.mariadb ? `SET SESSION max_statement_time = ${ms / 1000}` : `SET SESSION max_execution_time = ${ms}`);
  }

  async test(): Promise<void> {
    await this.withSession(({ connection }) => connection.query("SELECT 1"));
  }

  async listTables(): Promise<RemoteTable[]> {
    const [rows] = await this.withSession(({ connection }) =>
      connection.query<RowDataPacket[]>(
        `SELECT TABLE_NAME AS name, TABLE_COMMENT AS comment, TABLE_ROWS AS estimate, TABLE_TYPE AS type
           FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME`,
      ),
    );
    return rows.map((row) => ({
      name: String(row.name),
      // Views carry the comment 'VIEW': that is no description.
      ...(row.comment && row.type !== "VIEW" ? { comment: String(row.comment) } : {}),
      ...(row.estimate !== null && row.estimate !== undefined ? { rowsEstimate: Number(row.estimate) } : {}),
    }));
  }

  async describe(tables: string[]): Promise<TableSchema[]> {
    if (tables.length === 0) return [];
    return this.withSession(async ({ connection }) => {
      const [found] = await connection.query<RowDataPacket[]>(
        `SELECT TABLE_NAME AS name, TABLE_COMMENT AS comment, TABLE_TYPE AS type FROM information_schema.TABLES
          WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?) ORDER BY TABLE_NAME`,
        [tables],
      );
      const [columns] = await connection.query<RowDataPacket[]>(
        `SELECT TABLE_NAME AS tbl, COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, COLUMN_COMMENT AS comment, COLUMN_KEY AS ckey
           FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?) ORDER BY TABLE_NAME, ORDINAL_POSITION`,
        [tables],
      );
      const [keys] = await connection.query<RowDataPacket[]>(
        `SELECT TABLE_NAME AS tbl, COLUMN_NAME AS name FROM information_schema.KEY_COLUMN_USAGE
          WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?) AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY TABLE_NAME, ORDINAL_POSITION`,
        [tables],
      );
      return found.map((table) => ({
        name: String(table.name),
        ...(table.comment && table.type !== "VIEW" ? { comment: String(table.comment) } : {}),
        columns: columns
          .filter((column) => column.tbl === table.name)
          .map((column) => ({
            name: String(column.name),
            type: String(column.type),
            nullable: column.nullable === "YES",
            ...(column.comment ? { comment: String(column.comment) } : {}),
          })),
        primaryKey: keys.filter((key) => key.tbl === table.name).map((key) => String(key.name)),
      }));
    });
  }

  async query(sql: string, options: QueryOptions): Promise<QueryResult> {
    let overflowed = false;
    const result = await this.withSession(async (session) => {
      await MysqlDatabase.limitTime(session, options.timeoutMs);
      await session.connection.query("START TRANSACTION READ ONLY");
      // The callback connection under the promise wrapper streams rows as events.
      const core = (session.connection as unknown as { connection: mysql.Connection }).connection;
      const { columns, rows } = await new Promise<{ columns: string[]; rows: unknown[][] }>((resolve, reject) => {
        const rows: unknown[][] = [];
        let columns: string[] = [];
        const query = core.query({ sql, rowsAsArray: true });
        query.on("fields", (fields: FieldPacket[]) => {
          columns = fields.map((field) => field.name);
        });
        query.on("result", (row: unknown) => {
          if (overflowed || !Array.isArray(row)) return;
          rows.push(row);
          if (rows.length > options.maxRows) {
            // One row past the cap: the rest is not read. The protocol cannot stop a result mid-way,
            // so the connection is closed and the server stops sending.
            overflowed = true;
            this.killQuery(core.threadId);
            session.connection.destroy();
            resolve({ columns, rows });
          }
        });
        query.on("error", (error: Error) => {
          if (!overflowed) reject(error);
        });
        query.on("end", () => resolve({ columns, rows }));
      });
      if (!overflowed) await session.connection.query("ROLLBACK");
      return { columns, rows };
    }, options.timeoutMs);
    const truncated = result.rows.length > options.maxRows;
    if (truncated && options.failWhenTruncated) throw new RemoteDatabaseError("too_many_rows", { max: options.maxRows });
    return { columns: result.columns, rows: result.rows.slice(0, options.maxRows).map((row) => row.map(plainValue)), truncated };
  }

  async execute(sql: string, options: { timeoutMs: number }): Promise<{ affectedRows: number }> {
    return this.withSession(async (session) => {
      await MysqlDatabase.limitTime(session, options.timeoutMs);
      await session.connection.query("START TRANSACTION");
      try {
        const [result] = await session.connection.query(sql);
        await session.connection.query("COMMIT");
        return { affectedRows: Number((result as { affectedRows?: number }).affectedRows ?? 0) };
      } catch (error) {
        await session.connection.query("ROLLBACK").catch(() => {});
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
