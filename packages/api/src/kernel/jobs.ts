/**
 * Jobs: a durable queue in the relational store and one worker loop (jobs/worker.ts) that
 * indexing, channel deliveries and workflow runs all run on, each with its handlers.
 */
export { type EnqueueOptions, enqueueClaimedJob, enqueueJob, type JobRow } from "../jobs/queue";
export { createJobWorker, type JobContext, type JobHandler, type JobWorker, type JobWorkerOptions } from "../jobs/worker";
