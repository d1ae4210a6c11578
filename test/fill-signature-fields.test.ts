/**
 * Empty signature fields written by the fill itself (engine.fill's `signatureFields`, used by
 * packets): one update with the values, placed like the kernel's appended writer places them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PDFDict, PDFDocument, PDFName, PDFNumber } from '@cantoo/pdf-lib';
import { createEngine, ValidationError } from '../src/index.js';
import { appendSignatureFieldsOnDisplay } from '../src/acroform/index.js';
import { w9Data, w9Template } from './fixtures/fill/corpus.js';
import { blankPdf, field, template } from './fixtures/fill/templates.js';
import { qpdfCheck, qpdfFields, readFields } from './helpers/pdf.js';

const engine = createEngine();
afterAll(() => engine.close());

const r = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
const updates = (pdf: Uint8Array) => Buffer.from(pdf).toString('latin1').match(/%%EOF/g)!.length;
const startsWith = (out: Uint8Array, pdf: Uint8Array) =>
  Buffer.compare(Buffer.from(out.subarray(0, pdf.byteLength)), Buffer.from(pdf)) === 0;

async function sigFlags(pdf: Uint8Array): Promise<number | undefined> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const flags = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).get(PDFName.of('SigFlags'));
  return flags instanceof PDFNumber ? flags.asNumber() : undefined;
}

describe('fill: signature fields in the same update', () => {
  it('flat: values and /Sig fields in one update over the template; rects as the kernel writer places them, on a turned page too', async () => {
    const pdf = await blankPdf(2, [612, 792], { rotate: 90 });
    const tpl = await template([field('shortText', { id: 'name', rect: r(72, 72, 200, 20) })], { pdf });
    const signatureFields = [
      { name: 'sig1', kind: 'signature' as const, pageNum: 0, rect: r(100, 400, 180, 40) },
      { name: 'ini1', kind: 'initial' as const, pageNum: 1, rect: r(300, 500, 60, 30) },
    ];
    const out = await engine.fill(tpl, { data: { name: 'Ada' } }, { signatureFields });
    expect(startsWith(out, pdf)).toBe(true);
    expect(updates(out)).toBe(updates(pdf) + 1);
    await qpdfCheck(out);

    const sigs = (await qpdfFields(out)).filter((f) => f.fieldtype === '/Sig');
    expect(sigs.map((f) => [f.fullname, f.pageposfrom1])).toEqual([
      ['sig1', 1],
      ['ini1', 2],
    ]);
    // The same rects as the appended writer (template page = output page here).
    const reference = await appendSignatureFieldsOnDisplay(
      pdf,
      signatureFields.map((f) => ({ name: f.name, kind: f.kind, pageIndex: f.pageNum, rect: f.rect })),
    );
    const want = await readFields(reference);
    const got = await readFields(out);
    for (const name of ['sig1', 'ini1']) {
      const a = got.find((f) => f.name === name)!;
      const b = want.find((f) => f.name === name)!;
      expect(a.page).toBe(b.page);
      a.rect.forEach((v, i) => expect(v).toBeCloseTo(b.rect[i]!, 3));
    }
    expect(await sigFlags(out)).toBe(1);
  });

  it('interactive: the /Sig fields join the new form beside the value fields', async () => {
    const tpl = await template([field('shortText', { id: 'name', rect: r(72, 72, 200, 20) })]);
    const out = await engine.fill(
      tpl,
      { data: { name: 'Ada' }, useInteractiveFields: true },
      { signatureFields: [{ name: 'sig', kind: 'signature', pageNum: 0, rect: r(72, 300, 200, 40) }] },
    );
    const fields = await qpdfFields(out);
    expect(fields.map((f) => [f.fullname, f.fieldtype])).toEqual([
      ['name', '/Tx'],
      ['sig', '/Sig'],
    ]);
    expect(fields[0]!.value).toBe('u:Ada');
  });

  it('a page repeated by the fill: the field goes on the first output page made from its template page', async () => {
    const tpl = await template([field('shortText', { id: 'name', rect: r(72, 72, 200, 20) })], { pages: 2 });
    const out = await engine.fill(
      tpl,
      { data: { name: ['Ada', 'Grace', 'Joan'] } },
      { signatureFields: [{ name: 'sig', kind: 'signature', pageNum: 1, rect: r(72, 300, 200, 40) }] },
    );
    const doc = await PDFDocument.load(out);
    const sig = (await qpdfFields(out)).find((f) => f.fieldtype === '/Sig')!;
    // Page 0 repeats three times; template page 1 is output page 3.
    expect(doc.getPageCount()).toBe(4);
    expect(sig.pageposfrom1).toBe(4);
  });

  it('a fillable PDF: flat output keeps only the signature fields; interactive output adds them to its own form', async () => {
    const { template: tpl, fields } = await w9Template();
    const signatureFields = [{ name: 'w9sig', kind: 'signature' as const, pageNum: 0, rect: r(100, 600, 200, 30) }];
    const flat = await engine.fill(tpl, { data: w9Data(fields) }, { signatureFields });
    expect((await qpdfFields(flat)).map((f) => f.fullname)).toEqual(['w9sig']);
    const interactive = await engine.fill(
      tpl,
      { data: w9Data(fields), useInteractiveFields: true },
      { signatureFields },
    );
    const all = await qpdfFields(interactive);
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((f) => f.fieldtype === '/Sig').map((f) => f.fullname)).toEqual(['w9sig']);
    await qpdfCheck(interactive);
  });

  it('bad signature fields are ValidationErrors with their paths, nothing written', async () => {
    const tpl = await template([field('shortText', { id: 'name', rect: r(72, 72, 200, 20) })]);
    const outside = engine.fill(
      tpl,
      { data: {} },
      { signatureFields: [{ name: 'sig', kind: 'signature', pageNum: 3, rect: r(72, 300, 200, 40) }] },
    );
    await expect(outside).rejects.toBeInstanceOf(ValidationError);
    await expect(outside).rejects.toMatchObject({ fields: [{ property: 'signatureFields[0].pageNum' }] });
    const clash = engine.fill(
      tpl,
      { data: { name: 'Ada' }, useInteractiveFields: true },
      { signatureFields: [{ name: 'name', kind: 'signature', pageNum: 0, rect: r(72, 300, 200, 40) }] },
    );
    await expect(clash).rejects.toMatchObject({ fields: [{ property: 'signatureFields[0].name' }] });
    const dotted = engine.fill(
      tpl,
      { data: {} },
      { signatureFields: [{ name: 'a.b', kind: 'signature', pageNum: 0, rect: r(72, 300, 200, 40) }] },
    );
    await expect(dotted).rejects.toMatchObject({ fields: [{ property: 'signatureFields[0].name' }] });
  });
});
