import { describe, expect, it } from 'vitest';
import { PDFDict, PDFDocument, PDFName, StandardFonts } from '@cantoo/pdf-lib';
import { loadPdf } from '../src/pdf/index.js';
import { InvalidPdfError } from '../src/errors/index.js';
import { pageText, qpdfCheck, readFields } from './helpers/pdf.js';
import { corpusPdf, ENCRYPTED, qpdfStrict } from './acroform-corpus.js';

async function expectInvalid(bytes: Uint8Array, pattern: RegExp): Promise<void> {
  const err = await loadPdf(bytes, 'template.pdf').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidPdfError);
  const e = err as InvalidPdfError;
  expect(e.status).toBe(422);
  expect(e.message).toMatch(pattern);
  expect(e.fields).toEqual([{ property: 'template.pdf', message: e.message }]);
}

describe('loadPdf: encrypted inputs that open without a password', () => {
  it.each(ENCRYPTED)('%s comes out decrypted, same text as the original, clean for qpdf', async (name) => {
    const original = corpusPdf(name);
    const doc = await loadPdf(original);
    expect(doc.isEncrypted).toBe(false);
    const saved = await doc.save();
    await qpdfCheck(saved);
    expect(await qpdfStrict(saved)).toEqual({ ok: true, warnings: [] });
    // pdfjs decrypts the original itself: both must read the same.
    const [ours, theirs] = await Promise.all([pageText(saved), pageText(original)]);
    expect(ours).toEqual(theirs);
    expect(ours.join('').trim().length).toBeGreaterThan(0);
    // Nothing in the output is encrypted any more: reloading needs no password.
    const again = await PDFDocument.load(saved);
    expect(again.isEncrypted).toBe(false);
    // ...and the stale encryption dictionary is gone (pdf-lib would write it back damaged).
    const standardSecurity = again.context
      .enumerateIndirectObjects()
      .filter(([, o]) => o instanceof PDFDict && o.get(PDFName.of('Filter')) === PDFName.of('Standard'));
    expect(standardSecurity).toEqual([]);
  });

  it('decrypts field names and values of the AES-128 form', async () => {
    const doc = await loadPdf(corpusPdf('pdfjs_issue9972-1_aes_empty_userpw_form.pdf'));
    const names = doc
      .getForm()
      .getFields()
      .map((f) => f.getName());
    expect(names).toEqual([
      'B SLEEP RITUALS',
      'how much',
      'undefined',
      'what',
      'C SLEEP SCHEDULE',
      'D STRATEGIC NAPPING',
    ]);
    const fields = await readFields(await doc.save({ updateFieldAppearances: false }));
    expect(fields.map((f) => f.name)).toEqual(names);
  });

  it('reads the expected first page of the owner-password RC4 and AES-256 files', async () => {
    for (const name of ['qpdf_enc_rc4_128_owner_only_30p.pdf', 'qpdf_enc_aes256_R6_owner_only_objstm_30p.pdf']) {
      const doc = await loadPdf(corpusPdf(name));
      expect(doc.getPageCount()).toBe(30);
      const text = await pageText(await doc.save());
      expect(text[0]).toContain('Potato 0');
      expect(text[29]).toContain('Potato 29');
    }
  });
});

describe('loadPdf: forms in the wild', () => {
  it('drops XFA from hybrid forms and keeps their AcroForm fields', async () => {
    for (const [name, count] of [
      ['irs_f1040_2019_xfa.pdf', 116],
      ['irs_fw9_rev2018_xfa.pdf', 22],
    ] as const) {
      const original = await PDFDocument.load(corpusPdf(name), { preserveXFA: true });
      expect(original.catalog.lookup(PDFName.of('AcroForm'), PDFDict).has(PDFName.of('XFA'))).toBe(true);
      const doc = await loadPdf(corpusPdf(name));
      const saved = await doc.save({ updateFieldAppearances: false });
      const reread = await PDFDocument.load(saved, { preserveXFA: true });
      expect(reread.catalog.lookup(PDFName.of('AcroForm'), PDFDict).has(PDFName.of('XFA'))).toBe(false);
      const names = new Set((await readFields(saved)).map((f) => f.name));
      expect(names.size).toBe(count);
    }
  });

  it('reads the latest values of a form saved with six incremental updates', async () => {
    const doc = await loadPdf(corpusPdf('irs_f1040_2010_prefilled.pdf'));
    const fields = await readFields(await doc.save({ updateFieldAppearances: false }));
    const theirs = await readFields(corpusPdf('irs_f1040_2010_prefilled.pdf'));
    expect(fields.map((f) => [f.name, f.value])).toEqual(theirs.map((f) => [f.name, f.value]));
    expect(fields.some((f) => typeof f.value === 'string' && f.value.length > 0)).toBe(true);
  });
});

describe('loadPdf: unreadable input is a typed error', () => {
  it('rejects bytes that are not a PDF', async () => {
    await expectInvalid(new TextEncoder().encode('<html>not a pdf</html>'), /Not a PDF/);
    await expectInvalid(new Uint8Array(0), /Not a PDF/);
  });

  it('rejects a header with nothing behind it', async () => {
    await expectInvalid(new TextEncoder().encode('%PDF-1.7\n%%EOF\n'), /Not a readable PDF/);
  });

  it('rejects truncated files', async () => {
    const cra = corpusPdf('ca_cra_cannabis_duty_return_combed.pdf');
    await expectInvalid(cra.subarray(0, 30_000), /Not a readable PDF/);
    await expectInvalid(cra.subarray(0, cra.length / 2), /Not a readable PDF/);
  });

  it('rejects a PDF that needs a user password', async () => {
    const doc = await PDFDocument.create();
    doc.addPage().drawText('secret', { font: await doc.embedFont(StandardFonts.Helvetica) });
    doc.encrypt({ userPassword: 'open-sesame', ownerPassword: 'owner' });
    await expectInvalid(await doc.save(), /needs a password/);
  });
});
