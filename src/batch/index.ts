export { runBatch } from './run-batch.js';
export type { BatchOptions, BatchSummary } from './run-batch.js';
export { runJobLine, renderJob } from './run-job.js';
export type { JobResult, JobEnvironment } from './run-job.js';
export { parseJobLine, outputName, jobSpec } from './job.js';
export type { JobSpec } from './job.js';
export { TemplateFiles } from './templates.js';
export { createProgressReporter, progressLine } from './progress.js';
export type { ProgressReporter, ProgressState } from './progress.js';
