/**
 * `castpress/batch`: JSON-lines jobs, on worker threads or on a BullMQ queue (bullmq and ioredis
 * load only when a queue function is called). Exactly the names the README's "Entry points"
 * section lists (test/package.test.ts).
 *
 * @module castpress/batch
 */
export { runBatch, runJobLine, renderJob, parseJobLine, TemplateFiles } from '../batch/index.js';
export type { BatchOptions, BatchSummary, JobResult, JobEnvironment, JobSpec } from '../batch/index.js';
export { createQueueWorker, enqueueBatch, watchBatch } from '../batch/index.js';
export type {
  QueueWorker,
  QueueWorkerOptions,
  RenderedJob,
  EnqueueOptions,
  EnqueuedBatch,
  WatchOptions,
  QueueBatchSummary,
  QueueConnection,
} from '../batch/index.js';
