/**
 * A fillable PDF's own fields as proposals: the importer's reading of the form (src/acroform,
 * typed by src/fields' import order) plus signature fields, each named for people by its
 * tooltip, else by the nearest label on its page, else by the last part of its field name.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import { formFieldsOf, type AcroFieldFacts } from '../acroform/index.js';
import { importedType, type FieldType, type TemplateField } from '../fields/index.js';
import { cleanLabel, labelsFor } from './labels.js';
import type { Phrase } from './phrases.js';
import type { FieldProposal, ProposedField } from './types.js';

type Props = Partial<TemplateField> & { tooltip?: string };

function classify(facts: AcroFieldFacts): { type: FieldType | 'signature'; props: Props } | undefined {
  const tooltip = facts.tooltip ? { tooltip: facts.tooltip } : {};
  if (facts.kind === 'signature') return { type: 'signature', props: tooltip };
  const imported = importedType(facts);
  return imported && { type: imported.type, props: { ...imported.props, ...tooltip } };
}

/** `topmostSubform[0].Page1[0].f1_1[0]` → `f1_1`. */
export function partialName(name: string): string {
  const last = name.split('.').at(-1) ?? name;
  return last.replace(/\[\d+\]$/u, '').trim() || name;
}

/**
 * The proposals of a loaded document's form (aliases and ids are given later, over the whole
 * result). `phrasesOn(page)` gives a page's phrases for naming fields without a tooltip;
 * `tooltips` false names every field from its page (and keeps the tooltip beside, to compare).
 */
export function acroformProposals(
  doc: PDFDocument,
  phrasesOn: (pageNum: number) => Phrase[],
  tooltips = true,
): FieldProposal[] {
  const found = formFieldsOf(doc, classify).map(({ tooltip, ...imported }) => ({
    field: imported as ProposedField,
    fromTip: tooltip && tooltips ? cleanLabel(tooltip) : undefined,
    tooltip,
  }));
  // Fields without a tooltip are named from their page, all of a page's at once (labelsFor).
  const fromText = new Map<(typeof found)[number], string | undefined>();
  const pages = new Set(found.filter((f) => !f.fromTip).map((f) => f.field.pageNum));
  for (const pageNum of pages) {
    const unnamed = found.filter((f) => !f.fromTip && f.field.pageNum === pageNum);
    const labels = labelsFor(
      unnamed.map((f) => ({ rect: f.field.rect, kind: f.field.type === 'checkbox' ? 'check' : 'text' })),
      phrasesOn(pageNum),
    );
    unnamed.forEach((f, i) => fromText.set(f, labels[i]));
  }
  return found.map((f) => {
    const text = fromText.get(f);
    return {
      field: f.field,
      source: 'acroform',
      confidence: 0.98,
      label: f.fromTip ?? text ?? partialName(f.field.acroFieldName ?? f.field.id),
      labelFrom: f.fromTip ? 'tooltip' : text ? 'text' : 'fieldName',
      ...(f.tooltip && !tooltips ? { tooltip: f.tooltip } : {}),
    };
  });
}
