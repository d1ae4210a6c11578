import type { ErrorBody } from '../../errors/index.js';

/** What a queued job carries: its line and where the files it names are found. */
export interface QueueJobData {
  line: string;
  lineNumber: number;
  /** The jobs file's folder: template files are relative to it (a path every worker sees). */
  baseDir: string;
}

/** Retries of a job that crashed or timed out, and the first back-off delay (doubled each time). */
export const DEFAULT_ATTEMPTS = 4;
export const DEFAULT_BACKOFF_MS = 1000;

/** A job's id: the jobs file's content hash and the line, so adding the same file twice adds nothing. */
export function queueJobId(fileHash: string, lineNumber: number): string {
  return `${fileHash.slice(0, 24)}-${lineNumber}`;
}

/** A failure as the queue stores it (the job's failedReason) and errors.jsonl shows it. */
export interface JobFailure {
  status: number;
  error: ErrorBody;
}

export function encodeFailure(f: JobFailure): string {
  return JSON.stringify(f);
}

/** Reads a failedReason back: ours are JSON; anything else (a crash, a timeout) is a 500. */
export function decodeFailure(reason: string | undefined): JobFailure {
  if (reason) {
    try {
      const parsed = JSON.parse(reason) as Partial<JobFailure>;
      if (typeof parsed.status === 'number' && parsed.error && typeof parsed.error.name === 'string')
        return parsed as JobFailure;
    } catch {
      // not ours: fall through
    }
  }
  return { status: 500, error: { name: 'WorkerError', message: reason || 'Job failed', fields: [] } };
}
