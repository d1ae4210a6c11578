/**
 * setDocumentInfo / createPdf: the one place castpress writes a document's information.
 * The key order is part of the output bytes (Markdown's goldens and determinism depend on it).
 */
import { PDFDict, PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { createPdf, savePdf, setDocumentInfo } from '../src/pdf/index.js';

const NOW = new Date('2026-01-02T03:04:05Z');

function infoKeys(doc: PDFDocument): string[] {
  const info = doc.context.lookup(doc.context.trailerInfo.Info);
  return info instanceof PDFDict ? info.keys().map((k) => k.decodeText()) : [];
}

describe('document information', () => {
  it('a new document: title, castpress as producer and creator, both dates from the given clock, nothing from the wall clock', async () => {
    const doc = await createPdf({ title: 'Report', date: NOW });
    doc.addPage([100, 100]);
    const again = await PDFDocument.load(await savePdf(doc), { updateMetadata: false });
    expect(infoKeys(again)).toEqual(['Title', 'Producer', 'Creator', 'CreationDate', 'ModDate']);
    expect([again.getTitle(), again.getProducer(), again.getCreator()]).toEqual(['Report', 'castpress', 'castpress']);
    expect(again.getCreationDate()?.toISOString()).toBe(NOW.toISOString());
    expect(again.getModificationDate()?.toISOString()).toBe(NOW.toISOString());
    // Not shown in the window bar unless asked (Markdown never asked).
    expect(again.catalog.has(PDFName.of('ViewerPreferences'))).toBe(false);
  });

  it('without a date, keeps the dates a document has; author, subject and keywords come first; null removes a title', async () => {
    const made = new Date('2020-05-06T07:08:09Z');
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.setTitle('about:blank');
    doc.setCreationDate(made);
    setDocumentInfo(doc, { title: null, author: 'Ada', subject: 'S', keywords: ['a', 'b'] });
    expect(infoKeys(doc)).toEqual(['CreationDate', 'Author', 'Subject', 'Keywords', 'Producer', 'Creator']);
    expect(doc.getCreationDate()?.toISOString()).toBe(made.toISOString());
    expect(doc.getKeywords()).toBe('a b');
    setDocumentInfo(doc, { title: 'Shown', showTitle: true });
    expect(doc.getTitle()).toBe('Shown');
    expect(doc.catalog.has(PDFName.of('ViewerPreferences'))).toBe(true);
  });
});
