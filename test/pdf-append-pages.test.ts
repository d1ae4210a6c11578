/**
 * appendPages reads the pages it appends through the kernel's hardened loader, like every
 * other input: encrypted files that open without a password are decrypted, entries of the wrong
 * type are dropped, and anything unreadable is an InvalidPdfError naming the property.
 */
import { PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { InvalidPdfError } from '../src/errors/index.js';
import { appendPages, createPdf, savePdf } from '../src/pdf/index.js';
import { corpusPdf } from './acroform-corpus.js';
import { pageText } from './helpers/pdf.js';
import { buildPdf, streamBody } from './helpers/pdf-bytes.js';

async function onePageDocument(): Promise<Uint8Array> {
  const doc = await createPdf({ title: 'Base', date: new Date('2026-01-02T03:04:05Z') });
  doc.addPage([200, 200]);
  return savePdf(doc);
}

function isPrefix(prefix: Uint8Array, of: Uint8Array): boolean {
  return (
    of.byteLength >= prefix.byteLength &&
    Buffer.compare(Buffer.from(of.subarray(0, prefix.byteLength)), Buffer.from(prefix)) === 0
  );
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('appendPages loads the appended pages with the hardened loader', () => {
  it('appends the 30 pages of an owner-password RC4 file (decrypted, as loadPdf does; plain PDFDocument.load refused it)', async () => {
    const base = await onePageDocument();
    const out = await appendPages(base, corpusPdf('qpdf_enc_rc4_128_owner_only_30p.pdf'), { property: 'certificate' });
    expect(isPrefix(base, out)).toBe(true);
    expect((await PDFDocument.load(out)).getPageCount()).toBe(31);
    const text = await pageText(out);
    expect(text[1]).toContain('Potato 0');
    expect(text[30]).toContain('Potato 29');
  });

  it('appends a page with no media box anywhere in its tree as US Letter (the loader gives it one)', async () => {
    const pages = buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>',
      streamBody('', 'BT /F1 12 Tf 20 20 Td (x) Tj ET'),
    ]);
    const out = await appendPages(await onePageDocument(), pages, { property: 'certificate' });
    expect((await PDFDocument.load(out)).getPage(1).getSize()).toEqual({ width: 612, height: 792 });
  });

  it('appends a page whose /Resources and /Annots have the wrong type (dropped, as viewers ignore them)', async () => {
    const pages = buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources 7 /Annots << /A 1 >> /Contents 4 0 R >>',
      streamBody('', 'BT /F1 12 Tf 20 20 Td (x) Tj ET'),
    ]);
    const base = await onePageDocument();
    const out = await appendPages(base, pages, { property: 'certificate' });
    expect(isPrefix(base, out)).toBe(true);
    const doc = await PDFDocument.load(out);
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getPage(1).getSize()).toEqual({ width: 300, height: 300 });
  });

  it("refuses bytes that are not a PDF with the loader's own message, naming the property", async () => {
    const e = await failure(
      appendPages(await onePageDocument(), new TextEncoder().encode('hello'), { property: 'certificate' }),
    );
    expect(e).toBeInstanceOf(InvalidPdfError);
    expect((e as InvalidPdfError).message).toBe('Not a PDF: no %PDF- header');
    expect((e as InvalidPdfError).fields).toEqual([{ property: 'certificate', message: 'Not a PDF: no %PDF- header' }]);
  });
});
