import type { Db } from "./client";

const caches = new WeakMap<object, Map<string, unknown>>();

/**
 * A drizzle prepared query built once per database and reused: the hot path of a chat turn
 * runs the same dozen queries, and building their SQL anew each time cost more than running
 * them. `build` must use `sql.placeholder(...)` for every value.
 */
export function prepared<T>(db: Db, key: string, build: () => T): T {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let query = cache.get(key) as T | undefined;
  if (query === undefined) {
    query = build();
    cache.set(key, query);
  }
  return query;
}
