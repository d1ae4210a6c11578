/** A place in the queue for a slot; `cancelled` once its job gave up waiting (deadline), so it is skipped. */
export interface Waiter {
  grant: () => void;
  cancelled: boolean;
}

/** The pool's job slots: at most `size` jobs hold a page; the others wait in order (browser-pool.ts). */
export class Slots {
  #busy = 0;
  readonly #waiters: Waiter[] = [];
  readonly #size: number;

  constructor(size: number) {
    this.#size = size;
  }

  async take(waiter: Waiter): Promise<void> {
    if (this.#busy < this.#size) {
      this.#busy++;
      return;
    }
    await new Promise<void>((resolve) => {
      waiter.grant = resolve;
      this.#waiters.push(waiter);
    });
  }

  /** Hands the slot to the next live waiter (one that has not timed out), or frees it. */
  release(): void {
    for (;;) {
      const next = this.#waiters.shift();
      if (!next) {
        this.#busy--;
        return;
      }
      if (!next.cancelled) {
        next.grant();
        return;
      }
    }
  }
}
