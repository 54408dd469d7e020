import type { Deps } from "../kernel";
import type { JobWorker } from "../jobs/worker";
import { jobsOf } from "../kernel/jobs";
import { INDEX_FILE_JOB } from "./service/files";
import { indexFileHandler, markIndexingFailed } from "./service/indexing";

/** Files indexed at once by one server with the offline embedder. */
export const INDEX_CONCURRENCY = 16;

/** Most files indexed at once, whatever the embedder. */
export const MAX_INDEX_CONCURRENCY = 64;

/**
 * Files indexed at once: 16, or with a remote embedder enough files to fill every batch allowed
 * in flight (batch size × concurrency texts; a small file is a chunk or two), at most 64. With
 * 16 files of one chunk each, a local model server got one partial batch at a time and ingestion
 * reached 0.74 of the server's own batch throughput.
 */
export function indexConcurrency(config: Pick<Deps["config"], "knowledge">): number {
  const remote = config.knowledge.embeddings;
  if (!remote) return INDEX_CONCURRENCY;
  const texts = remote.batchSize * remote.concurrency;
  return Math.min(MAX_INDEX_CONCURRENCY, Math.max(INDEX_CONCURRENCY, texts));
}

/**
 * The background worker that indexes confirmed knowledge files, taking turns between spaces. A
 * file whose worker died is picked up again once its lease expires (also after a restart).
 */
export function createKnowledgeWorker(deps: Deps, options: { leaseMs?: number; idleMs?: number; concurrency?: number } = {}): JobWorker {
  const concurrency = options.concurrency ?? indexConcurrency(deps.config);
  return jobsOf(deps).worker({
    logger: deps.logger,
    handlers: { [INDEX_FILE_JOB]: indexFileHandler(deps) },
    leaseMs: options.leaseMs ?? 30_000,
    idleMs: options.idleMs ?? 250,
    // Files are indexed 16 at a time so their vector writes are committed together: on the CMRC
    // set (1,104 small files) ingestion went from 64 chunks/s at 1 and 4 to 205 at 16 (222 at 32).
    concurrency,
    // Fair between spaces: one space's large import does not hold another's files back. The cap
    // is the lanes of one server, so a space alone still indexes as many at a time.
    fairness: { perSpace: concurrency },
    onGiveUp: (job) => markIndexingFailed(deps, job),
  });
}
