/**
 * Fill speed against anchors measured in the same run:
 * - W-9 with 22 values vs loading + drawing 22 strings + saving the W-9 with pdf-lib directly (goal ≤ 0.1);
 * - 3 values on the 117-page book vs 3 values on a 1-page template (goal ≤ 3);
 * - interactive output vs flat (both written as one update of the template): the W-9 (its own form
 *   filled in place, goal ≤ 2) and the book (no form of its own: a new one).
 */
import { ParseSpeeds, PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib';
import { createEngine, type TemplateInput } from '../src/index.js';
import { corpusPdf, w9Data, w9Template } from '../test/fixtures/fill/corpus.js';
import { interleaved, type BenchRow } from './types.js';

export async function run(): Promise<BenchRow[]> {
  const engine = createEngine();
  try {
    const { template: w9, fields } = await w9Template();
    const data = w9Data(fields);
    const direct = async () => {
      const doc = await PDFDocument.load(w9.pdf as Uint8Array, { updateMetadata: false });
      const font = await doc.embedFont(StandardFonts.Helvetica);
      const page = doc.getPage(0);
      for (const f of fields)
        page.drawText('Value', {
          x: f.rect.x + 2,
          y: page.getHeight() - f.rect.y - f.rect.height + 4,
          size: 10,
          font,
          color: rgb(0.2, 0.2, 0.3),
        });
      return doc.save();
    };
    // The same, with pdf-lib told not to pause on a timer while parsing and writing (its defaults do, every 100/50 objects).
    const directTuned = async () => {
      const doc = await PDFDocument.load(w9.pdf as Uint8Array, {
        updateMetadata: false,
        parseSpeed: ParseSpeeds.Fastest,
      });
      const font = await doc.embedFont(StandardFonts.Helvetica);
      const page = doc.getPage(0);
      for (const f of fields)
        page.drawText('Value', {
          x: f.rect.x + 2,
          y: page.getHeight() - f.rect.y - f.rect.height + 4,
          size: 10,
          font,
          color: rgb(0.2, 0.2, 0.3),
        });
      return doc.save({ objectsPerTick: Number.POSITIVE_INFINITY });
    };
    const w9Fill = () => engine.fill(w9, { data });

    const book: TemplateInput = {
      eid: 'book',
      pdf: corpusPdf('plain_geotopo_117p.pdf'),
      fields: [0, 50, 116].map((pageNum, i) => ({
        id: `v${i}`,
        type: 'shortText' as const,
        pageNum,
        rect: { x: 72, y: 72, width: 200, height: 20 },
      })),
    };
    const onePage = await PDFDocument.create();
    onePage.addPage([612, 792]);
    const single: TemplateInput = {
      eid: 'one',
      pdf: await onePage.save(),
      fields: [0, 1, 2].map((i) => ({
        id: `v${i}`,
        type: 'shortText' as const,
        pageNum: 0,
        rect: { x: 72, y: 72 + 30 * i, width: 200, height: 20 },
      })),
    };
    const values = { data: { v0: 'First value', v1: 'Second value', v2: 'Third value' } };

    const [w9Ms, directMs] = await interleaved(w9Fill, direct, 15);
    const [w9Ms2, tunedMs] = await interleaved(w9Fill, directTuned, 15);
    const [bookMs, singleMs] = await interleaved(
      () => engine.fill(book, values),
      () => engine.fill(single, values),
      25,
    );
    const [interactiveMs, flatMs] = await interleaved(
      () => engine.fill(w9, { data, useInteractiveFields: true }),
      w9Fill,
      15,
    );
    const [bookInteractiveMs, bookFlatMs] = await interleaved(
      () => engine.fill(book, { ...values, useInteractiveFields: true }),
      () => engine.fill(book, values),
      15,
    );
    return [
      {
        name: 'W-9, 22 values (engine.fill) vs pdf-lib load+draw+save',
        value: w9Ms,
        unit: 'ms',
        baseline: directMs,
        ratio: w9Ms / directMs,
        goal: '<= 0.1',
      },
      {
        name: 'W-9, 22 values vs pdf-lib load+draw+save without timer pauses',
        value: w9Ms2,
        unit: 'ms',
        baseline: tunedMs,
        ratio: w9Ms2 / tunedMs,
        goal: '<= 0.1',
      },
      {
        name: '117-page book, 3 values vs 1-page template, 3 values',
        value: bookMs,
        unit: 'ms',
        baseline: singleMs,
        ratio: bookMs / singleMs,
        goal: '<= 3',
      },
      {
        name: 'W-9 (its own form, filled in place), useInteractiveFields vs flat',
        value: interactiveMs,
        unit: 'ms',
        baseline: flatMs,
        ratio: interactiveMs / flatMs,
        goal: '<= 2',
      },
      {
        name: 'W-9 interactive vs pdf-lib load+draw+save',
        value: interactiveMs,
        unit: 'ms',
        baseline: directMs,
        ratio: interactiveMs / directMs,
      },
      {
        name: '117-page book (no form: fields in the update), useInteractiveFields vs flat',
        value: bookInteractiveMs,
        unit: 'ms',
        baseline: bookFlatMs,
        ratio: bookInteractiveMs / bookFlatMs,
      },
    ];
  } finally {
    await engine.close();
  }
}
