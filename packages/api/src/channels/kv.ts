import type { KeyValueStore } from "@parley/channels";
import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { keyValues } from "../db/schema/index";

/**
 * The adapters' key-value store in the database, so every server process shares webhook
 * de-duplication, platform tokens and sync cursors. Expired entries count as absent and are
 * swept by {@link sweepKeyValues}.
 */
export function databaseKeyValueStore(db: Db, now: () => number): KeyValueStore {
  const liveKey = (key: string) => and(eq(keyValues.key, key), or(isNull(keyValues.expiresAt), gt(keyValues.expiresAt, now())));
  const expiry = (ttlSeconds: number | undefined) => (ttlSeconds === undefined ? null : now() + Math.round(ttlSeconds * 1000));
  return {
    async get(key) {
      const row = await db.select({ value: keyValues.value }).from(keyValues).where(liveKey(key)).get();
      return row?.value;
    },
    async set(key, value, ttlSeconds) {
      const expiresAt = expiry(ttlSeconds);
      await db.insert(keyValues).values({ key, value, expiresAt }).onConflictDoUpdate({ target: keyValues.key, set: { value, expiresAt } });
    },
    async setIfAbsent(key, value, ttlSeconds) {
      const expiresAt = expiry(ttlSeconds);
      // One statement: insert, or take over an expired entry; a live one is left alone.
      const written = await db
        .insert(keyValues)
        .values({ key, value, expiresAt })
        .onConflictDoUpdate({
          target: keyValues.key,
          set: { value, expiresAt },
          setWhere: sql`${keyValues.expiresAt} IS NOT NULL AND ${keyValues.expiresAt} <= ${now()}`,
        })
        .returning({ key: keyValues.key });
      return written.length > 0;
    },
    async delete(key) {
      await db.delete(keyValues).where(eq(keyValues.key, key));
    },
  };
}

/** Deletes expired entries; answers how many went. */
export async function sweepKeyValues(db: Db, nowMs: number): Promise<number> {
  const removed = await db.delete(keyValues).where(lte(keyValues.expiresAt, nowMs)).returning({ key: keyValues.key });
  return removed.length;
}
