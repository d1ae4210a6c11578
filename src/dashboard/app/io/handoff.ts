/**
 * What one screen hands the next without a round trip: an upload's detected proposals go to the
 * editor it opens (the editor fetches them again when there are none waiting).
 */
import type { Proposal } from '../model/types.js';

const waiting = new Map<string, Proposal[]>();

export function handProposals(eid: string, proposals: Proposal[]): void {
  waiting.set(eid, proposals);
}

/** The proposals waiting for `eid` (once). */
export function takeProposals(eid: string): Proposal[] | undefined {
  const p = waiting.get(eid);
  waiting.delete(eid);
  return p;
}
