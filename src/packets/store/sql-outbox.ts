/** Outbox queries the SQL stores share (sql-store.ts): lanes by receiver, claiming due events, settling them. */
import type { OutboxKind, OutboxOutcome, OutboxRecord } from './records.js';

/**
 * Who an event goes to, for its lane: a webhook's URL origin (scheme, host, port),
 * '' for mail (one SMTP server) and for a URL that does not parse (its delivery fails anyway).
 */
export function outboxReceiver(e: Pick<OutboxRecord, 'kind' | 'payload'>): string {
  if (e.kind !== 'webhook' || typeof e.payload.url !== 'string') return '';
  try {
    return new URL(e.payload.url).origin;
  } catch {
    return '';
  }
}

/**
 * The due events of a lane a dispatcher may take now, oldest first (`?` in order:
 * kind, now, now, kind, now, perReceiver, limit):
 * - a packet's events one at a time, in order: an event is due only when no earlier
 *   event of the same packet and lane is still pending (head of line);
 * - at most `perReceiver` events of one receiver leased at once, counting the leases
 *   of every dispatcher (instances share the store): the events of a receiver that
 *   does not answer wait in the store, not in front of other receivers' events.
 */
export const CLAIMABLE_OUTBOX = `
  WITH due AS (
    SELECT id, receiver, created_at, ROW_NUMBER() OVER (PARTITION BY receiver ORDER BY created_at, id) AS nth FROM outbox
    WHERE kind = ? AND status = 'pending' AND next_attempt_at <= ? AND lease_until <= ? AND NOT EXISTS (
      SELECT 1 FROM outbox earlier WHERE earlier.kind = outbox.kind AND earlier.packet_eid = outbox.packet_eid AND earlier.status = 'pending'
        AND (earlier.created_at < outbox.created_at OR (earlier.created_at = outbox.created_at AND earlier.id < outbox.id)))
  ),
  busy AS (SELECT receiver, COUNT(*) AS n FROM outbox WHERE kind = ? AND status = 'pending' AND lease_until > ? GROUP BY receiver)
  SELECT due.id FROM due LEFT JOIN busy ON busy.receiver = due.receiver
  WHERE due.nth + COALESCE(busy.n, 0) <= ?
  ORDER BY due.created_at, due.id LIMIT ?`;

/** The parameters of `CLAIMABLE_OUTBOX`; without `perReceiver` (mail) no receiver bound. */
export function claimableParams(
  kind: OutboxKind,
  now: number,
  limit: number,
  perReceiver: number | undefined,
): unknown[] {
  return [kind, now, now, kind, now, perReceiver ?? Number.MAX_SAFE_INTEGER, limit];
}

/** The statement recording a delivery attempt's outcome (the lease ends with it). */
export function settleStatement(id: string, c: OutboxOutcome): [string, unknown[]] {
  return [
    'UPDATE outbox SET status = ?, attempts = ?, next_attempt_at = ?, last_error = ?, response_code = ?, delivered_at = ?, lease_until = 0 WHERE id = ?',
    [c.status, c.attempts, c.nextAttemptAt, c.lastError, c.responseCode, c.deliveredAt, id],
  ];
}
