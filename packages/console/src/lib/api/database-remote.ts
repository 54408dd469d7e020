import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** Settings a connection test takes: unsaved ones, or `databaseId` with fields replaced. */
export type ConnectionTestInput = Schemas["DatabaseConnectionTest"];
/** A connection test that succeeded. */
export type ConnectionTestResult = Schemas["DatabaseConnectionTestResult"];
/** A table the remote server offers, with what was saved for it. */
export type OnlineTable = Schemas["DatabaseOnlineTable"];
/** The chosen tables of an online table save. */
export type OnlineTableChoice = Schemas["SaveDatabaseOnlineTables"]["tables"][number];

/** Cache key (below the space, see query.ts) of a remote database's online tables. */
export const onlineTablesKey = (databaseId: string) => ["databases", databaseId, "online-tables"];

const byId = (databaseId: string) => ({ params: { path: { databaseId } } });

/**
 * Remote database calls (issue 18) through the SDK. All are `silent`: the screens show the
 * server's message (unreachable, refused login, refused address) next to what failed.
 */
export const databaseRemoteEndpoints = {
  testConnection: (body: ConnectionTestInput, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/databases/connection-test", { ...init, body })),
  onlineTables: (databaseId: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.GET("/api/v1/databases/{databaseId}/online-tables", { ...init, ...byId(databaseId) })),
  saveOnlineTables: (databaseId: string, tables: OnlineTableChoice[], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/databases/{databaseId}/online-tables", { ...init, ...byId(databaseId), body: { tables } })),
};
