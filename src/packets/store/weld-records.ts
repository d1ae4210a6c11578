/**
 * What the workflows (src/welds) keep in the packet store, one record per table (migration 5).
 * They live here, beside the packets' tables, so that a forge submission, the run it belongs to and
 * the outbox event it may cause commit in one transaction of the same database.
 */

/**
 * A run's state: `open` while forges remain; `submitted` once every forge is in (the packet is being
 * made); `sent` once its packet exists; `completed` when the packet completed and weldComplete was queued.
 */
export type WeldDataStatus = 'open' | 'submitted' | 'sent' | 'completed';

/** One run of a workflow (a WeldData). */
export interface WeldDataRecord {
  eid: string;
  weldEid: string;
  /** The definition's version the run was started with (it keeps it when a newer one is published). */
  weldVersion: number;
  organization: string;
  status: WeldDataStatus;
  isTest: boolean;
  /** SHA-256 (hex) of the run's access token (the token is in the form's URL only). */
  tokenHash: string;
  displayTitle: string;
  packetEid: string | null;
  /** Why the packet could not be made yet (retried). */
  lastError: string | null;
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

export interface WeldQueries {
  weldData(eid: string): Promise<WeldDataRecord | undefined>;
  /** The runs of a workflow, oldest first. */
  weldDatas(weldEid: string): Promise<WeldDataRecord[]>;
  /** Runs in one status, oldest first (the reconciler's work list). */
  weldDatasIn(status: WeldDataStatus, limit: number): Promise<WeldDataRecord[]>;
  /** A run's submissions in the order they were made (by their place, not their time: two can share a millisecond). */
  submissions(weldDataEid: string): Promise<SubmissionRecord[]>;
  submission(eid: string): Promise<SubmissionRecord | undefined>;
}

export interface WeldWrites extends WeldQueries {
  insertWeldData(w: WeldDataRecord): Promise<void>;
  /** Writes `w` with `version + 1` when the stored version is still `w.version`; false when someone else changed it. */
  updateWeldData(w: WeldDataRecord): Promise<boolean>;
  /** Fails (unique constraint) when the run already has a submission of that forge, or the eid is taken. */
  insertSubmission(s: SubmissionRecord): Promise<void>;
}
