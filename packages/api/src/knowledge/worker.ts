import type { Deps } from "../kernel";
import { createJobWorker, type JobWorker } from "../jobs/worker";
import { INDEX_FILE_JOB } from "./service/files";
import { indexFileHandler, markIndexingFailed } from "./service/indexing";

/** Files indexed at once by one server. */
export const INDEX_CONCURRENCY = 16;

/**
 * The background worker that indexes confirmed knowledge files, taking turns between spaces. A
 * file whose worker died is picked up again once its lease expires (also after a restart).
 */
export function createKnowledgeWorker(deps: Deps, options: { leaseMs?: number; idleMs?: number; concurrency?: number } = {}): JobWorker {
  const concurrency = options.concurrency ?? INDEX_CONCURRENCY;
  return createJobWorker({
    db: deps.db,
    logger: deps.logger,
    now: deps.now,
    handlers: { [INDEX_FILE_JOB]: indexFileHandler(deps) },
    leaseMs: options.leaseMs ?? 30_000,
    idleMs: options.idleMs ?? 250,
    // Files are indexed 16 at a time so their vector writes are committed together: on the CMRC
    // set (1,104 small files) ingestion went from 64 chunks/s at 1 and 4 to 205 at 16 (222 at 32).
    concurrency,
    // Fair between spaces: one space's large import does not hold another's files back. The cap
    // is the lanes of one server, so a space alone still indexes 16 at a time.
    fairness: { perSpace: concurrency },
    onGiveUp: (job) => markIndexingFailed(deps, job),
  });
}
