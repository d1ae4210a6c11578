/**
 * Delivers the outbox: events written in the same transaction as the state change
 * they report, delivered at least once. Webhooks and emails run in separate lanes,
 * so a mail server that hangs never holds up a webhook and the other way round.
 * Within the webhook lane each receiver (URL origin) has at most `perReceiver`
 * events in flight, counted in the store over every dispatcher, and a lane claims
 * again as soon as a delivery ends rather than when its whole batch has: a receiver
 * that never answers holds its own slots, not the others'.
 * A failed attempt is retried with exponential back-off (capped interval) up to a
 * capped count; then the event is marked `failed` and stays visible in the store.
 */
import type { OutboxKind, OutboxRecord, PacketStore } from '../store/index.js';

export interface RetryPolicy {
  /** First retry after this long; each next one waits twice as long. Default 30 s. */
  baseMs?: number;
  /** Longest wait between attempts. Default 1 h. */
  maxMs?: number;
  /** Attempts in all before the event is marked failed. Default 10. */
  maxAttempts?: number;
}

/** What a handler tells of a delivered event: the receiver's answer code, when it has one (mail has none). */
export interface Delivered {
  responseCode?: number;
}

/** Delivers one event; resolves when the receiver took it, throws otherwise (the dispatcher retries). */
export type OutboxHandler = (event: OutboxRecord) => Promise<Delivered | void>;

/** A receiver answered and refused the event: the store keeps its answer code with the event. */
export class DeliveryRefused extends Error {
  constructor(
    message: string,
    readonly responseCode: number,
  ) {
    super(message);
    this.name = 'DeliveryRefused';
  }
}

export interface DispatcherOptions {
  store: PacketStore;
  handlers: Record<OutboxKind, OutboxHandler>;
  retry?: RetryPolicy;
  clock?: () => Date;
  /** How often each lane looks for due events when nobody pokes it. Default 1 s. */
  pollMs?: number;
  /** How long a claimed event is this dispatcher's before another may take it. Default 2 min. */
  leaseMs?: number;
  /** Events in flight at once per lane (in this dispatcher). Default 64 webhooks (many receivers), 8 mails (one SMTP server). */
  concurrency?: number;
  /** Webhook events in flight at once per receiver (URL origin), over every dispatcher on the store. Default 2. */
  perReceiver?: number;
  /** Told about each failed attempt (no payload data in it). */
  onError?: (event: { id: string; kind: OutboxKind; attempts: number; error: string; final: boolean }) => void;
}

