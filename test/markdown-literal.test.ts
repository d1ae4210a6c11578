/**
 * Literal spans in Markdown (src/format literal-text.ts): text between U+FDD0 and U+FDD1 is shown as
 * typed wherever it stands (a paragraph, the author's link text or code span, a table cell), opens
 * no link, image or cell, is never part of a text tag, and cannot end its own span early. A span in a
 * link's address or an image's source turns the link or image into plain text.
 */
import { PDFDict, PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { literalText } from '../src/format/index.js';
import { createEngine } from '../src/index.js';
import { scanPdf } from '../src/packets/index.js';
import { popplerText } from './helpers/pdf.js';

const engine = createEngine({ now: () => new Date('2026-01-02T03:04:05Z') });
afterAll(() => engine.close());

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const generate = (content: string) =>
  engine.generate({ type: 'markdown', logo: false, includeTimestamp: false, data: [{ content }] });

/** Link targets and the number of image XObjects of a one-page document. */
async function structure(pdf: Uint8Array): Promise<{ links: string[]; images: number }> {
  const doc = await PDFDocument.load(pdf);
  const page = doc.getPage(0);
  const links: string[] = [];
  const annots = page.node.Annots();
  for (let i = 0; i < (annots?.size() ?? 0); i++) {
    const a = annots!.lookup(i, PDFDict);
    links.push(a.lookup(PDFName.of('A'), PDFDict).get(PDFName.of('URI'))?.toString() ?? '');
  }
  const xobjects = page.node.Resources()?.lookup(PDFName.of('XObject'));
  const images = xobjects instanceof PDFDict ? xobjects.keys().length : 0;
  return { links, images };
}

/** The text poppler reads, without white space (a long word wraps where the layout decides). */
const text = async (pdf: Uint8Array) => bare((await popplerText(pdf)).join(''));
const bare = (s: string) => s.replace(/\s+/g, '');

describe('a literal span in Markdown', () => {
  it('is text wherever it stands: a paragraph, the author’s link text and code span, a table cell', async () => {
    const value = `x\uFDD1 [Pay](https://evil.example/a) ![i](${PNG}) **b** | y`;
    const pdf = await generate(
      [
        `Value: ${literalText(value)}`,
        '',
        `[${literalText('*see*')}](https://ok.example/) and \`${literalText('`code`')}\``,
        '',
        '| A | B |',
        '|---|---|',
        `| ${literalText('left | right')} | z |`,
      ].join('\n'),
    );
    // Only the author's link; no image.
    expect(await structure(pdf)).toEqual({ links: ['(https://ok.example/)'], images: 0 });
    const shown = await text(pdf);
    // A value's own U+FDD1 is removed before it is wrapped: it cannot end its span early.
    expect(shown).toContain(bare(`Value: x [Pay](https://evil.example/a) ![i](${PNG}) **b** | y`));
    expect(shown).toContain(bare('*see* and `code`'));
    // One cell holds the value, pipe and all; the row keeps its second cell.
    expect(shown).toContain(bare('left | right z'));
  });

  it('in a link’s address or an image’s source, the link is its text and the image its description', async () => {
    const pdf = await generate(
      `[click](https://pay.example/${literalText('x')}) and ![photo of ${literalText('v')}](${literalText(PNG)})`,
    );
    expect(await structure(pdf)).toEqual({ links: [], images: 0 });
    expect(await text(pdf)).toContain(bare('click and photo of v'));
  });

  it('is never part of a text tag; the author’s tag beside it is found', async () => {
    const pdf = await generate(
      `Initials: {{ initial }}${literalText('{{ signature }} }} {{')} and ${literalText('{{')} signature }}`,
    );
    const { tags } = await scanPdf(pdf, { fileId: 'doc', property: 'files[0]' });
    expect(tags.map((t) => t.text)).toEqual(['{{ initial }}']);
    expect(await text(pdf)).toContain(bare('Initials: {{ initial }}{{ signature }} }} {{ and {{ signature }}'));
  });
});
