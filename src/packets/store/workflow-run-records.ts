/**
 * What the workflows (src/workflows) keep in the packet store, one record per table (migration 5).
 * They live here, beside the packets' tables, so that a forge submission, the run it belongs to and
 * the outbox event it may cause commit in one transaction of the same database.
 */

/**
 * A run's state: `open` while forges remain; `confirming` while addresses typed into its forms wait
 * for their owners to confirm them (no packet mail goes to them before); `submitted` once every forge
 * is in (the packet is being made); `sent` once its packet exists; `completed` when the packet
 * completed and weldComplete was queued; `failed` when its packet could not be made after every retry.
 */
export type WeldDataStatus = 'open' | 'confirming' | 'submitted' | 'sent' | 'completed' | 'failed';

/** One run of a workflow (a WeldData). */
export interface WeldDataRecord {
  eid: string;
  weldEid: string;
  /** The definition's version the run was started with (it keeps it when a newer one is published). */
  weldVersion: number;
  organization: string;
  status: WeldDataStatus;
  isTest: boolean;
  displayTitle: string;
  packetEid: string | null;
  /** Why the packet could not be made (retried until `failed`): the typed error `{name, message, fields}` as JSON. */
  lastError: string | null;
  /** Attempts at making the packet that failed, and when the next one is due (epoch ms). */
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
  version: number;
}

/** A forge's resolved field: `{type, value, label}` as the weldComplete webhook shows it. */
export interface ResolvedValue {
  type: string;
  value: unknown;
  label: string;
}

/** One forge submission of a run. */
export interface SubmissionRecord {
  eid: string;
  weldDataEid: string;
  forgeEid: string;
  forgeSlug: string;
  /** Its place in the run: 0 for the first forge's submission (forges are submitted in the definition's order). */
  index: number;
  resolvedPayload: Record<string, ResolvedValue>;
  createdAt: number;
}

/**
 * A token of a run (migration 7; only its SHA-256 is kept): `party` opens the forms of one party of
 * the run (0: whoever started it); `confirm` proves that `email`, an address typed into a form, is
 * its owner's (`usedAt`: when it was confirmed).
 */
export interface RunTokenRecord {
  hash: string;
  weldDataEid: string;
  kind: 'party' | 'confirm';
  party: number;
  email: string | null;
  createdAt: number;
  usedAt: number | null;
}

export interface WorkflowRunQueries {
  weldData(eid: string): Promise<WeldDataRecord | undefined>;
  /** The runs of a workflow, oldest first. */
  weldDatas(weldEid: string): Promise<WeldDataRecord[]>;
  /** Runs waiting for their packet whose next attempt is due at `now`, the longest waiting first. */
  weldDatasDue(now: number, limit: number): Promise<WeldDataRecord[]>;
  /** Runs still `sent` whose packet is complete (joined in the database: open packets are never read). */
  weldDatasCompleted(limit: number): Promise<WeldDataRecord[]>;
  /** The token with this hash, if any. */
  weldToken(hash: string): Promise<RunTokenRecord | undefined>;
  /** A run's tokens of one kind. */
  weldTokens(weldDataEid: string, kind: RunTokenRecord['kind']): Promise<RunTokenRecord[]>;
  /** A run's submissions in the order they were made (by their place, not their time: two can share a millisecond). */
  submissions(weldDataEid: string): Promise<SubmissionRecord[]>;
  submission(eid: string): Promise<SubmissionRecord | undefined>;
}

export interface WorkflowRunWrites extends WorkflowRunQueries {
  insertWeldData(w: WeldDataRecord): Promise<void>;
  /** Writes `w` with `version + 1` when the stored version is still `w.version`; false when someone else changed it. */
  updateWeldData(w: WeldDataRecord): Promise<boolean>;
  /** Fails (unique constraint) when the run already has a submission of that forge, or the eid is taken. */
  insertSubmission(s: SubmissionRecord): Promise<void>;
  insertWeldToken(t: RunTokenRecord): Promise<void>;
  /** Marks the token used at `at` unless it was; true when this call did. */
  useWeldToken(hash: string, at: number): Promise<boolean>;
}
