import type { Config } from "../../config";
import type { AddressPolicy } from "../../plugins/service/network";
import { MysqlDatabase } from "./mysql";
import { PostgresDatabase } from "./postgres";
import { defaultPoolLimits, type RemoteConnection, type RemoteDatabase, type RemoteOptions } from "./types";

/**
 * The address rules of remote databases: the instance's outbound rules, with private ranges and
 * loopback opened only by `PARLEY_DATABASES_ALLOW_PRIVATE_NETWORK` and
 * `PARLEY_DATABASES_ALLOW_LOOPBACK`. Cloud metadata addresses are refused whatever they say.
 */
export function remoteDatabasePolicy(config: Pick<Config, "remoteDatabases">): AddressPolicy {
  return { allowPrivateNetwork: config.remoteDatabases.allowPrivateNetwork, allowLoopback: config.remoteDatabases.allowLoopback, allowedHosts: [] };
}

/** Opens a remote database; nothing connects until the first call, which resolves and checks the host. */
export function openRemoteDatabase(connection: RemoteConnection, options: RemoteOptions): RemoteDatabase {
  const limits = { ...defaultPoolLimits, ...options.limits };
  return connection.kind === "postgresql" ? new PostgresDatabase(connection, options, limits) : new MysqlDatabase(connection, options, limits);
}

/**
 * One pool per remote database, keyed by its id and the version of its settings: a changed
 * host, user or password gets a new pool and the old one is closed. Close all on shutdown.
 */
export class RemoteDatabaseRegistry {
  private readonly entries = new Map<string, { version: string; database: RemoteDatabase }>();

  constructor(private readonly options: RemoteOptions) {}

  /** The pool of database `id` at settings `version`, opened on first use. */
  get(id: string, version: string | number, connection: RemoteConnection): RemoteDatabase {
    const key = String(version);
    const entry = this.entries.get(id);
    if (entry?.version === key) return entry.database;
    if (entry) void entry.database.close().catch(() => {});
    const database = openRemoteDatabase(connection, this.options);
    this.entries.set(id, { version: key, database });
    return database;
  }

  /** Closes the pool of a database that was deleted or whose settings changed. */
  async drop(id: string): Promise<void> {
    const entry = this.entries.get(id);
    this.entries.delete(id);
    await entry?.database.close();
  }

  /** Pools open now. */
  get size(): number {
    return this.entries.size;
  }

  /** Closes every pool (server shutdown). */
  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.allSettled(all.map((entry) => entry.database.close()));
  }
}
