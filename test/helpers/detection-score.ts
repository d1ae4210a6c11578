/**
 * Field detection measured against the truth (scripts/measure-detection.ts, test/detect-flat.test.ts):
 * a corpus form made flat at run time (its AcroForm and widget annotations removed, the page
 * content, which draws the boxes and lines, untouched), the removed widgets' rects as the true
 * fields, and a one-to-one matching of proposals to true fields by the overlap of their rects.
 */
import { readFileSync } from 'node:fs';
import { PDFArray, PDFDict, PDFName } from '@cantoo/pdf-lib';
import { formFieldsOf } from '../../src/acroform/index.js';
import { importedType } from '../../src/fields/index.js';
import { loadPdf, rewritePdf } from '../../src/pdf/index.js';
import type { FieldProposal } from '../../src/detect/index.js';

export const CORPUS_DIR = new URL('../fixtures/corpus/fillable_pdfs/', import.meta.url);

export const corpusFile = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, CORPUS_DIR)));

/** A proposal matches a true field when their rects' intersection over union is at least this. */
export const IOU_MATCH = 0.5;

export interface TrueBox {
  pageNum: number;
  rect: { x: number; y: number; width: number; height: number };
  /** text, comb, check (check boxes and each radio button). */
  kind: 'text' | 'comb' | 'check';
  name: string;
}

const kindOf = (type: string): TrueBox['kind'] =>
  type === 'charList' ? 'comb' : type === 'checkbox' || type === 'radioGroup' ? 'check' : 'text';

/** A fillable form without its form: the same pages, no AcroForm, no widget annotation. */
export async function flattenedForm(bytes: Uint8Array): Promise<{ flat: Uint8Array; truth: TrueBox[] }> {
  const doc = await loadPdf(bytes, 'pdf');
  const truth: TrueBox[] = [];
  // The importer's fields (src/fields) and the signature fields, which it leaves out.
  const fields = formFieldsOf(doc, (facts) =>
    facts.kind === 'signature' ? { type: 'signature' as const, props: {} } : importedType(facts),
  );
  for (const f of fields) {
    if (f.type === 'radioGroup')
      for (const o of f.options ?? []) truth.push({ pageNum: f.pageNum, rect: o.rect, kind: 'check', name: f.id });
    else truth.push({ pageNum: f.pageNum, rect: f.rect, kind: kindOf(f.type), name: f.id });
  }
  doc.catalog.delete(PDFName.of('AcroForm'));
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(PDFName.of('Annots'));
    if (!(annots instanceof PDFArray)) continue;
    const kept = annots.asArray().filter((a) => {
      const d = doc.context.lookup(a);
      return !(d instanceof PDFDict && d.get(PDFName.of('Subtype')) === PDFName.of('Widget'));
    });
    page.node.set(PDFName.of('Annots'), doc.context.obj(kept));
  }
  return { flat: await rewritePdf(doc), truth };
}

/** Proposals as boxes of the same kinds (a radio group's buttons one by one). */
export function proposedBoxes(proposals: FieldProposal[]): TrueBox[] {
  return proposals.flatMap((p): TrueBox[] =>
    p.field.type === 'radioGroup'
      ? (p.field.options ?? []).map((o) => ({
          pageNum: p.field.pageNum,
          rect: o.rect,
          kind: 'check',
          name: p.field.id,
        }))
      : [{ pageNum: p.field.pageNum, rect: p.field.rect, kind: kindOf(p.field.type), name: p.field.id }],
  );
}

export function iou(a: TrueBox['rect'], b: TrueBox['rect']): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

export interface Score {
  truth: number;
  proposed: number;
  matched: number;
  /** Matched pairs whose kinds agree (text, comb, check). */
  sameKind: number;
  precision: number;
  recall: number;
  pairs: Array<{ truth: TrueBox; proposed: TrueBox; iou: number }>;
  missed: TrueBox[];
  extra: TrueBox[];
}

/** Greedy one-to-one matching, best overlap first, pairs at IOU_MATCH or above. */
export function score(truth: TrueBox[], proposed: TrueBox[]): Score {
  const candidates: Array<{ t: number; p: number; iou: number }> = [];
  truth.forEach((t, ti) =>
    proposed.forEach((p, pi) => {
      if (t.pageNum !== p.pageNum) return;
      const v = iou(t.rect, p.rect);
      if (v >= IOU_MATCH) candidates.push({ t: ti, p: pi, iou: v });
    }),
  );
  candidates.sort((a, b) => b.iou - a.iou || a.t - b.t || a.p - b.p);
  const usedT = new Set<number>();
  const usedP = new Set<number>();
  const pairs: Score['pairs'] = [];
  for (const c of candidates) {
    if (usedT.has(c.t) || usedP.has(c.p)) continue;
    usedT.add(c.t);
    usedP.add(c.p);
    pairs.push({ truth: truth[c.t]!, proposed: proposed[c.p]!, iou: c.iou });
  }
  const matched = pairs.length;
  return {
    truth: truth.length,
    proposed: proposed.length,
    matched,
    sameKind: pairs.filter((x) => x.truth.kind === x.proposed.kind).length,
    precision: proposed.length ? matched / proposed.length : 0,
    recall: truth.length ? matched / truth.length : 0,
    pairs,
    missed: truth.filter((_, i) => !usedT.has(i)),
    extra: proposed.filter((_, i) => !usedP.has(i)),
  };
}
