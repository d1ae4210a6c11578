/**
 * Routing order, pure: which signers may sign now, which pending signers are
 * skipped, and what the packet's status becomes. Signers with equal
 * `routingOrder` sign in any order; a higher value waits for all lower ones.
 * A pending signer (not activated) is skipped when its round comes and only
 * pending signers are left in it.
 */
import type { PacketStatus, SignerStatus } from '../../store/index.js';

export interface RoutedSigner {
  eid: string;
  routingOrder: number;
  status: SignerStatus;
  /** Pending and not activated. */
  pending: boolean;
}

export interface Routing {
  /** The routing order signing now; null when every signer has finished or was skipped. */
  order: number | null;
  /** Signers who may sign now (activated, not completed). */
  current: string[];
  /** Pending signers whose round has come with only pending signers left: to be marked skipped. */
  skip: string[];
}

const done = (s: RoutedSigner) => s.status === 'completed' || s.status === 'skipped';

export function route(signers: readonly RoutedSigner[]): Routing {
  const orders = [...new Set(signers.map((s) => s.routingOrder))].sort((a, b) => a - b);
  const skip: string[] = [];
  for (const order of orders) {
    const open = signers.filter((s) => s.routingOrder === order && !done(s));
    if (open.length === 0) continue;
    const active = open.filter((s) => !s.pending);
    if (active.length === 0) {
      skip.push(...open.map((s) => s.eid));
      continue;
    }
    return { order, current: active.map((s) => s.eid), skip };
  }
  return { order: null, current: [], skip };
}

/** The packet's status once `signers` are as given (a draft stays a draft). */
export function packetStatus(current: PacketStatus, signers: readonly RoutedSigner[], routing: Routing): PacketStatus {
  if (current === 'draft') return 'draft';
  if (routing.order === null) return 'complete';
  return signers.some((s) => s.status === 'completed') ? 'partial' : 'sent';
}

/** The redirect parameter spells the group's status `completed`, `partial` or `sent`. */
export function redirectGroupStatus(status: PacketStatus): 'completed' | 'partial' | 'sent' {
  return status === 'complete' ? 'completed' : status === 'partial' ? 'partial' : 'sent';
}
