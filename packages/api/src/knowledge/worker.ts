import type { Deps } from "../http/context";
import { createJobWorker, type JobWorker } from "../jobs/worker";
import { INDEX_FILE_JOB } from "./service/files";
import { indexFileHandler, markIndexingFailed } from "./service/indexing";

/**
 * The background worker that indexes confirmed knowledge files. A file whose worker died is
 * picked up again once its lease expires (also after a restart).
 */
export function createKnowledgeWorker(deps: Deps, options: { leaseMs?: number; idleMs?: number } = {}): JobWorker {
  return createJobWorker({
    db: deps.db,
    logger: deps.logger,
    now: deps.now,
    handlers: { [INDEX_FILE_JOB]: indexFileHandler(deps) },
    leaseMs: options.leaseMs ?? 30_000,
    idleMs: options.idleMs ?? 250,
    onGiveUp: (job) => markIndexingFailed(deps, job),
  });
}
