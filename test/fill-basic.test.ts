import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { pageText, qpdfCheck, readText } from './helpers/pdf.js';
import { field, inRect, joined, template } from './fixtures/fill/templates.js';

const engine = createEngine();
afterAll(() => engine.close());

describe('fill: shortText end to end', () => {
  it('draws the value inside the field rect, default style', async () => {
    const f = field('shortText', { id: 'name', alias: 'name', rect: { x: 72, y: 100, width: 200, height: 20 } });
    const pdf = await engine.fill(await template([f]), { data: { name: 'Ada Lovelace' } });
    await qpdfCheck(pdf);
    const [page] = await readText(pdf);
    const items = inRect(page!.items, f.rect);
    expect(joined(items)).toBe('Ada Lovelace');
    expect(items[0]!.x).toBeCloseTo(74, 0); // left aligned, 2pt padding
    expect(items[0]!.height).toBeCloseTo(10, 0);
    expect((await pageText(pdf))[0]).toContain('Template page 1');
  });
});
