import { PluginNetworkError } from "../../plugins/service/network";
import { remoteDatabaseMessages } from "./messages";
import type { RemoteConnection } from "./types";

/** Why a remote database call failed. */
export type RemoteErrorCode =
  | "unreachable"
  | "refused_address"
  | "auth_failed"
  | "unknown_database"
  | "timeout"
  | "busy"
  | "too_many_rows"
  | "read_only"
  | "query_failed"
  | "closed";

/** An id of {@link remoteDatabaseMessages}. */
export type RemoteMessageId = keyof typeof remoteDatabaseMessages;

const messageIds: Record<RemoteErrorCode, RemoteMessageId> = {
  unreachable: "remote_db_unreachable",
  refused_address: "remote_db_refused_address",
  auth_failed: "remote_db_auth_failed",
  unknown_database: "remote_db_unknown_database",
  timeout: "remote_db_timeout",
  busy: "remote_db_busy",
  too_many_rows: "remote_db_too_many_rows",
  read_only: "remote_db_read_only",
  query_failed: "remote_db_query_failed",
  closed: "remote_db_closed",
};

/**
 * A remote database call that failed, with a typed code and the parameters of its message.
 * Built only from the host, port, user and database name and the driver's text with the
 * password cut out, so it is safe to show and to log.
 */
export class RemoteDatabaseError extends Error {
  override name = "RemoteDatabaseError";
  readonly messageId: RemoteMessageId;
  constructor(
    readonly code: RemoteErrorCode,
    readonly params: Record<string, string | number> = {},
    /** The engine's own code (SQLSTATE, MySQL errno or socket code), for logs. */
    readonly driverCode?: string,
  ) {
    const messageId = messageIds[code];
    super(remoteDatabaseMessages[messageId].en.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole)));
    this.messageId = messageId;
  }
}

const socketCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT", "ECONNRESET", "EPIPE", "EADDRNOTAVAIL"]);

function redact(text: string, password: string): string {
  const plain = password ? text.split(password).join("***") : text;
  return plain.length > 500 ? `${plain.slice(0, 500)}…` : plain;
}

/** What the mapping of one driver error needs to know. */
export interface ErrorContext {
  connection: RemoteConnection;
  timeoutMs?: number;
  maxConnections?: number;
}

/**
 * Turns whatever a driver threw into a {@link RemoteDatabaseError}. `engineCode` is the
 * SQLSTATE (PostgreSQL) or errno (MySQL) classified by the caller into a code, or undefined.
 */
export function toRemoteError(error: unknown, context: ErrorContext, engineCode?: RemoteErrorCode): RemoteDatabaseError {
  if (error instanceof RemoteDatabaseError) return error;
  const { connection } = context;
  const where = { host: connection.host, port: connection.port };
  const raw = error as (Error & { code?: string; errno?: number }) | undefined;
  const detail = redact(raw?.message || String(error), connection.password);
  const driverCode = raw?.code !== undefined ? String(raw.code) : raw?.errno !== undefined ? String(raw.errno) : undefined;
  if (error instanceof PluginNetworkError) return new RemoteDatabaseError("refused_address", { host: connection.host, detail }, "refused");
  switch (engineCode) {
    case "auth_failed":
      return new RemoteDatabaseError("auth_failed", { user: connection.user }, driverCode);
    case "unknown_database":
      return new RemoteDatabaseError("unknown_database", { ...where, database: connection.database }, driverCode);
    case "timeout":
      return new RemoteDatabaseError("timeout", { seconds: seconds(context.timeoutMs) }, driverCode);
    case "read_only":
      return new RemoteDatabaseError("read_only", {}, driverCode);
    case "busy":
      return new RemoteDatabaseError("busy", { max: context.maxConnections ?? 0 }, driverCode);
    case "unreachable":
      return new RemoteDatabaseError("unreachable", { ...where, detail }, driverCode);
    case undefined:
      break;
    default:
      return new RemoteDatabaseError(engineCode, { detail }, driverCode);
  }
  if (raw?.code && socketCodes.has(raw.code)) return new RemoteDatabaseError("unreachable", { ...where, detail: socketDetail(raw.code, detail) }, raw.code);
  return new RemoteDatabaseError("query_failed", { detail }, driverCode);
}

function socketDetail(code: string, detail: string): string {
  switch (code) {
    case "ECONNREFUSED":
      return "the connection was refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the host could not be found";
    case "ETIMEDOUT":
      return "no answer in time";
    default:
      return detail;
  }
}

/** Milliseconds as seconds for a message: whole when whole, else one decimal. */
export function seconds(ms: number | undefined): number {
  if (ms === undefined) return 0;
  return Number.isInteger(ms / 1000) ? ms / 1000 : Math.round(ms / 100) / 10;
}

/**
 * Runs `work` but gives up after `ms`: `onExpire` ends the connection (the statement's server
 * side limit should have fired first; this is the backstop when the server does not answer).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, onExpire: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onExpire();
      reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: "PARLEY_DEADLINE" }));
    }, ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/** A value as JSON can carry it. */
export function plainValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value)) return `0x${value.subarray(0, 1024).toString("hex")}${value.length > 1024 ? "…" : ""}`;
  return value;
}
