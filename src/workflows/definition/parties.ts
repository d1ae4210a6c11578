/**
 * Pure: who fills which forge. A forge with an `assignee` starts a new party; a forge without one is
 * filled by the party of the forge before it. Party 0 is whoever opened the workflow's public first
 * form. A party's forges are consecutive, its link opens only them (run-access.ts).
 */
import type { WorkflowForm, Workflow } from './definition.js';
import { placeholdersIn, resolvePlaceholders, type SubmittedValues } from './placeholders.js';

/** The party that fills the forge at `index`. */
export function partyOf(workflow: Workflow, index: number): number {
  return workflow.forges.slice(1, index + 1).filter((f) => f.assignee !== undefined).length;
}

/** The forges party `party` fills, in order (none for an unknown party). */
export function formsOf(workflow: Workflow, party: number): WorkflowForm[] {
  return workflow.forges.filter((_f, i) => partyOf(workflow, i) === party);
}

/** The address an email assignee's link goes to, once the forges it names are in; undefined when it has none. */
export function assigneeAddress(forge: WorkflowForm, values: SubmittedValues): string | undefined {
  const a = forge.assignee;
  if (a === undefined || a === 'api') return undefined;
  const v = resolvePlaceholders(a.email, values);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** Whether a definition's address was typed into a form (it holds a placeholder) rather than written by its author. */
const visitorTyped = (address: unknown): boolean =>
  typeof address === 'string' && placeholdersIn(address, '').length > 0;

/**
 * The addresses packet mail would go to that visitors typed and the definition does not trust: every
 * `email` signer (the default type) whose address holds a placeholder and who is not `emailTrusted`.
 * `resolved` is the packet's arguments with the run's values in; lower-cased, each once.
 */
export function addressesToConfirm(workflow: Workflow, resolved: Record<string, unknown>): string[] {
  const signers = Array.isArray(resolved.signers) ? (resolved.signers as Array<Record<string, unknown>>) : [];
  const out = new Set<string>();
  workflow.packet.signers.forEach((defined, i) => {
    const s = signers[i];
    if (!s || defined.emailTrusted === true || !visitorTyped(defined.email)) return;
    if ((s.signerType ?? 'email') !== 'email' || typeof s.email !== 'string' || s.email.trim() === '') return;
    out.add(s.email.trim().toLowerCase());
  });
  return [...out];
}
