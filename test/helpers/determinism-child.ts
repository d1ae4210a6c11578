/**
 * Run in its own node process by test/determinism.test.ts: makes the same fill,
 * Markdown and (with HTML=1) HTML documents with a pinned clock and prints the
 * sha256 of each, plus the HTML PDF as base64 so the parent can show what differs.
 */
import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { createEngine } from '../../src/index.js';
import { field, template } from '../fixtures/fill/templates.js';

/** The template PDF, itself made without the wall clock (pdf-lib stamps creation dates by default). */
async function templatePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([612, 792]);
  page.drawText('Template', { x: 20, y: 20, size: 8, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

const pinned = new Date('2026-01-02T03:04:05Z');
const engine = createEngine({ now: () => pinned });
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
try {
  const tpl = await template(
    [
      field('shortText', { id: 'name', rect: { x: 72, y: 100, width: 300, height: 20 } }),
      field('checkbox', { id: 'agree', rect: { x: 72, y: 140, width: 14, height: 14 } }),
      field('date', { id: 'dob', rect: { x: 72, y: 170, width: 150, height: 20 } }),
    ],
    { pdf: await templatePdf() },
  );
  const data = { name: 'Ada Lovelace — שלום 漢字', agree: true, dob: '1815-12-10' };
  const out: Record<string, string> = {
    fill: sha(await engine.fill(tpl, { title: 'Determinism', data })),
    interactive: sha(await engine.fill(tpl, { title: 'Determinism', useInteractiveFields: true, data })),
    markdown: sha(
      await engine.generate({
        title: 'Report',
        includeTimestamp: true,
        data: [
          { heading: 'Q3' },
          { content: 'Revenue grew **12%**.\n\n```\ncode();\n```' },
          {
            table: {
              rows: [
                ['a', 'b'],
                ['1', '2'],
              ],
            },
          },
        ],
      }),
    ),
  };
  if (process.env.HTML === '1') {
    const html = await engine.generate({
      type: 'html',
      title: 'Invoice',
      data: { html: '<h1>Invoice</h1><p>Total 12 €</p>', css: 'h1{color:navy}' },
    });
    out.html = sha(html);
    out.htmlBase64 = Buffer.from(html).toString('base64');
  }
  process.stdout.write(JSON.stringify(out));
} finally {
  await engine.close();
}
