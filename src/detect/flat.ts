/**
 * A flat page's field (cells.ts) as a proposal: typed by its shape, and by its label where the
 * label says what goes in (a signature, a date, an e-mail address), named by the nearest label.
 */
import type { FlatField } from './cells.js';
import { labelsFor } from './labels.js';
import type { Phrase } from './phrases.js';
import type { FieldProposal, ProposedField } from './types.js';

/** Boxes at least this tall take several lines of text. */
const TALL = 36;

/** How sure each shape is to be a field (less without a label). */
const CONFIDENCE: Record<FlatField['kind'], number> = {
  comb: 0.8,
  checkbox: 0.75,
  radio: 0.75,
  box: 0.7,
  underline: 0.6,
};

/** What a label says goes in a text field, when it says so plainly. */
function typeFromLabel(label: string | undefined): 'signature' | 'date' | 'email' | undefined {
  if (!label) return undefined;
  if (/\b(signature|sign here|signez|firma|unterschrift)\b/iu.test(label)) return 'signature';
  if (/\b(e-?mail|courriel)\b/iu.test(label)) return 'email';
  if (/^(date|datum|fecha)\b|\bdate$/iu.test(label)) return 'date';
  return undefined;
}

/** The proposals of a flat page's fields, named by the nearest labels (all of the page's at once). */
export function flatProposals(found: FlatField[], pageNum: number, phrases: Phrase[]): FieldProposal[] {
  const items = found.flatMap((f) => [
    { rect: f.rect, kind: f.kind === 'checkbox' ? ('check' as const) : ('text' as const) },
    ...(f.options ?? []).map((rect) => ({ rect, kind: 'check' as const })),
  ]);
  const labels = labelsFor(items, phrases);
  let at = 0;
  return found.map((f) => {
    const label = labels[at++];
    const optionLabels = (f.options ?? []).map(() => labels[at++]);
    return proposalOf(f, pageNum, label, optionLabels);
  });
}

function proposalOf(
  f: FlatField,
  pageNum: number,
  label: string | undefined,
  optionLabels: Array<string | undefined>,
): FieldProposal {
  const base = { id: f.kind, pageNum, rect: f.rect };
  let field: ProposedField;
  if (f.kind === 'comb') field = { ...base, type: 'charList', cells: f.cells ?? 1 };
  else if (f.kind === 'checkbox') field = { ...base, type: 'checkbox' };
  else if (f.kind === 'radio') {
    // Option ids are the values a fill sends: unique within the group.
    const seen = new Set<string>();
    const options = (f.options ?? []).map((rect, i) => {
      const named = optionLabels[i] ?? `option${i + 1}`;
      let id = named;
      for (let n = 2; seen.has(id); n++) id = `${named} ${n}`;
      seen.add(id);
      return { id, rect };
    });
    field = { ...base, type: 'radioGroup', options };
  } else
    field = {
      ...base,
      type: typeFromLabel(label) ?? (f.kind === 'box' && f.rect.height >= TALL ? 'longText' : 'shortText'),
    };
  return {
    field,
    source: f.kind === 'radio' ? 'checkbox' : f.kind,
    confidence: Math.round((CONFIDENCE[f.kind] - (label ? 0 : 0.15)) * 100) / 100,
    ...(label ? { label, labelFrom: 'text' as const } : {}),
  };
}
