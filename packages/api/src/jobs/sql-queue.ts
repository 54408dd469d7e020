import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { JobQueue } from "./port";
import { enqueueClaimedJob, enqueueJob } from "./queue";
import { createJobWorker } from "./worker";

/** The embedded default of the jobs port: the `jobs` table of the relational store, polled by in-process workers. */
export function createSqlJobQueue(store: { db: Db; now: () => Date }): JobQueue {
  return {
    backend: "sql",
    enqueue: (kind, payload, options) => enqueueJob(store.db, store.now(), kind, payload, options),
    enqueueClaimed: (kind, payload, options) => enqueueClaimedJob(store.db, store.now(), kind, payload, options),
    worker: (options) => createJobWorker({ ...options, db: store.db, now: store.now }),
    async hasLive(kind, field, value) {
      const live = await store.db.all<{ id: string }>(
        sql`SELECT id FROM jobs WHERE kind = ${kind} AND status IN ('queued', 'running') AND json_extract(payload, ${`$.${field}`}) = ${value} LIMIT 1`,
      );
      return live.length > 0;
    },
    close: async () => undefined,
  };
}
