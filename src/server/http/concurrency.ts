import { TooManyRequestsError } from '../../errors/index.js';
import type { KeyEntry } from '../keys.js';

/**
 * Counts the requests each key has in flight. A development key over its limit
 * gets a 429 at once rather than a queue, as the hosted API does; `Retry-After`
 * is an integer because python-anvil does `int()` on it.
 */
export class ConcurrencyLimiter {
  readonly #inFlight = new Map<string, number>();

  /** Takes a slot or throws 429; the returned function gives it back (idempotent). */
  acquire(key: KeyEntry): () => void {
    if (!Number.isFinite(key.concurrency)) return () => {};
    const n = this.#inFlight.get(key.id) ?? 0;
    if (n >= key.concurrency) {
      throw new TooManyRequestsError(
        1,
        `Too many simultaneous requests for this ${key.kind} key (limit ${key.concurrency})`,
      );
    }
    this.#inFlight.set(key.id, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#inFlight.get(key.id) ?? 1) - 1;
      if (left <= 0) this.#inFlight.delete(key.id);
      else this.#inFlight.set(key.id, left);
    };
  }

  count(key: KeyEntry): number {
    return this.#inFlight.get(key.id) ?? 0;
  }
}
