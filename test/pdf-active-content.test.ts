/**
 * src/pdf `stripActiveContent`: what is removed, what is kept, and that a file without
 * active content comes back as the same bytes.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { loadPdf, stripActiveContent } from '../src/pdf/index.js';
import { activeContentPdf, activeMarkersIn } from './helpers/active-pdf.js';
import { makePdf } from './helpers/signing.js';

describe('stripActiveContent', () => {
  it('returns a file without active content unchanged (the same bytes, nothing reported)', async () => {
    const pdf = await makePdf(2);
    const out = await stripActiveContent(pdf, 'files[0].file');
    expect(out.removed).toEqual([]);
    expect(out.pdf).toBe(pdf);
  });

  it('removes scripts, automatic and launch actions, embedded files and XFA; keeps a web link; a second pass finds nothing', async () => {
    const out = await stripActiveContent(await activeContentPdf());
    expect(out.removed).toEqual(
      expect.arrayContaining([
        'XFA form',
        'OpenAction JavaScript',
        'embedded files',
        'page 1 /AA',
        'page 1 Link Launch action',
      ]),
    );
    expect(activeMarkersIn(out.pdf)).toEqual([]);
    const doc = await loadPdf(out.pdf);
    const annots = doc.getPages()[0]!.node.lookup(PDFName.of('Annots'), PDFArray);
    const kinds = annots.asArray().map((a) => (doc.context.lookup(a) as PDFDict).lookup(PDFName.of('A')));
    // The Launch link stays as an inert box; the URI link keeps its action; the attachment annotation is gone.
    expect(kinds).toHaveLength(2);
    expect(kinds[0]).toBeUndefined();
    expect(((kinds[1] as PDFDict).get(PDFName.of('S')) as PDFName).decodeText()).toBe('URI');
    const again = await stripActiveContent(out.pdf);
    expect(again.removed).toEqual([]);
    expect(again.pdf).toBe(out.pdf);
  });

  it('keeps an OpenAction that only turns to a page; removes a GoTo whose /Next runs JavaScript, and script actions of fields and bookmarks', async () => {
    const build = async (open: 'dest' | 'goto' | 'chain') => {
      const doc = await PDFDocument.create();
      const page = doc.addPage([200, 200]);
      const ctx = doc.context;
      const js = ctx.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(2)') });
      const dest = ctx.obj([page.ref, 'Fit']);
      doc.catalog.set(
        PDFName.of('OpenAction'),
        open === 'dest' ? dest : ctx.obj({ S: 'GoTo', D: dest, ...(open === 'chain' ? { Next: js } : {}) }),
      );
      if (open === 'chain') {
        const field = ctx.register(ctx.obj({ FT: 'Tx', T: PDFString.of('name'), AA: ctx.obj({ K: js }) }));
        doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [field] }));
        const outlines = ctx.nextRef();
        const item = ctx.register(
          ctx.obj({
            Title: PDFString.of('Run'),
            Parent: outlines,
            A: ctx.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(3)') }),
          }),
        );
        ctx.assign(outlines, ctx.obj({ Type: 'Outlines', First: item, Last: item, Count: 1 }));
        doc.catalog.set(PDFName.of('Outlines'), outlines);
      }
      return doc.save({ useObjectStreams: false });
    };
    for (const kept of ['dest', 'goto'] as const)
      expect((await stripActiveContent(await build(kept))).removed, kept).toEqual([]);
    const out = await stripActiveContent(await build('chain'));
    expect(out.removed).toEqual(['OpenAction JavaScript', 'form field /AA', 'bookmark JavaScript action']);
    expect(Buffer.from(out.pdf).toString('latin1')).not.toContain('app.alert');
  });
});
