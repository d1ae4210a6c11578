import { afterAll, describe, expect, it } from 'vitest';
import { PDFDocument, PDFName, PDFDict, PDFString, PDFArray } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { createEngine, ValidationError } from '../src/index.js';
import { pageText, qpdfCheck, readText, type PageText, type TextItem } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';
import { createParser, parseMarkdown } from '../src/markdown/parse.js';
import { expectLinearTime } from './helpers/scaling.js';

const NOW = new Date('2026-11-22T14:03:00Z');
const engine = createEngine({ now: () => NOW });
afterAll(() => engine.close());

const generate = (body: Record<string, unknown>) => engine.generate({ logo: false, includeTimestamp: false, ...body });
const find = (page: PageText, s: string): TextItem | undefined => page.items.find((i) => i.str.includes(s));
const lorem = (n: number) => 'lorem ipsum dolor sit amet consectetur '.repeat(n).trim();

async function pngDataUrl(width: number, height: number, rgb: [number, number, number]): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

async function linkTargets(pdf: Uint8Array): Promise<Array<{ page: number; uri: string; rect: number[] }>> {
  const doc = await PDFDocument.load(pdf);
  const out: Array<{ page: number; uri: string; rect: number[] }> = [];
  doc.getPages().forEach((p, page) => {
    const annots = p.node.Annots();
    if (!annots) return;
    for (let i = 0; i < annots.size(); i++) {
      const a = annots.lookup(i, PDFDict);
      if (a.get(PDFName.of('Subtype'))?.toString() !== '/Link') continue;
      const action = a.lookup(PDFName.of('A'), PDFDict);
      const uri = action.lookup(PDFName.of('URI'), PDFString).decodeText();
      const rect = a
        .lookup(PDFName.of('Rect'), PDFArray)
        .asArray()
        .map((n) => Number(n.toString()));
      out.push({ page, uri, rect });
    }
  });
  return out;
}

