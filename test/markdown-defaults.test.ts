/** The defaults docs/reference/markdown.md promises, read back from rendered PDFs. */
import { afterAll, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { readText, type PageText } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';

const engine = createEngine({ now: () => new Date('2026-11-22T14:03:00Z') });
afterAll(() => engine.close());

const item = (page: PageText, s: string) => page.items.find((i) => i.str === s)!;

it('sizes text as documented: body 12pt, block heading 1.6×, label bold at body size, Markdown headings h1–h6', async () => {
  const [page] = await readText(
    await engine.generate({
      logo: false,
      includeTimestamp: false,
      data: [
        {
          heading: 'Block heading',
          label: 'Label',
          content: 'Body\n\n# H1\n\n## H2\n\n### H3\n\n#### H4\n\n##### H5\n\n###### H6',
        },
      ],
    }),
  );
  expect(item(page, 'Body').height).toBeCloseTo(12, 0);
  expect(item(page, 'Block heading').height).toBeCloseTo(19.2, 0);
  expect(item(page, 'Label').height).toBeCloseTo(12, 0);
  expect(item(page, 'Label').fontName).not.toBe(item(page, 'Body').fontName);
  const sizes = ['H1', 'H2', 'H3', 'H4', 'H5', 'H6'].map((h) => Math.round(item(page, h).height * 10) / 10);
  expect(sizes).toEqual([21, 18, 15, 13.2, 12, 10.8]);
});

it('prints black text on US Letter, content from the 50px margin, the default logo 140×48px at the top right', async () => {
  const pdf = await engine.generate({ includeTimestamp: false, data: [{ content: 'Body' }] });
  const [page] = await readText(pdf);
  expect(page.width).toBeCloseTo(612, 0);
  const body = item(page, 'Body');
  expect(body.x).toBeCloseTo(37.5, 0);
  // Below the logo: 48px = 36pt plus a gap.
  expect(body.y).toBeGreaterThan(37.5 + 36);
  const [img] = await renderPages(pdf, 1);
  let minX = Infinity;
  let maxX = 0;
  let minY = Infinity;
  let maxY = 0;
  let darkest = 255;
  for (let y = 0; y < 200; y++)
    for (let x = 0; x < 612; x++) {
      const o = (y * img.width + x) * 4;
      const [r, g, b] = img.rgba.slice(o, o + 3);
      if (b > r + 40) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
      if (y > body.y && y < body.baseline) darkest = Math.min(darkest, r, g, b);
    }
  // The artwork has a little transparent space on its right.
  expect(maxX + 1).toBeLessThanOrEqual(612 - 37.5 + 1);
  expect(maxX + 1).toBeGreaterThan(612 - 37.5 - 16);
  expect(minY).toBeGreaterThanOrEqual(37);
  expect(maxX - minX).toBeGreaterThan(80);
  expect(maxX - minX).toBeLessThanOrEqual(105);
  expect(maxY - minY).toBeLessThanOrEqual(36);
  expect(darkest).toBeLessThan(30);
});

it('formats the timestamp and page numbers as documented', async () => {
  const pages = await readText(
    await engine.generate({
      logo: false,
      page: { pageCount: 'bottomRight' },
      data: [{ content: Array.from({ length: 70 }, (_, i) => `P${i}`).join('\n\n') }],
    }),
  );
  const last = pages[pages.length - 1];
  expect(last.items.map((i) => i.str)).toEqual(
    expect.arrayContaining(['Generated at 2026-11-22 14:03 UTC', `Page ${pages.length} of ${pages.length}`]),
  );
  const stamp = item(last, 'Generated at 2026-11-22 14:03 UTC');
  expect(stamp.x).toBeCloseTo(37.5, 0);
  expect(stamp.height).toBeCloseTo(8, 0);
});
