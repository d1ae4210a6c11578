/** Pure: how far a run is. Steps are the forges and the packet's signers; done are submissions and signers who signed. */
import type { SignerRecord, SubmissionRecord, WeldDataRecord } from '../../packets/index.js';
import type { Workflow } from '../definition/definition.js';

export function completionPercentage(
  workflow: Workflow,
  run: WeldDataRecord,
  submissions: readonly SubmissionRecord[],
  signers: readonly SignerRecord[],
): number {
  if (run.status === 'completed') return 100;
  // Before the packet exists its signers are the definition's.
  const signerSteps = run.packetEid ? signers.length : workflow.packet.signers.length;
  const total = workflow.forges.length + signerSteps;
  const done = submissions.length + signers.filter((s) => s.status === 'completed').length;
  return total === 0 ? 0 : Math.round((1000 * done) / total) / 10;
}