describe('Markdown generation: blocks and pagination', () => {
  it('renders heading, label and content in order and paginates long documents', async () => {
    const data = [
      { heading: 'Annual report' },
      ...Array.from({ length: 30 }, (_, i) => ({ label: `Section ${i + 1}`, content: `Body ${i + 1}. ${lorem(10)}` })),
    ];
    const pdf = await generate({ data });
    await qpdfCheck(pdf);
    const pages = await pageText(pdf);
    expect(pages.length).toBeGreaterThan(2);
    const all = pages.join('\n');
    expect(all.startsWith('Annual report')).toBe(true);
    let at = 0;
    for (let i = 1; i <= 30; i++) {
      const label = all.indexOf(`Section ${i}\n`, at);
      const body = all.indexOf(`Body ${i}.`, label);
      expect(label, `Section ${i}`).toBeGreaterThanOrEqual(at);
      expect(body).toBeGreaterThan(label);
      at = body;
    }
  });

  it('renders the keys of one block as heading, label, content, table', async () => {
    const pdf = await generate({ data: [{ table: { rows: [['T1']] }, content: 'C1', label: 'L1', heading: 'H1' }] });
    const [page] = await readText(pdf);
    const ys = ['H1', 'L1', 'C1', 'T1'].map((s) => find(page, s)!.baseline);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
  });

  it('never leaves a heading or label alone at the bottom of a page', async () => {
    // Fill page 1 to just above its end, then a heading: it must move to page 2 with its paragraph.
    for (let n = 38; n <= 46; n++) {
      const data = [
        { content: Array.from({ length: n }, (_, i) => `Line ${i}`).join('  \n') },
        { heading: 'Next part' },
        { content: 'After heading' },
      ];
      const pages = await readText(await generate({ data }));
      const headingPage = pages.findIndex((p) => find(p, 'Next part'));
      const bodyPage = pages.findIndex((p) => find(p, 'After heading'));
      expect(headingPage, `n=${n}`).toBe(bodyPage);
    }
  });

  it('leaves no single line of a paragraph at the foot or head of a page', async () => {
    for (let n = 38; n <= 46; n++) {
      const data = [
        { content: Array.from({ length: n }, (_, i) => `Line ${i}`).join('  \n') },
        { content: Array.from({ length: 5 }, (_, i) => `W${i}`).join('  \n') },
      ];
      const pages = await readText(await generate({ data }));
      for (const page of pages) {
        const count = page.items.filter((i) => /^W\d$/.test(i.str)).length;
        expect(count === 0 || count >= 2, `n=${n}: ${count} line(s) of the paragraph on a page`).toBe(true);
      }
    }
  });

  it('applies document and block fontSize, textColor and fontFamily', async () => {
    const pdf = await generate({
      fontSize: 10,
      textColor: '#00AA00',
      data: [
        { content: 'Small doc text' },
        { content: 'Big block text', fontSize: 24, textColor: '#FF0000', fontFamily: 'Helvetica' },
      ],
    });
    const [page] = await readText(pdf);
    const small = find(page, 'Small doc text')!;
    const big = find(page, 'Big block text')!;
    expect(small.height).toBeCloseTo(10, 0);
    expect(big.height).toBeCloseTo(24, 0);
    expect(big.fontName).not.toBe(small.fontName);
    const [img] = await renderPages(pdf, 1);
    const colours = new Set<string>();
    for (let y = Math.floor(big.y); y < big.baseline; y++) {
      for (let x = Math.floor(big.x); x < big.x + big.width; x++) {
        const o = (y * img.width + x) * 4;
        const [r, g, b] = img.rgba.slice(o, o + 3);
        if (r > 200 && g < 60 && b < 60) colours.add('red');
        if (g > 120 && r < 60 && b < 60) colours.add('green');
      }
    }
    expect(colours).toEqual(new Set(['red']));
  });

  it('sets the title in the metadata and a stable creation date', async () => {
    const pdf = await generate({ title: 'Quarterly numbers', data: [{ content: 'x' }] });
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(doc.getTitle()).toBe('Quarterly numbers');
    expect(doc.getCreationDate()?.toISOString()).toBe(NOW.toISOString());
  });

  it('renders the Markdown payloads of the hosted API examples', async () => {
    const pdf = await engine.generate({
      title: 'Example',
      fontSize: 16,
      textColor: '#171717',
      data: [
        { label: 'Name', content: 'Sally Jones' },
        {
          content:
            'Lorem **ipsum** dolor sit _amet_, __consectetur__ [adipiscing](https://www.useanvil.com/) elit.\n\n* one\n\n* two',
          fontSize: 12,
          textColor: '#616161',
        },
        {
          heading: 'Table',
          label: 'Details',
          table: {
            rows: [
              ['Description', 'Quantity', 'Price'],
              ['Work', '3', '$30'],
            ],
            columnOptions: [{ align: 'left', width: '60%' }, { align: 'center', width: '100px' }, { align: 'right' }],
          },
        },
        {
          content: 'Grid',
          table: {
            rows: [
              ['a', 'b'],
              ['c', 'd'],
            ],
            rowGridLines: true,
            columnGridLines: true,
            verticalAlign: 'middle',
          },
        },
      ],
    });
    await qpdfCheck(pdf);
    const text = (await pageText(pdf)).join('\n');
    const squeezed = text.replace(/\s+/g, '');
    for (const s of [
      'Name',
      'Sally Jones',
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit.',
      'one',
      'two',
      'Description',
      '$30',
      'Grid',
    ])
      expect(squeezed).toContain(s.replace(/\s+/g, ''));
    expect(text).toMatch(/Generated at 2026-11-22 14:03 UTC/);
    expect(await linkTargets(pdf)).toEqual([expect.objectContaining({ uri: 'https://www.useanvil.com/' })]);
  });
});

