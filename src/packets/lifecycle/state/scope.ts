/**
 * Who is asking about packets. The server passes the caller's API key as a scope; the
 * library used directly passes none and sees every packet. A packet outside the scope
 * is answered exactly as an unknown one (same error, same status): a key learns nothing
 * about another organization's packets, not even that an eid exists.
 */
import type { PacketRecord } from '../../store/index.js';

export interface PacketScope {
  /** The caller's organization: packets it creates belong to it, and only those are visible. */
  organization: string;
  /** Development keys: packets they create are test packets, and they see no others. */
  testOnly: boolean;
}

export function visibleTo(
  packet: Pick<PacketRecord, 'organization' | 'isTest'>,
  scope: PacketScope | undefined,
): boolean {
  if (!scope) return true;
  return packet.organization === scope.organization && (packet.isTest || !scope.testOnly);
}
