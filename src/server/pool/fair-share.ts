/**
 * Who runs next on the render pool's threads. Each lane (an organization) has its own queue; a
 * freed thread goes to the waiting lane with the fewest jobs running, and among those to the one
 * served least recently (a lane seen for the first time first), up to a cap of threads per lane. So
 * one organization's backlog delays another's job by at most the jobs already running, never by the
 * backlog itself. A lane's own jobs keep their order (first come, first served).
 */
import { RenderError } from '../../errors/index.js';

export interface FairShareOptions {
  /** Jobs running at once, all lanes together (the pool's threads). */
  slots: number;
  /** Jobs one lane may run at once (default `slots`: a lane alone may use every thread). */
  perLane?: number;
  /** Jobs one lane may have waiting; one more is refused (503). Default 64. */
  maxWaiting?: number;
}

interface Lane {
  running: number;
  /** When a job of the lane last started (a tick of the share's counter; 0: never). */
  served: number;
  /** Each waiting job's start. */
  waiting: Array<() => void>;
}

export class FairShare {
  readonly slots: number;
  readonly perLane: number;
  readonly #maxWaiting: number;
  readonly #lanes = new Map<string, Lane>();
  #running = 0;
  #tick = 0;

  constructor(options: FairShareOptions) {
    this.slots = Math.max(1, options.slots);
    this.perLane = Math.min(this.slots, Math.max(1, options.perLane ?? this.slots));
    this.#maxWaiting = options.maxWaiting ?? 64;
  }

  /**
   * Runs `job` once `lane` has its turn and a slot. `signal` aborted while it waits takes it out of
   * the queue (the returned promise rejects with the signal's reason); once started, the job itself
   * answers to the signal.
   */
  async run<T>(lane: string, job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#admit(lane, signal);
    try {
      return await job();
    } finally {
      this.#finish(lane);
    }
  }

  /** Jobs waiting for their turn and jobs running, all lanes together. */
  counts(): { waiting: number; running: number } {
    let waiting = 0;
    for (const lane of this.#lanes.values()) waiting += lane.waiting.length;
    return { waiting, running: this.#running };
  }

  #lane(name: string): Lane {
    let lane = this.#lanes.get(name);
    if (!lane) {
      lane = { running: 0, served: 0, waiting: [] };
      this.#lanes.set(name, lane);
    }
    return lane;
  }

  #admit(name: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const lane = this.#lane(name);
    // Nobody waits ahead of it in its lane, and a slot and the lane's cap allow it: it starts now.
    if (lane.waiting.length === 0 && this.#running < this.slots && lane.running < this.perLane) {
      this.#start(lane);
      return Promise.resolve();
    }
    if (lane.waiting.length >= this.#maxWaiting)
      return Promise.reject(new RenderError('Too many requests are waiting for a worker thread', 503));
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = lane.waiting.indexOf(waiter);
        if (at >= 0) lane.waiting.splice(at, 1);
        this.#forget(name, lane);
        reject(signal?.reason);
      };
      const waiter = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      lane.waiting.push(waiter);
    });
  }

  #start(lane: Lane): void {
    lane.running++;
    lane.served = ++this.#tick;
    this.#running++;
  }

  #finish(name: string): void {
    const lane = this.#lane(name);
    lane.running--;
    this.#running--;
    this.#forget(name, lane);
    this.#dispatch();
  }

  /** Gives free slots to waiting jobs: the lane with the fewest running, then the one served least recently. */
  #dispatch(): void {
    while (this.#running < this.slots) {
      let next: Lane | undefined;
      for (const lane of this.#lanes.values()) {
        if (lane.waiting.length === 0 || lane.running >= this.perLane) continue;
        if (!next || lane.running < next.running || (lane.running === next.running && lane.served < next.served))
          next = lane;
      }
      const waiter = next?.waiting.shift();
      if (!next || !waiter) return;
      this.#start(next);
      waiter();
    }
  }

  /** A lane with nothing running or waiting is dropped (lanes come and go with the organizations that send work). */
  #forget(name: string, lane: Lane): void {
    if (lane.running === 0 && lane.waiting.length === 0) this.#lanes.delete(name);
  }
}