describe('Markdown content', () => {
  it('renders inline marks, lists, quotes, code, rules and hard breaks with their text in order', async () => {
    const content = [
      '# Title',
      'Some **bold**, *italic*, ~~struck~~ and `code` text.',
      '1. first',
      '2. second',
      '   - nested a',
      '   - nested b',
      '',
      '> quoted line',
      '',
      '```js',
      'const x = 1;',
      '```',
      '',
      '***',
      '',
      'line one\\',
      'line two',
    ].join('\n');
    const [page] = await readText(await generate({ data: [{ content }] }));
    const text = page.items.map((i) => i.str).join('');
    expect(text.replace(/\s+/g, '')).toBe(
      'TitleSomebold,italic,struckandcodetext.1.first2.secondnestedanestedbquotedlineconstx=1;lineonelinetwo',
    );
    expect(find(page, 'line two')!.baseline).toBeGreaterThan(find(page, 'line one')!.baseline + 5);
    expect(find(page, 'nested a')!.x).toBeGreaterThan(find(page, 'second')!.x + 5);
    expect(find(page, 'Title')!.height).toBeGreaterThan(find(page, 'first')!.height * 1.5);
  });

  it('makes links clickable over their text; relative links stay plain', async () => {
    const pdf = await generate({
      data: [{ content: 'See [the site](https://example.com/a?b=1) and [local](/docs) or <mailto:a@b.c>.' }],
    });
    const links = await linkTargets(pdf);
    expect(links.map((l) => l.uri)).toEqual(['https://example.com/a?b=1', 'mailto:a@b.c']);
    const [page] = await readText(pdf);
    // The line starts at "See" (the link is a marked-content sequence of its own: a text item of its own).
    const item = find(page, 'See')!;
    const [x1, , x2] = links[0].rect;
    // "See " comes first; the rectangle covers "the site" only.
    expect(x1).toBeGreaterThan(item.x + 15);
    expect(x1).toBeLessThan(item.x + 35);
    expect(x2 - x1).toBeGreaterThan(30);
    expect(x2 - x1).toBeLessThan(60);
  });

  it('draws data: URL images and shows the alt text of images that fail', async () => {
    const red = await pngDataUrl(200, 100, [255, 0, 0]);
    const pdf = await generate({
      data: [{ content: `Before\n\n![red box](${red})\n\nAfter ![missing](https://nowhere.invalid/x.png) end` }],
    });
    const [page] = await readText(pdf);
    expect(find(page, 'missing')).toBeDefined();
    expect(find(page, 'red box')).toBeUndefined();
    const before = find(page, 'Before')!;
    const after = find(page, 'After')!;
    // 200px = 150pt tall image between the two paragraphs.
    expect(after.baseline - before.baseline).toBeGreaterThan(100);
    const [img] = await renderPages(pdf, 1);
    const mid = Math.round((before.baseline + after.y) / 2);
    const o = (mid * img.width + Math.round(before.x + 50)) * 4;
    expect(Array.from(img.rgba.slice(o, o + 3))).toEqual([255, 0, 0]);
  });

  it('draws SVG images (data: URL, with xmlns)', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><rect width="120" height="60" fill="#0000FF"/></svg>';
    const pdf = await generate({
      data: [{ content: `![svg](data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')})` }],
    });
    const [img] = await renderPages(pdf, 1);
    // 120 × 60 px = 90 × 45 pt from the top-left of the content area.
    const at = (x: number, y: number) =>
      Array.from(img.rgba.slice((y * img.width + x) * 4, (y * img.width + x) * 4 + 3));
    expect(at(37 + 45, 37 + 22)).toEqual([0, 0, 255]);
    expect(at(37 + 100, 37 + 22)).toEqual([255, 255, 255]);
  });

  it('applies the EXIF orientation of JPEG images', async () => {
    const jpeg = await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 255, g: 0, b: 0 } } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const pdf = await generate({
      data: [{ content: `![rotated](data:image/jpeg;base64,${jpeg.toString('base64')})` }],
    });
    const [img] = await renderPages(pdf, 1);
    const red = (x: number, y: number) => {
      const o = (y * img.width + x) * 4;
      return img.rgba[o] > 200 && img.rgba[o + 1] < 80;
    };
    // Shown upright as 100 × 200 px = 75 × 150 pt.
    expect(red(38 + 60, 38 + 140)).toBe(true);
    expect(red(38 + 90, 38 + 20)).toBe(false);
  });

  it('loads images through the resolver and never fails the document on a bad one', async () => {
    const blue = (await pngDataUrl(40, 40, [0, 0, 255])).split(',')[1];
    const seen: string[] = [];
    const withResolver = createEngine({
      now: () => NOW,
      resolver: async (url) => {
        seen.push(url);
        if (url.endsWith('good.png'))
          return { body: new Uint8Array(Buffer.from(blue, 'base64')), contentType: 'image/png' };
        if (url.endsWith('garbage.png')) return { body: new Uint8Array([1, 2, 3]) };
        throw new Error('network down');
      },
    });
    try {
      const pdf = await withResolver.generate({
        logo: false,
        data: [
          {
            content:
              '![good](https://x.test/good.png) ![bad](https://x.test/garbage.png) ![down](https://x.test/down.png)',
          },
        ],
      });
      const text = (await pageText(pdf))[0];
      expect(text).toContain('bad');
      expect(text).toContain('down');
      expect(text).not.toContain('good');
      expect(seen.sort()).toEqual(['https://x.test/down.png', 'https://x.test/garbage.png', 'https://x.test/good.png']);
    } finally {
      await withResolver.close();
    }
  });

  it('renders raw HTML as its text, never as tags', async () => {
    const [text] = await pageText(
      await generate({
        data: [{ content: '<div align="center">Centered &amp; bold</div>\n\nInline <span>span</span> text' }],
      }),
    );
    expect(text).toContain('Centered & bold');
    expect(text).not.toContain('<');
  });
});

