import type { Redis } from 'ioredis';

type FinishedSet = 'completed' | 'failed';

/** A full pass over the pending ids every this many polls (and on the first). */
const FULL_PASS_EVERY = 20;
const CHUNK = 1000;

/**
 * Which jobs of one batch BullMQ has finished, asked so that a poll costs what finished since the
 * last one, not what the batch holds. BullMQ keeps finished jobs in sorted sets scored by the time a
 * worker finished them: each poll reads the entries scored from the highest one already read, and
 * picks this batch's ids out of them. A worker whose clock runs behind can score a job below what
 * was read; the full pass (ZMSCORE of the ids still pending) finds those, on the first poll and
 * every FULL_PASS_EVERY polls after, so such a job is counted late, never lost.
 */
export class FinishedJobs {
  readonly #pending: Set<string>;
  readonly #since: Record<FinishedSet, string | undefined> = { completed: undefined, failed: undefined };
  #polls = 0;
  #fullPassDue = true;
  completed = 0;
  readonly failedIds: string[] = [];

  constructor(
    jobIds: readonly string[],
    private readonly redis: Redis,
    private readonly keyOf: (set: FinishedSet) => string,
  ) {
    this.#pending = new Set(jobIds);
  }

  get pending(): number {
    return this.#pending.size;
  }

  /** Reads what finished since the last poll; a poll that fails (Redis restarting) can be repeated. */
  async poll(): Promise<void> {
    const full = this.#fullPassDue || this.#polls % FULL_PASS_EVERY === 0;
    this.#polls++;
    this.#fullPassDue = true;
    for (const set of ['completed', 'failed'] as const) {
      const key = this.keyOf(set);
      if (this.#since[set] === undefined) {
        // The newest score before the first full pass: what finishes after it is read incrementally.
        const [, top] = await this.redis.zrevrangebyscore(key, '+inf', '-inf', 'WITHSCORES', 'LIMIT', 0, 1);
        this.#since[set] = top ?? '-inf';
      } else {
        const entries = await this.redis.zrangebyscore(key, this.#since[set], '+inf', 'WITHSCORES');
        for (let i = 0; i < entries.length; i += 2) {
          this.#record(set, entries[i]);
          this.#since[set] = entries[i + 1];
        }
      }
      if (full) await this.#fullPass(set, key);
    }
    this.#fullPassDue = false;
  }

  async #fullPass(set: FinishedSet, key: string): Promise<void> {
    const ids = [...this.#pending];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const scores = await this.redis.zmscore(key, ...chunk);
      scores.forEach((score, k) => score !== null && this.#record(set, chunk[k]));
    }
  }

  #record(set: FinishedSet, id: string): void {
    if (!this.#pending.delete(id)) return;
    if (set === 'completed') this.completed++;
    else this.failedIds.push(id);
  }
}
