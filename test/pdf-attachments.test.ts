/**
 * The kernel's embedded-file writer, read back with pdf.js (a viewer's attachment list) and checked by
 * qpdf; PDF/A-2b refuses what it writes, PDF/A-3b takes it.
 */
import { describe, expect, it } from 'vitest';
import { conformToPdfA, createPdf, embedFiles, openForUpdate, savePdf, UpdateSession } from '../src/pdf/index.js';
import { openPdf, qpdfCheck } from './helpers/pdf.js';
import { readArchive, qpdfText } from './helpers/pdfa.js';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

async function attachments(pdf: Uint8Array): Promise<Array<{ name: string; text: string; description?: string }>> {
  const doc = await openPdf(pdf);
  try {
    const all = ((await doc.getAttachments()) ?? {}) as Record<
      string,
      { filename: string; content: Uint8Array; description?: string }
    >;
    return Object.values(all).map((a) => ({
      name: a.filename,
      text: Buffer.from(a.content).toString('utf8'),
      ...(a.description ? { description: a.description } : {}),
    }));
  } finally {
    await doc.destroy();
  }
}

describe('embedded files', () => {
  it('writes a sorted EmbeddedFiles tree, unique names, non-ASCII names in /UF, delimiters escaped in /F', async () => {
    const doc = await createPdf();
    doc.addPage();
    embedFiles(doc, [
      { name: 'b.txt', bytes: text('second') },
      { name: 'a (1).txt', bytes: text('first'), description: 'paren' },
      { name: 'b.txt', bytes: text('third') },
      { name: 'Übersicht.csv', bytes: text('x,y'), mimeType: 'text/csv; charset=utf-8' },
    ]);
    const pdf = await savePdf(doc);
    await qpdfCheck(pdf);
    expect((await attachments(pdf)).sort((x, y) => x.text.localeCompare(y.text))).toEqual([
      { name: 'a (1).txt', text: 'first', description: 'paren' },
      { name: 'b.txt', text: 'second' },
      { name: 'b (2).txt', text: 'third' },
      { name: 'Übersicht.csv', text: 'x,y' },
    ]);
    const a = await readArchive(pdf);
    // §7.9.6: keys in byte order (UTF-16BE with its mark, as written)
    expect(a.embeddedFiles.map((f) => f.key)).toEqual(['a (1).txt', 'b (2).txt', 'b.txt', 'Übersicht.csv']);
    const uber = a.embeddedFiles.find((f) => f.key === 'Übersicht.csv')!;
    expect(qpdfText(uber.spec['/F'])).toBe('_bersicht.csv');
    expect(uber.stream['/Subtype']).toBe('/text/csv');
    expect(a.associated).toHaveLength(4);
  });

  it('adds to an update session (the file grows by one update, its bytes a prefix)', async () => {
    const first = await createPdf();
    first.addPage();
    const base = await savePdf(first);
    const session = UpdateSession.over(await openForUpdate(base));
    embedFiles(session.doc, [{ name: 'late.txt', bytes: text('appended') }]);
    const out = await session.commit();
    expect(Buffer.from(out.subarray(0, base.length)).equals(Buffer.from(base))).toBe(true);
    await qpdfCheck(out);
    expect(await attachments(out)).toEqual([{ name: 'late.txt', text: 'appended' }]);
  });

  it('PDF/A-2b refuses embedded files (422); PDF/A-3b takes them', async () => {
    for (const level of ['2b', '3b'] as const) {
      const doc = await createPdf();
      doc.addPage();
      embedFiles(doc, [{ name: 'a.txt', bytes: text('a') }]);
      const conform = (): void => conformToPdfA(doc, level, text('seed'));
      if (level === '2b')
        expect(conform).toThrow(expect.objectContaining({ name: 'RenderError', status: 422 }) as Error);
      else expect(conform).not.toThrow();
    }
  });
});
