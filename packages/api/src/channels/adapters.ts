import { adapterFor, type AdapterIO, type ChannelAdapter, type ChannelConfig, createTokenCache } from "@parley/channels";
import type { channelClients } from "../db/schema/index";
import { ServiceError } from "../errors";
import type { Deps } from "../kernel";
import { databaseKeyValueStore } from "./kv";

/*
 * What every part of channels needs to talk to a platform: the adapter of a client, its whole
 * configuration and its I/O. Kept apart from the client service so that the service, the
 * pipeline and the WeChat bindings all build on it without importing one another.
 */

export type ChannelClientRow = typeof channelClients.$inferSelect;

/** A client's stored configuration as an object (unreadable JSON is empty). */
export function parseJson(stored: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(stored);
    return value && typeof value === "object" ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The adapter of a stored or requested kind; an unknown kind is a validation error. */
export function adapterOf(kind: string): ChannelAdapter {
  const adapter = adapterFor(kind);
  if (!adapter) throw new ServiceError("validation", "channel_kind_unknown", { kind }, { field: "kind" });
  return adapter;
}

/** The secret values of a client, unsealed. */
export function openSecrets(deps: Pick<Deps, "logger" | "secrets">, row: ChannelClientRow): Record<string, string> {
  if (!row.secrets) return {};
  try {
    return parseJson(deps.secrets.open(row.secrets));
  } catch {
    // Sealed with another instance key: treat as unset so the owner re-enters them.
    deps.logger.warn("channel client secrets cannot be opened with this instance key", { clientId: row.id });
    return {};
  }
}

/** The whole configuration an adapter is given: plain fields and secrets together. */
export function fullConfig(deps: Pick<Deps, "logger" | "secrets">, row: ChannelClientRow): ChannelConfig {
  return { ...parseJson(row.config), ...openSecrets(deps, row) };
}

/** The adapter's I/O for one client: the database key-value store, the instance's API base for the platform. */
export function adapterIO(deps: Pick<Deps, "config" | "db" | "now">, adapter: ChannelAdapter): AdapterIO {
  const kv = databaseKeyValueStore(deps.db, () => deps.now().getTime());
  return {
    fetch: (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(15_000) }),
    apiBase: (deps.config.channels.apiBases[adapter.kind] ?? adapter.descriptor.defaultApiBase).replace(/\/+$/, ""),
    now: () => deps.now().getTime(),
    kv,
    tokens: createTokenCache(kv),
  };
}
