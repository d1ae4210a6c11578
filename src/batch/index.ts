export { runBatch } from './run-batch.js';
export type { BatchOptions, BatchSummary } from './run-batch.js';
export { runJobLine, renderJob } from './run-job.js';
export type { JobResult, JobEnvironment } from './run-job.js';
export { parseJobLine, outputName } from './job.js';
export type { JobSpec } from './job.js';
export { TemplateFiles } from './templates.js';
export { createProgressReporter, progressLine } from './progress.js';
export type { ProgressReporter, ProgressState } from './progress.js';
export { enqueueBatch, watchBatch } from './queue/enqueue.js';
export type { EnqueueOptions, EnqueuedBatch, WatchOptions, QueueBatchSummary } from './queue/enqueue.js';
export { createQueueWorker } from './queue/worker.js';
export type { QueueWorker, QueueWorkerOptions, RenderedJob } from './queue/worker.js';
export { DEFAULT_QUEUE_NAME } from './queue/connection.js';
export type { QueueConnection } from './queue/connection.js';
export { writeAtomic, sweepTemporaries } from './atomic.js';
export { WORKER_FILE } from './worker-file.js';
export type { RequestJob, RequestTask, RequestOutcome, WorkerTask, JsonTask, JsonOutcome } from './worker.js';
export type {
  PacketStep,
  PacketOutcome,
  PacketResult,
  SigningIdentityOptions,
  ThreadTimestampOptions,
} from './packet-task.js';
export { prepareTemplatePdf } from './template-task.js';
export type { TemplateTask, TemplateOutcome } from './template-task.js';
