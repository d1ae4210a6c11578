/** mergePDFs (src/pdf): pages, form fields (clashes renamed and reported), named destinations and outlines of several documents. */
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from '@cantoo/pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { isCastpressError } from '../src/errors/index.js';
import { createEngine } from '../src/index.js';
import { mergePDFs } from '../src/pdf/index.js';
import { w9Pdf } from './fixtures/fill/corpus.js';
import { pageCount, qpdfCheck, qpdfFields } from './helpers/pdf.js';

const engine = createEngine();
afterAll(() => engine.close());

/** A one-page document with an outline item and a named destination "intro" on its page, and a link to it by name. */
async function withDestination(title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([300, 200]);
  const ctx = doc.context;
  const dest = ctx.obj([page.ref, 'XYZ', null, null, null]);
  doc.catalog.set(PDFName.of('Names'), ctx.obj({ Dests: ctx.obj({ Names: [PDFString.of('intro'), dest] }) }));
  const root = ctx.obj({ Type: 'Outlines', Count: 1 });
  const rootRef = ctx.register(root);
  const item = ctx.register(
    ctx.obj({ Title: PDFHexString.fromText(title), Parent: rootRef, Dest: PDFString.of('intro') }),
  );
  root.set(PDFName.of('First'), item);
  root.set(PDFName.of('Last'), item);
  doc.catalog.set(PDFName.of('Outlines'), rootRef);
  const link = ctx.register(
    ctx.obj({ Type: 'Annot', Subtype: 'Link', Rect: [10, 10, 100, 30], Dest: PDFString.of('intro') }),
  );
  page.node.set(PDFName.of('Annots'), ctx.obj([link]));
  return doc.save();
}

describe('mergePDFs', () => {
  it('the W-9, a Markdown document and an HTML form: all pages, all fields (qpdf --json), qpdf --check passes', async () => {
    const w9 = w9Pdf();
    const markdown = await engine.generate({
      logo: false,
      includeTimestamp: false,
      title: 'Notes',
      data: [{ label: 'Name', content: 'Ada' }, { content: 'A paragraph of Markdown.' }],
    });
    const html = await engine.generate({
      type: 'html',
      title: 'Form',
      data: {
        html: '<form><input type="text" name="applicant" value="Ada Lovelace" style="width:200px;height:24px"><input type="checkbox" name="agree" checked style="width:16px;height:16px"></form>',
      },
    });
    const merged = await mergePDFs([w9, markdown, html]);
    await qpdfCheck(merged.pdf);
    const pages = (await Promise.all([w9, markdown, html].map(pageCount))).reduce((a, b) => a + b, 0);
    expect(merged.pageCount).toBe(pages);
    expect(await pageCount(merged.pdf)).toBe(pages);
    const fields = await qpdfFields(merged.pdf);
    expect(fields).toHaveLength(22 + 2);
    const byName = new Map(fields.map((f) => [f.fullname, f]));
    expect(byName.get('applicant')?.value).toBe('u:Ada Lovelace');
    expect(byName.get('applicant')?.pageposfrom1).toBe(pages);
    expect(byName.get('agree')?.value).not.toBe('/Off');
    // The W-9's fields stay on its first page.
    expect(fields.filter((f) => f.fullname.startsWith('topmostSubform[0]')).every((f) => f.pageposfrom1 === 1)).toBe(
      true,
    );
    expect(merged.renamed).toEqual([]);
  });

  it("clashing field names get the later document's prefix, and every rename is reported", async () => {
    const w9 = w9Pdf();
    const merged = await mergePDFs([w9, w9]);
    await qpdfCheck(merged.pdf);
    const fields = await qpdfFields(merged.pdf);
    expect(fields).toHaveLength(44);
    expect(new Set(fields.map((f) => f.fullname)).size).toBe(44);
    const second = fields.filter((f) => f.pageposfrom1 === 7);
    expect(second).toHaveLength(22);
    for (const f of second) expect(f.fullname.startsWith('doc2_topmostSubform[0].')).toBe(true);
    const renamed = merged.renamed.filter((r) => r.kind === 'field');
    expect(renamed.every((r) => r.document === 1 && r.to === `doc2_${r.from}`)).toBe(true);
    for (const f of second) expect(renamed.some((r) => r.to === f.fullname)).toBe(true);
  });

  it('keeps named destinations and outlines; a clashing destination is renamed and its links follow', async () => {
    const merged = await mergePDFs([await withDestination('First'), await withDestination('Second')], {
      prefix: (i) => `part${i}-`,
    });
    await qpdfCheck(merged.pdf);
    expect(merged.renamed).toEqual([{ document: 1, kind: 'destination', from: 'intro', to: 'part1-intro' }]);
    const doc = await PDFDocument.load(merged.pdf);
    const pages = doc.getPages().map((p) => p.ref);
    const names = doc.catalog
      .lookup(PDFName.of('Names'), PDFDict)
      .lookup(PDFName.of('Dests'), PDFDict)
      .lookup(PDFName.of('Names'), PDFArray);
    const dests = new Map<string, unknown>();
    for (let i = 0; i < names.size(); i += 2)
      dests.set((names.lookup(i) as PDFHexString).decodeText(), names.lookup(i + 1, PDFArray).get(0));
    expect(dests).toEqual(
      new Map([
        ['intro', pages[0]],
        ['part1-intro', pages[1]],
      ]),
    );
    const outline = doc.catalog.lookup(PDFName.of('Outlines'), PDFDict);
    const first = outline.lookup(PDFName.of('First'), PDFDict);
    const second = first.lookup(PDFName.of('Next'), PDFDict);
    expect([first, second].map((d) => (d.lookup(PDFName.of('Title')) as PDFHexString).decodeText())).toEqual([
      'First',
      'Second',
    ]);
    expect(second.get(PDFName.of('Parent'))).toBe(doc.catalog.get(PDFName.of('Outlines')));
    expect((second.lookup(PDFName.of('Dest')) as PDFHexString).decodeText()).toBe('part1-intro');
    const link = doc.getPage(1).node.Annots()!.lookup(0, PDFDict);
    expect((link.lookup(PDFName.of('Dest')) as PDFHexString).decodeText()).toBe('part1-intro');
  });

  it('a document that is not a PDF is an InvalidPdfError on its index', async () => {
    const err = await mergePDFs([w9Pdf(), new TextEncoder().encode('nope')]).catch((e: unknown) => e);
    expect(isCastpressError(err) && err.name).toBe('InvalidPdfError');
    expect(JSON.stringify(err)).toContain('"property":"pdfs[1]"');
  });
});