export function backoffMs(attempts: number, retry: RetryPolicy = {}): number {
  const base = retry.baseMs ?? 30_000;
  const max = retry.maxMs ?? 3_600_000;
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

const KINDS: readonly OutboxKind[] = ['webhook', 'email'];

export class OutboxDispatcher {
  readonly #o: DispatcherOptions;
  readonly #wake = new Map<OutboxKind, () => void>();
  /** Lanes told to look again since their last claim. */
  readonly #woken = new Set<OutboxKind>();
  readonly #lanes: Promise<void>[] = [];
  #running = false;

  constructor(options: DispatcherOptions) {
    this.#o = options;
  }

  #now(): number {
    return (this.#o.clock ?? (() => new Date()))().getTime();
  }

  /** Starts both lanes in the background. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    for (const kind of KINDS) this.#lanes.push(this.#lane(kind));
  }

  /** New events were committed: look now rather than at the next poll. */
  poke(): void {
    for (const kind of KINDS) this.#signal(kind);
  }

  /** Wakes a lane that waits, or makes its next wait return at once (a wake-up during a claim is not lost). */
  #signal(kind: OutboxKind): void {
    this.#woken.add(kind);
    this.#wake.get(kind)?.();
  }

  #concurrency(kind: OutboxKind): number {
    return Math.max(1, this.#o.concurrency ?? (kind === 'webhook' ? 64 : 8));
  }

  #claim(kind: OutboxKind, limit: number): Promise<OutboxRecord[]> {
    const perReceiver = kind === 'webhook' ? (this.#o.perReceiver ?? 2) : undefined;
    return this.#o.store.claimOutbox(kind, this.#now(), limit, this.#o.leaseMs ?? 120_000, perReceiver);
  }

  /**
   * One lane: claims what is due while it has room and starts each delivery without
   * waiting for the others; a delivery that ends frees its slot (and maybe its
   * receiver's) and wakes the lane to claim again.
   */
  async #lane(kind: OutboxKind): Promise<void> {
    const max = this.#concurrency(kind);
    const inFlight = new Set<Promise<void>>();
    while (this.#running) {
      this.#woken.delete(kind);
      let full = false;
      const room = max - inFlight.size;
      if (room > 0) {
        try {
          const events = await this.#claim(kind, room);
          for (const e of events) {
            const delivery: Promise<void> = this.#deliver(e)
              .catch(() => undefined) // the store was unreachable to settle: the lease runs out and it is tried again
              .finally(() => {
                inFlight.delete(delivery);
                this.#signal(kind);
              });
            inFlight.add(delivery);
          }
          full = events.length === room;
        } catch {
          // The store was unreachable: try again at the next poll.
        }
      }
      if (full || !this.#running) continue;
      if (this.#woken.has(kind)) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#o.pollMs ?? 1_000);
        this.#wake.set(kind, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.#wake.delete(kind);
    }
    await Promise.all(inFlight);
  }

  /** Claims and delivers the due events of one lane, waiting for them all; how many were attempted. */
  async deliverDue(kind: OutboxKind): Promise<number> {
    const events = await this.#claim(kind, this.#concurrency(kind));
    await Promise.all(events.map((e) => this.#deliver(e)));
    return events.length;
  }

  async #deliver(event: OutboxRecord): Promise<void> {
    const attempts = event.attempts + 1;
    try {
      const delivered = await this.#o.handlers[event.kind](event);
      await this.#o.store.settleOutbox(event.id, {
        status: 'delivered',
        attempts,
        nextAttemptAt: event.nextAttemptAt,
        lastError: null,
        responseCode: delivered?.responseCode ?? null,
        deliveredAt: this.#now(),
      });
    } catch (e) {
      const error = (e instanceof Error ? e.message : String(e)).slice(0, 500);
      const final = attempts >= (this.#o.retry?.maxAttempts ?? 10);
      this.#o.onError?.({ id: event.id, kind: event.kind, attempts, error, final });
      await this.#o.store.settleOutbox(event.id, {
        status: final ? 'failed' : 'pending',
        attempts,
        nextAttemptAt: this.#now() + backoffMs(attempts, this.#o.retry),
        lastError: error,
        responseCode: e instanceof DeliveryRefused ? e.responseCode : null,
        deliveredAt: null,
      });
    }
  }

  /** Delivers until nothing is due (tests and one-shot jobs); waits for back-off when `untilSettled`. */
  async drain(options: { untilSettled?: boolean; timeoutMs?: number } = {}): Promise<void> {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      const counts = await Promise.all(KINDS.map((k) => this.deliverDue(k)));
      if (counts.some((n) => n > 0)) continue;
      if (!options.untilSettled) return;
      const pending = await this.#o.store.outbox({ status: 'pending' });
      if (pending.length === 0) return;
      if (Date.now() > deadline) throw new Error(`Outbox not settled within ${options.timeoutMs ?? 30_000} ms`);
      const next = Math.min(...pending.map((e) => Math.max(e.nextAttemptAt, e.leaseUntil)));
      await new Promise((r) => setTimeout(r, Math.max(5, Math.min(1_000, next - this.#now()))));
    }
  }

  async close(): Promise<void> {
    this.#running = false;
    this.poke();
    await Promise.all(this.#lanes.splice(0));
  }
}
