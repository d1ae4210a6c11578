/**
 * Golden images of Markdown generation: each block kind, each table option,
 * page options and the logo cases. `npm run golden:update` rewrites them;
 * look at golden/markdown/* before committing.
 */
import { afterAll, describe, it } from 'vitest';
import sharp from 'sharp';
import { createEngine } from '../src/index.js';
import { expectGolden } from './helpers/golden.js';

const engine = createEngine({ now: () => new Date('2026-11-22T14:03:00Z') });
afterAll(() => engine.close());

/** A small page keeps the images small; the content is what is being compared. */
const SMALL = { width: '420px', height: '560px', margin: '28px' };

async function swatch(width: number, height: number): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#E8EEF8"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#D0453A"/><rect x="0" y="0" width="${width}" height="${height}" fill="none" stroke="#2F4B8F" stroke-width="4"/></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

const CONTENT = `# Heading 1
## Heading 2
### Heading 3

Text with **bold**, *italic*, ***both***, ~~strikethrough~~, \`inline code\` and a [link](https://example.com).
Soft break here, hard break after this\\
next line.

- Bullet one
- Bullet two
  - Nested bullet
    - Third level
1. First
2. Second
   1. Nested number

> A block quote with **bold** text
> > and a nested quote

\`\`\`
function hello() {
  return 'world';
}
\`\`\`

---

| Left | Center | Right |
|:-----|:------:|------:|
| a    |   b    |     c |
| long cell text that wraps | x | 12.50 |
`;

describe('Markdown golden images', () => {
  it('block kinds: heading, label, content, table, with overrides', async () => {
    const pdf = await engine.generate({
      title: 'Blocks',
      page: SMALL,
      data: [
        { heading: 'Block heading' },
        {
          label: 'A label',
          content: 'Content under the label, long enough to wrap onto a second line of this small page.',
        },
        { content: 'Block with fontSize 16 and red text', fontSize: 16, textColor: '#B00020' },
        { content: 'Times New Roman block', fontFamily: 'Times New Roman' },
        {
          heading: 'Heading, label, content and table in one block',
          label: 'Label',
          content: 'Content',
          table: {
            rows: [
              ['Head A', 'Head B'],
              ['1', '2'],
            ],
          },
        },
      ],
    });
    await expectGolden('markdown/blocks', pdf);
  });

  it('Markdown content: every construct', async () => {
    const pdf = await engine.generate({
      logo: false,
      includeTimestamp: false,
      page: { width: '500px', height: '900px', margin: '28px' },
      fontSize: 10,
      data: [
        {
          content: `${CONTENT}\n\nAn image:\n\n![swatch](${await swatch(160, 80)})\n\nAnd a broken one: ![alt text shown](https://unreachable.invalid/x.png)`,
        },
      ],
    });
    await expectGolden('markdown/content', pdf);
  });

  it('table options: headers, gridlines, vertical alignment, column options', async () => {
    const rows = [
      ['Item', 'Description', 'Qty', 'Price'],
      ['A-1', 'Short', '1', '$1.00'],
      ['B-22', 'A longer description that wraps over two or three lines in its column', '12', '$120.00'],
    ];
    const pdf = await engine.generate({
      logo: false,
      includeTimestamp: false,
      page: { width: '500px', height: '820px', margin: '24px' },
      fontSize: 9,
      data: [
        { label: 'Defaults (header row, no gridlines, top)', table: { rows } },
        { label: 'firstRowHeaders false, rowGridlines', table: { rows, firstRowHeaders: false, rowGridlines: true } },
        {
          label: 'columnGridlines, verticalAlign center',
          table: { rows, columnGridlines: true, verticalAlign: 'center' },
        },
        {
          label: 'Both gridlines, verticalAlign bottom',
          table: { rows, rowGridlines: true, columnGridlines: true, verticalAlign: 'bottom' },
        },
        {
          label: 'columnOptions: 60px, 50%, {}, right (partial list)',
          table: {
            rows,
            rowGridlines: true,
            columnGridlines: true,
            columnOptions: [{ width: '60px' }, { width: '50%' }, {}, { align: 'right' }],
          },
        },
        {
          label: 'center + right aligned',
          table: {
            rows,
            rowGridlines: true,
            columnOptions: [{ align: 'center' }, {}, { align: 'center' }, { align: 'right' }],
          },
        },
      ],
    });
    await expectGolden('markdown/table-options', pdf);
  });

  it('table across pages: repeated header, row split inside', async () => {
    const tall = Array.from({ length: 16 }, (_, i) => `tall cell line ${i + 1}`).join('\n');
    const pdf = await engine.generate({
      logo: false,
      includeTimestamp: false,
      page: { width: '300px', height: '260px', margin: '20px', pageCount: 'bottomCenter' },
      fontSize: 9,
      data: [
        {
          table: {
            rows: [['#', 'Name'], ...Array.from({ length: 8 }, (_, i) => [String(i + 1), `Row ${i + 1}`]), ['9', tall]],
            rowGridlines: true,
            columnGridlines: true,
            columnOptions: [{ width: '15%' }],
          },
        },
      ],
    });
    await expectGolden('markdown/table-pages', pdf);
  });

  it('page options: size in mm, margin shorthand with a per-side override, page numbers top right', async () => {
    const pdf = await engine.generate({
      logo: false,
      page: { width: '105mm', height: '74mm', margin: '5mm 8mm', marginLeft: '1in', pageCount: 'topRight' },
      fontSize: 8,
      data: [
        { heading: 'A7 landscape' },
        { content: Array.from({ length: 14 }, (_, i) => `Paragraph ${i + 1} fills the page.`).join('\n\n') },
      ],
    });
    await expectGolden('markdown/page-options', pdf);
  });

  it('logos: default, custom with max sizes, none', async () => {
    const page = { width: '360px', height: '200px', margin: '20px' };
    const data = [{ content: 'Body text under the logo.' }];
    await expectGolden('markdown/logo-default', await engine.generate({ page, includeTimestamp: false, data }));
    await expectGolden(
      'markdown/logo-custom',
      await engine.generate({
        page,
        includeTimestamp: false,
        data,
        logo: { src: await swatch(300, 100), maxWidth: 120, maxHeight: 60 },
      }),
    );
    await expectGolden('markdown/logo-none', await engine.generate({ page, data, logo: false }));
  });
});