describe('Markdown edge cases', () => {
  it('keeps text on the page however deep lists and quotes nest', async () => {
    const list = Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- item${i}`).join('\n');
    const [page] = await readText(
      await generate({ data: [{ content: list }, { content: `${'>'.repeat(60)} deepquote` }] }),
    );
    for (const s of ['item39', 'deepquote']) {
      const it = find(page, s)!;
      expect(it, s).toBeDefined();
      expect(it.x + it.width).toBeLessThan(612 - 37.5 + 1);
    }
  });

  it('sets right-to-left paragraphs flush right', async () => {
    const [page] = await readText(await generate({ data: [{ content: 'שלום עולם' }, { content: 'Hello' }] }));
    const rtl = page.items.find((i) => /[\u0590-\u05ff]/.test(i.str))!;
    expect(rtl.x + rtl.width).toBeCloseTo(612 - 37.5, 0);
    expect(find(page, 'Hello')!.x).toBeCloseTo(37.5, 0);
  });

  it('renders empty content as one page', async () => {
    const pdf = await generate({ data: [{ content: '' }, { content: '   \n\n ' }] });
    await qpdfCheck(pdf);
    expect(await readText(pdf)).toHaveLength(1);
  });
});

describe('hostile Markdown runs in time linear in its length', () => {
  it('raw HTML that never closes keeps its text (80 KB of "<a " took 9 s)', async () => {
    const md = createParser();
    // n characters of each pattern; 8x the characters cost under 22.6x (quadratic: 64x).
    const inputs: Array<[(n: number) => string, string]> = [
      [(n) => '<!--'.repeat(n / 4), '<!--<!--'],
      [(n) => '<?'.repeat(n / 2), '<?<?'],
      [(n) => '<!A'.repeat(n / 3), '<!A<!A'],
      [(n) => '<![CDATA['.repeat(n / 9), '<![CDATA[<![CDATA['],
      [(n) => '<div ' + '<a '.repeat(n / 3), '<div <a <a'],
      [(n) => '<div ' + '"<a'.repeat(n / 3), '<div "<a"<a'],
      [(n) => '<div>\n' + '<b title="a>b">x</b> <!-- c --> '.repeat(n / 32), 'x x x'],
    ];
    // Every pattern in one measurement: one that went quadratic again would dominate the sum.
    const parsed = await expectLinearTime(
      'raw HTML',
      async (n) => inputs.map(([source]) => parseMarkdown(md, source(n))),
      9_000,
      72_000,
    );
    inputs.forEach(([, start], i) => {
      const first = parsed[i]![0];
      expect(
        first?.kind === 'paragraph' && first.inlines[0]?.kind === 'text'
          ? first.inlines[0].text.slice(0, start.length)
          : undefined,
      ).toBe(start);
    });
  });

  it('a paragraph with 60 KB of blanks inside renders its words (the trailing-blank trim took 9 s on 80 KB)', async () => {
    // 8x the blanks cost under 22.6x (quadratic: 64x).
    const pdf = await expectLinearTime(
      'blanks',
      (n) => generate({ data: [{ content: `first${' \t'.repeat(n)}last` }] }),
      3_750,
      30_000,
    );
    expect((await pageText(pdf)).join(' ')).toMatch(/first\s+last/);
  });
});

describe('Markdown tables', () => {
  const rows = (n: number) => [
    ['Item', 'Amount'],
    ...Array.from({ length: n }, (_, i) => [`Row ${i + 1}`, String(i + 1)]),
  ];

  it('breaks long tables between rows and repeats the header row on every page', async () => {
    const pdf = await generate({ data: [{ table: { rows: rows(120) } }] });
    const pages = await readText(pdf);
    expect(pages.length).toBeGreaterThan(2);
    let next = 1;
    for (const page of pages) {
      const items = page.items.filter((i) => i.str.trim() !== '');
      expect(items[0].str).toBe('Item');
      for (const it of items) {
        const m = /^Row (\d+)$/.exec(it.str);
        if (m) expect(Number(m[1])).toBe(next++);
      }
    }
    expect(next).toBe(121);
  });

  it('does not repeat the header when firstRowHeaders is false', async () => {
    const pages = await readText(await generate({ data: [{ table: { rows: rows(120), firstRowHeaders: false } }] }));
    expect(pages.filter((p) => p.items.some((i) => i.str === 'Item'))).toHaveLength(1);
  });

  it('splits a row taller than a page inside the row', async () => {
    const tall = Array.from({ length: 90 }, (_, i) => `cell line ${i}`).join('\n');
    const pdf = await generate({ data: [{ table: { rows: [['Head'], [tall], ['after']] } }] });
    const pages = await readText(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const text = pages.map((p) => p.items.map((i) => i.str).join('|')).join('|');
    const order = Array.from({ length: 90 }, (_, i) => text.indexOf(`cell line ${i}|`));
    expect(order.every((v, i) => v >= 0 && (i === 0 || v > order[i - 1]))).toBe(true);
    expect(find(pages[1], 'Head')).toBeDefined();
  });

  it('aligns and sizes columns from columnOptions (px, %, partial lists, empty objects)', async () => {
    const pdf = await generate({
      page: { margin: '0.5in' },
      data: [
        {
          table: {
            firstRowHeaders: false,
            rows: [
              ['l', 'c', 'r', '', ''],
              ['', '', '', 'E', 'M'],
            ],
            columnOptions: [
              { width: '200px' },
              { align: 'center', width: '25%' },
              { align: 'right', width: '20%' },
              {},
            ],
          },
        },
      ],
    });
    const [page] = await readText(pdf);
    const left = 36;
    const tableWidth = 612 - 72;
    const [w1, w2, w3] = [150, tableWidth * 0.25, tableWidth * 0.2];
    const item = (s: string) => page.items.find((i) => i.str === s)!;
    expect(item('l').x).toBeGreaterThan(left);
    expect(item('l').x).toBeLessThan(left + 6);
    expect(item('c').x + item('c').width / 2).toBeCloseTo(left + w1 + w2 / 2, 0);
    const r = item('r');
    expect(r.x + r.width).toBeLessThan(left + w1 + w2 + w3);
    expect(r.x + r.width).toBeGreaterThan(left + w1 + w2 + w3 - 6);
    // The two columns without a width share the rest.
    expect(item('E').x).toBeGreaterThan(left + w1 + w2 + w3);
    expect(item('M').x).toBeGreaterThan(item('E').x + 30);
  });

  it('places cell text at top, center or bottom of a row', async () => {
    const ys: Record<string, number> = {};
    for (const verticalAlign of ['top', 'center', 'bottom']) {
      const [page] = await readText(
        await generate({
          data: [{ table: { firstRowHeaders: false, verticalAlign, rows: [['x\ny\nz\nw', 'short']] } }],
        }),
      );
      ys[verticalAlign] = find(page, 'short')!.baseline - find(page, 'x')!.baseline;
    }
    expect(ys.top).toBeCloseTo(0, 0);
    expect(ys.center).toBeGreaterThan(ys.top + 5);
    expect(ys.bottom).toBeGreaterThan(ys.center + 5);
  });

  it('draws gridlines only when asked', async () => {
    const ink = async (table: Record<string, unknown>) => {
      const [img] = await renderPages(
        await generate({
          page: { margin: '0px' },
          data: [
            {
              table: {
                rows: [
                  ['aaaa', 'bbbb'],
                  ['cccc', 'dddd'],
                ],
                firstRowHeaders: false,
                ...table,
              },
            },
          ],
        }),
        1,
      );
      // Count dark pixels on the vertical line between the two columns (x = 306) and across the row boundary.
      let vertical = 0;
      for (let y = 6; y < 18; y++)
        for (let x = 302; x < 307; x++) if (img.rgba[(y * img.width + x) * 4] < 220) vertical++;
      let horizontal = 0;
      for (let x = 0; x < 612; x++)
        for (let y = 0; y < 60; y++) if (img.rgba[(y * img.width + x) * 4] < 200 && x > 150 && x < 300) horizontal++;
      return { vertical, horizontal };
    };
    const none = await ink({});
    const cols = await ink({ columnGridlines: true });
    const rowsOnly = await ink({ rowGridlines: true });
    expect(none.vertical).toBe(0);
    expect(cols.vertical).toBeGreaterThan(10);
    expect(rowsOnly.vertical).toBe(0);
    expect(rowsOnly.horizontal).toBeGreaterThan(none.horizontal + 100);
  });
});

describe('Page options, logo and furniture', () => {
  it('uses US Letter with 50px margins by default and honours units and per-side margins', async () => {
    const def = await readText(await generate({ data: [{ content: 'Hello' }] }));
    expect(def[0].width).toBeCloseTo(612, 0);
    expect(def[0].height).toBeCloseTo(792, 0);
    expect(find(def[0], 'Hello')!.x).toBeCloseTo(37.5, 0);
    const a5 = await readText(
      await generate({
        page: { width: '148mm', height: '21cm', margin: '1in 2pc', marginLeft: '100px' },
        data: [{ content: 'Hello' }],
      }),
    );
    expect(a5[0].width).toBeCloseTo((148 / 25.4) * 72, 0);
    expect(a5[0].height).toBeCloseTo((21 / 2.54) * 72, 0);
    const hello = find(a5[0], 'Hello')!;
    expect(hello.x).toBeCloseTo(75, 0);
    expect(hello.y).toBeGreaterThan(72);
    expect(hello.y).toBeLessThan(72 + 12);
  });

  it.each([
    ['topLeft', 'top', 'left'],
    ['topCenter', 'top', 'center'],
    ['topRight', 'top', 'right'],
    ['bottomLeft', 'bottom', 'left'],
    ['bottomCenter', 'bottom', 'center'],
    ['bottomRight', 'bottom', 'right'],
  ])('prints "Page n of N" at %s', async (pageCount, v, h) => {
    const pages = await readText(
      await generate({
        page: { pageCount },
        data: [{ content: Array.from({ length: 120 }, (_, i) => `L${i}`).join('\n\n') }],
      }),
    );
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, i) => {
      const item = find(page, `Page ${i + 1} of ${pages.length}`)!;
      expect(item).toBeDefined();
      if (v === 'top') expect(item.baseline).toBeLessThan(37.5);
      else expect(item.y).toBeGreaterThan(792 - 37.5);
      const mid = item.x + item.width / 2;
      if (h === 'left') expect(item.x).toBeCloseTo(37.5, 0);
      if (h === 'center') expect(mid).toBeCloseTo(306, 0);
      if (h === 'right') expect(item.x + item.width).toBeCloseTo(612 - 37.5, 0);
    });
  });

  it('prints the generation time at the bottom of the last page only, unless includeTimestamp is false', async () => {
    const data = [{ content: Array.from({ length: 80 }, (_, i) => `L${i}`).join('\n\n') }];
    const pages = await readText(await engine.generate({ logo: false, data }));
    const stamps = pages.map((p) => p.items.filter((i) => i.str.startsWith('Generated at ')));
    expect(stamps.slice(0, -1).every((s) => s.length === 0)).toBe(true);
    const [stamp] = stamps[stamps.length - 1];
    expect(stamp.str).toBe('Generated at 2026-11-22 14:03 UTC');
    expect(stamp.y).toBeGreaterThan(792 - 37.5);
    const off = await pageText(await engine.generate({ logo: false, includeTimestamp: false, data }));
    expect(off.join('')).not.toContain('Generated at');
  });

  it('prints the timestamp in the engine time zone', async () => {
    const tokyo = createEngine({ now: () => NOW, timeZone: 'Asia/Tokyo' });
    try {
      const [text] = await pageText(await tokyo.generate({ logo: false, data: [{ content: 'x' }] }));
      expect(text).toContain('Generated at 2026-11-22 23:03 GMT+9');
    } finally {
      await tokyo.close();
    }
  });

  const inkBox = (img: { width: number; rgba: Uint8ClampedArray }, x0: number, y0: number, x1: number, y1: number) => {
    let n = 0;
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++)
        if (img.rgba[(y * img.width + x) * 4 + 2] < 250 || img.rgba[(y * img.width + x) * 4] < 250) n++;
    return n;
  };

  it('draws the default logo top right of page 1 only; false removes it', async () => {
    const data = [{ content: Array.from({ length: 80 }, (_, i) => `L${i}`).join('\n\n') }];
    const withLogo = await renderPages(await engine.generate({ includeTimestamp: false, data }), 1);
    const without = await renderPages(await engine.generate({ includeTimestamp: false, logo: false, data }), 1);
    // Top-right corner of the content area, clear of the left-aligned text.
    expect(inkBox(withLogo[0], 450, 38, 574, 80)).toBeGreaterThan(300);
    expect(inkBox(without[0], 450, 38, 574, 80)).toBe(0);
    expect(inkBox(withLogo[1], 450, 38, 574, 80)).toBe(0);
  });

  it('fits a custom logo in maxWidth × maxHeight (CSS px) without enlarging it', async () => {
    const logo = await pngDataUrl(400, 100, [0, 128, 0]);
    const measure = async (opts: Record<string, unknown>) => {
      const [img] = await renderPages(
        await engine.generate({ includeTimestamp: false, logo: { src: logo, ...opts }, data: [{ content: 'x' }] }),
        1,
      );
      let minX = Infinity;
      let maxX = -1;
      let maxY = -1;
      for (let y = 0; y < 300; y++)
        for (let x = 0; x < 612; x++) {
          const o = (y * img.width + x) * 4;
          if (img.rgba[o + 1] > 100 && img.rgba[o] < 50) {
            minX = Math.min(minX, x);
            maxX = Math.max(maxX, x);
            maxY = Math.max(maxY, y);
          }
        }
      return { width: maxX - minX + 1, right: maxX + 1, height: maxY - 37.5 + 1 };
    };
    const def = await measure({});
    expect(def.width).toBeCloseTo(150, -1); // 200px
    expect(def.right).toBeCloseTo(612 - 37.5, -1);
    const small = await measure({ maxWidth: 500, maxHeight: 40 });
    expect(small.height).toBeCloseTo(30, -1); // 40px
    expect(small.width).toBeCloseTo(120, -1);
    const big = await measure({ maxWidth: 500, maxHeight: 500 });
    expect(big.width).toBeCloseTo(300, -1); // 400px natural size, not enlarged
  });

  it('shrinks a large logo to a small page', async () => {
    const logo = await pngDataUrl(600, 600, [0, 128, 0]);
    const pdf = await engine.generate({
      includeTimestamp: false,
      page: { width: '200px', height: '200px', margin: '10px' },
      logo: { src: logo, maxWidth: 500, maxHeight: 500 },
      data: [{ content: 'Body' }],
    });
    const [page] = await readText(pdf);
    const body = find(page, 'Body')!;
    // Content area is 135pt tall: the logo takes at most half of it, and the text still starts on page 1.
    expect(page.height).toBeCloseTo(150, 0);
    expect(body.y).toBeGreaterThan(7.5 + 60);
    expect(body.baseline).toBeLessThan(150 - 7.5);
  });

  it('skips a logo that does not load and still renders the document', async () => {
    const pdf = await engine.generate({ logo: { src: 'data:image/png;base64,AAAA' }, data: [{ content: 'Body' }] });
    expect((await pageText(pdf))[0]).toContain('Body');
  });

  it('rejects margins that leave no room and unknown fonts', async () => {
    await expect(
      generate({ page: { width: '100px', margin: '60px' }, data: [{ content: 'x' }] }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(generate({ data: [{ content: 'x', fontFamily: 'No Such Font' }] })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});
