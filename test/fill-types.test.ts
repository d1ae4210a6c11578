import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, ValidationError, type TemplateField } from '../src/index.js';
import { qpdfCheck, readText, type PageText } from './helpers/pdf.js';
import { renderPages, type RenderedPage } from './helpers/render.js';
import { field, inRect, joined, pngDataUrl, template } from './fixtures/fill/templates.js';
import { expectLinearTime } from './helpers/scaling.js';

const engine = createEngine();
afterAll(() => engine.close());

async function fillOne(
  fields: TemplateField[],
  data: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<{ pdf: Uint8Array; page: PageText }> {
  const pdf = await engine.fill(await template(fields), { data, ...extra });
  await qpdfCheck(pdf);
  const [page] = await readText(pdf);
  return { pdf, page: page! };
}

const at = (y: number, height = 20, width = 200, x = 72) => ({ x, y, width, height });

/** Share of dark (non-white) pixels in a rect given in points at render scale 1. */
function ink(p: RenderedPage, r: { x: number; y: number; width: number; height: number }): number {
  let dark = 0;
  let total = 0;
  for (let y = Math.round(r.y); y < Math.round(r.y + r.height); y++) {
    for (let x = Math.round(r.x); x < Math.round(r.x + r.width); x++) {
      const i = (y * p.width + x) * 4;
      total++;
      if (p.rgba[i]! < 200 || p.rgba[i + 1]! < 200 || p.rgba[i + 2]! < 200) dark++;
    }
  }
  return total ? dark / total : 0;
}

function pixel(p: RenderedPage, x: number, y: number): number[] {
  const i = (Math.round(y) * p.width + Math.round(x)) * 4;
  return [p.rgba[i]!, p.rgba[i + 1]!, p.rgba[i + 2]!];
}

describe('fill: text types', () => {
  it('shortText, email and longText take strings; longText wraps inside its rect', async () => {
    const long = 'The quick brown fox jumps over the lazy dog and keeps running far beyond the edge of a narrow box';
    const fields = [
      field('shortText', { id: 's', rect: at(100) }),
      field('email', { id: 'e', rect: at(130) }),
      field('longText', { id: 'l', rect: at(170, 80, 150) }),
      field('shortText', { id: 'n', rect: at(260) }),
    ];
    const { page } = await fillOne(fields, { s: 'Short', e: 'ada@example.com', l: long, n: 42 });
    expect(joined(inRect(page.items, fields[0]!.rect))).toBe('Short');
    expect(joined(inRect(page.items, fields[1]!.rect))).toBe('ada@example.com');
    const lines = inRect(page.items, fields[2]!.rect);
    expect(new Set(lines.map((l) => Math.round(l.baseline))).size).toBeGreaterThan(2);
    expect(
      lines
        .map((l) => l.str)
        .join(' ')
        .replace(/\s+/g, ' '),
    ).toBe(long);
    for (const l of lines) expect(l.x + l.width).toBeLessThanOrEqual(72 + 150 + 0.5);
    expect(joined(inRect(page.items, fields[3]!.rect))).toBe('42');
  });

  it('a single line too long for its box is drawn smaller to fit', async () => {
    const f = field('shortText', { id: 's', rect: at(100, 20, 80) });
    const { page } = await fillOne([f], { s: 'A rather long value for a small box' });
    const [item] = inRect(page.items, f.rect);
    expect(item!.str).toBe('A rather long value for a small box');
    expect(item!.height).toBeLessThan(10);
    expect(item!.x + item!.width).toBeLessThanOrEqual(72 + 80 + 0.5);
  });

  it('ssn and ein: nine digits shown formatted', async () => {
    const fields = [
      field('ssn', { id: 'ssn', rect: at(100) }),
      field('ein', { id: 'ein', rect: at(130) }),
      field('ssn', { id: 'dashed', rect: at(160) }),
    ];
    const { page } = await fillOne(fields, { ssn: '123456789', ein: '123456789', dashed: '987-65-4321' });
    expect(joined(inRect(page.items, fields[0]!.rect))).toBe('123-45-6789');
    expect(joined(inRect(page.items, fields[1]!.rect))).toBe('12-3456789');
    expect(joined(inRect(page.items, fields[2]!.rect))).toBe('987-65-4321');
  });

  it('date: YYYY-MM-DD in, the field format out (MM/DD/YYYY by default)', async () => {
    const fields = [
      field('date', { id: 'a', rect: at(100), format: 'MM/DD/YYYY' }),
      field('date', { id: 'b', rect: at(130), format: 'D MMMM YYYY' }),
      field('date', { id: 'c', rect: at(160) }),
      field('date', { id: 'd', rect: at(190), format: 'DD.MM.YY' }),
    ];
    const { page } = await fillOne(fields, { a: '2024-01-30', b: '2024-01-30', c: '1999-12-31', d: '2024-02-29' });
    expect(joined(inRect(page.items, fields[0]!.rect))).toBe('01/30/2024');
    expect(joined(inRect(page.items, fields[1]!.rect))).toBe('30 January 2024');
    expect(joined(inRect(page.items, fields[2]!.rect))).toBe('12/31/1999');
    expect(joined(inRect(page.items, fields[3]!.rect))).toBe('29.02.24');
  });

  it('number, integer, dollar, percent: documented formats; a field format overrides', async () => {
    const fields = [
      field('number', { id: 'n', rect: at(100) }),
      field('integer', { id: 'i', rect: at(130) }),
      field('dollar', { id: 'd', rect: at(160) }),
      field('dollar', { id: 'neg', rect: at(190) }),
      field('percent', { id: 'p', rect: at(220) }),
      field('number', { id: 'f', rect: at(250), format: '0.000' }),
      field('decimalNumber', { id: 'dn', rect: at(280) }),
      field('dollar', { id: 's', rect: at(310) }),
    ];
    const { page } = await fillOne(fields, {
      n: 1234.5,
      i: 41.6,
      d: 1234.5,
      neg: -5,
      p: 42,
      f: 3.14159,
      dn: 1000000,
      s: '12.3',
    });
    const text = (i: number) => joined(inRect(page.items, fields[i]!.rect));
    expect(text(0)).toBe('1,234.5');
    expect(text(1)).toBe('42');
    expect(text(2)).toBe('$1,234.50');
    expect(text(3)).toBe('-$5.00');
    expect(text(4)).toBe('42%');
    expect(text(5)).toBe('3.142');
    expect(text(6)).toBe('1,000,000');
    expect(text(7)).toBe('$12.30');
  });

  it('charList: one character per cell', async () => {
    const f = field('charList', { id: 'c', rect: at(100, 20, 100), cells: 5 });
    const { page } = await fillOne([f], { c: 'ABC' });
    const items = inRect(page.items, f.rect);
    expect(items.map((i) => i.str)).toEqual(['A', 'B', 'C']);
    items.forEach((it, i) => {
      expect(it.x).toBeGreaterThanOrEqual(72 + i * 20);
      expect(it.x + it.width).toBeLessThanOrEqual(72 + (i + 1) * 20);
    });
  });

  it('textWrap: each newline or array element goes to the next line box; long lines continue in the next box', async () => {
    const lines = [at(100, 15, 120), at(120, 15, 120), at(140, 15, 120), at(160, 15, 120)];
    const a = field('textWrap', { id: 'a', rect: at(100, 75, 120), lines });
    const { page } = await fillOne([a], { a: 'first\nsecond' });
    expect(joined(inRect(page.items, lines[0]!))).toBe('first');
    expect(joined(inRect(page.items, lines[1]!))).toBe('second');
    expect(inRect(page.items, lines[2]!)).toHaveLength(0);

    const b = field('textWrap', { id: 'b', rect: at(100, 75, 120), lines });
    const r2 = await fillOne([b], { b: ['one', 'two', 'three and a much longer line that needs two boxes'] });
    expect(joined(inRect(r2.page.items, lines[0]!))).toBe('one');
    expect(joined(inRect(r2.page.items, lines[1]!))).toBe('two');
    expect(joined(inRect(r2.page.items, lines[2]!))).toMatch(/^three and a/);
    expect(inRect(r2.page.items, lines[3]!)).toHaveLength(1);
  });

  it('textWrap: a paragraph cut into tens of thousands of lines joins the last box in linear time (300 KB took 10 s; 1 MB 19 s)', async () => {
    const lines = [at(100, 15, 40), at(120, 15, 40)];
    const tpl = await template([field('textWrap', { id: 'a', rect: at(100, 75, 40), lines })]);
    // 8x the paragraph costs under 22.6x (the quadratic join cost 64x: 150 KB took some 3 s).
    const pdf = await expectLinearTime(
      'textWrap',
      (n) => engine.fill(tpl, { data: { a: `first ${'ab '.repeat(n)}last` } }),
      6_250,
      50_000,
    );
    const [page] = await readText(pdf);
    expect(joined(inRect(page!.items, lines[0]!))).toMatch(/^first/);
    // The rest starts in the last box, at the smallest size (cut at its edge when drawn, so not inside it whole).
    expect(page!.items.some((i) => i.str.startsWith('ab ab ab') && i.x >= 72 && i.y >= 120 && i.y < 135)).toBe(true);
  });

  it('fullName: parts in their boxes, or the whole name in one box', async () => {
    const parts = { firstName: at(100, 20, 100), mi: at(100, 20, 20, 180), lastName: at(100, 20, 150, 210) };
    const fields = [
      field('fullName', { id: 'p', rect: at(100, 20, 300), parts }),
      field('fullName', { id: 'w', rect: at(140) }),
    ];
    const name = { firstName: 'Ada', mi: 'K', lastName: 'Lovelace' };
    const { page } = await fillOne(fields, { p: name, w: name });
    expect(joined(inRect(page.items, parts.firstName))).toBe('Ada');
    expect(joined(inRect(page.items, parts.mi))).toBe('K');
    expect(joined(inRect(page.items, parts.lastName))).toBe('Lovelace');
    expect(joined(inRect(page.items, fields[1]!.rect))).toBe('Ada K Lovelace');
  });

  it('usAddress: street2 and country only where the template has boxes for them', async () => {
    const parts = { street1: at(100), city: at(130, 20, 100), state: at(130, 20, 40, 180), zip: at(130, 20, 60, 230) };
    const withStreet2 = { ...parts, street2: at(160), country: at(190) };
    const fields = [
      field('usAddress', { id: 'a', rect: at(100, 60, 300), parts }),
      field('usAddress', {
        id: 'b',
        rect: at(300, 110, 300),
        parts: Object.fromEntries(Object.entries(withStreet2).map(([k, r]) => [k, { ...r, y: r.y + 200 }])),
      }),
      field('usAddress', { id: 'c', rect: at(500, 40, 300) }),
    ];
    const addr = {
      street1: '1 Main St',
      street2: 'Apt 4',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'USA',
    };
    const { page } = await fillOne(fields, { a: addr, b: addr, c: addr });
    const all = page.items.map((i) => i.str).join('|');
    expect(joined(inRect(page.items, parts.street1))).toBe('1 Main St');
    expect(joined(inRect(page.items, parts.city))).toBe('Springfield');
    expect(joined(inRect(page.items, parts.state))).toBe('IL');
    expect(joined(inRect(page.items, parts.zip))).toBe('62701');
    expect(joined(inRect(page.items, { ...withStreet2.street2, y: 360 }))).toBe('Apt 4');
    expect(joined(inRect(page.items, { ...withStreet2.country, y: 390 }))).toBe('USA');
    // Only the template with street2/country boxes shows them.
    expect(all.match(/Apt 4/g)).toHaveLength(1);
    expect(all.match(/USA/g)).toHaveLength(1);
    const c = inRect(page.items, fields[2]!.rect).map((i) => i.str);
    expect(c).toEqual(['1 Main St', 'Springfield, IL 62701']);
  });

  it('phone: national when region = baseRegion, international otherwise', async () => {
    const fields = ['a', 'b', 'c', 'd', 'e'].map((id, i) => field('phone', { id, rect: at(100 + 30 * i) }));
    const { page } = await fillOne(fields, {
      a: '2025550123',
      b: { num: '2025550123', region: 'US', baseRegion: 'GB' },
      c: { num: '02079460000', region: 'GB', baseRegion: 'GB' },
      d: { num: '02079460000', region: 'GB' },
      e: { num: '5555555555', region: 'MX', baseRegion: 'MX' },
    });
    const text = (i: number) => joined(inRect(page.items, fields[i]!.rect));
    expect(text(0)).toBe('(202) 555-0123');
    expect(text(1)).toBe('+1 202 555 0123');
    expect(text(2)).toBe('020 7946 0000');
    expect(text(3)).toBe('+44 20 7946 0000');
    expect(text(4)).toBe('55 5555 5555');
  });
});

describe('fill: marks and images', () => {
  it('checkbox: true draws the default mark, false draws nothing; the request can change the character', async () => {
    const fields = [
      field('checkbox', { id: 'yes', rect: at(100, 20, 20) }),
      field('checkbox', { id: 'no', rect: at(130, 20, 20) }),
    ];
    const { page } = await fillOne(fields, { yes: true, no: false });
    expect(joined(inRect(page.items, fields[0]!.rect, 2))).toBe('X');
    expect(inRect(page.items, fields[1]!.rect, 2)).toHaveLength(0);
    const custom = await fillOne(fields, { yes: true, no: 'false' }, { defaultCheckboxCharacter: 'V' });
    expect(joined(inRect(custom.page.items, fields[0]!.rect, 2))).toBe('V');
  });

  it('checkbox: defaultMakeCheckboxSquare draws the mark in a square centred in the rect', async () => {
    const f = field('checkbox', { id: 'c', rect: at(100, 20, 80) });
    const stretched = await renderPages((await fillOne([f], { c: true })).pdf, 1);
    const square = await renderPages((await fillOne([f], { c: true }, { defaultMakeCheckboxSquare: true })).pdf, 1);
    // The square mark stays within the centred 20×20 square; the stretched one reaches the rect's sides.
    const sides = (p: RenderedPage) =>
      ink(p, { x: 75, y: 100, width: 20, height: 20 }) + ink(p, { x: 129, y: 100, width: 20, height: 20 });
    expect(sides(square[0]!)).toBe(0);
    expect(sides(stretched[0]!)).toBeGreaterThan(0.02);
    expect(ink(square[0]!, { x: 102, y: 100, width: 20, height: 20 })).toBeGreaterThan(0.05);
  });

  it('radioGroup: the value (an option id) draws the mark in that option only', async () => {
    const options = [
      { id: 'opt-a', rect: at(100, 16, 16) },
      { id: 'opt-b', rect: at(100, 16, 16, 120) },
      { id: 'opt-c', rect: at(100, 16, 16, 168) },
    ];
    const f = field('radioGroup', { id: 'r', rect: at(100, 16, 112), options });
    const { pdf } = await fillOne([f], { r: 'opt-b' });
    const [p] = await renderPages(pdf, 1);
    expect(ink(p!, options[0]!.rect)).toBe(0);
    expect(ink(p!, options[1]!.rect)).toBeGreaterThan(0.2);
    expect(ink(p!, options[2]!.rect)).toBe(0);
  });

  it('imageFile: a data: URL image fitted inside the rect keeping its aspect ratio', async () => {
    const f = field('imageFile', { id: 'img', rect: at(100, 100, 100) });
    const { pdf } = await fillOne([f], { img: await pngDataUrl(40, 20) });
    const [p] = await renderPages(pdf, 1);
    // 2:1 image in a square box: full width, half height, centred vertically.
    expect(pixel(p!, 122, 150)).toEqual([255, 0, 0]);
    expect(pixel(p!, 122, 110)).toEqual([255, 255, 255]);
    expect(pixel(p!, 122, 190)).toEqual([255, 255, 255]);
    expect(ink(p!, { x: 73, y: 127, width: 98, height: 46 })).toBe(1);
  });

  it('imageFile: EXIF orientation is respected', async () => {
    const sharp = (await import('sharp')).default;
    // Stored 40×20 with orientation 6 (rotate 90° clockwise): shown 20×40, portrait.
    const jpg = await sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 0, g: 0, b: 255 } } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const f = field('imageFile', { id: 'img', rect: at(100, 100, 100) });
    const { pdf } = await fillOne([f], { img: `data:image/jpeg;base64,${jpg.toString('base64')}` });
    const [p] = await renderPages(pdf, 1);
    const [r, g, b] = pixel(p!, 122, 150);
    expect(b).toBeGreaterThan(200);
    expect(r! + g!).toBeLessThan(60);
    expect(pixel(p!, 80, 150)).toEqual([255, 255, 255]); // portrait: the left quarter is empty
    expect(ink(p!, { x: 100, y: 103, width: 44, height: 94 })).toBe(1);
  });

  it('imageFile: a bad, oversized or unreachable image leaves the field empty and the fill succeeds', async () => {
    const fields = [
      field('imageFile', { id: 'bad', rect: at(100, 50, 50) }),
      field('imageFile', { id: 'http', rect: at(160, 50, 50) }),
      field('imageFile', { id: 'svg', rect: at(220, 50, 50) }),
      field('imageFile', { id: 'num', rect: at(280, 50, 50) }),
      field('shortText', { id: 't', rect: at(340) }),
    ];
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>').toString('base64')}`;
    const { pdf, page } = await fillOne(fields, {
      bad: 'data:image/png;base64,AAAA',
      http: 'https://example.com/a.png',
      svg,
      num: 7,
      t: 'still filled',
    });
    expect(joined(inRect(page.items, fields[4]!.rect))).toBe('still filled');
    const [p] = await renderPages(pdf, 1);
    for (const f of fields.slice(0, 4)) expect(ink(p!, f.rect)).toBe(0);

    const small = createEngine({ limits: { imageBytes: 50 } });
    try {
      const big = field('imageFile', { id: 'big', rect: at(100, 50, 50) });
      const out = await small.fill(await template([big]), { data: { big: await pngDataUrl(200, 200) } });
      expect(ink((await renderPages(out, 1))[0]!, big.rect)).toBe(0);
    } finally {
      await small.close();
    }
  });

  it('imageFile: http URLs go through the engine resolver', async () => {
    const sharp = (await import('sharp')).default;
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: { r: 0, g: 128, b: 0 } } })
      .png()
      .toBuffer();
    const asked: string[] = [];
    const withResolver = createEngine({
      resolver: async (url) => {
        asked.push(url);
        return url === 'https://img.example/logo.png' ? { body: new Uint8Array(png), contentType: 'image/png' } : null;
      },
    });
    try {
      const f = field('imageFile', { id: 'img', rect: at(100, 50, 50) });
      const out = await withResolver.fill(await template([f]), { data: { img: 'https://img.example/logo.png' } });
      expect(asked).toEqual(['https://img.example/logo.png']);
      expect(ink((await renderPages(out, 1))[0]!, { x: 74, y: 102, width: 46, height: 46 })).toBe(1);
    } finally {
      await withResolver.close();
    }
  });
});

describe('fill: data rules', () => {
  it('keys matching no field are ignored; null and absent values are ignored; fields sharing an alias all get the value', async () => {
    const fields = [
      field('shortText', { id: 'one', alias: 'shared', rect: at(100) }),
      field('shortText', { id: 'two', alias: 'shared', rect: at(130) }),
      field('shortText', { id: 'three', alias: 'nothing', rect: at(160) }),
      field('shortText', { id: 'byId', rect: at(190) }),
      field('shortText', { id: 'absent', rect: at(220) }),
    ];
    const { page } = await fillOne(fields, { shared: 'Both', nothing: null, unknownKey: 'ignored', byId: 'by id' });
    expect(joined(inRect(page.items, fields[0]!.rect))).toBe('Both');
    expect(joined(inRect(page.items, fields[1]!.rect))).toBe('Both');
    expect(inRect(page.items, fields[2]!.rect)).toHaveLength(0);
    expect(joined(inRect(page.items, fields[3]!.rect))).toBe('by id');
    expect(inRect(page.items, fields[4]!.rect)).toHaveLength(0);
    expect(page.items.map((i) => i.str).join('')).not.toContain('ignored');
  });

  it('values that cannot be formatted for their type are one 400 listing every bad property', async () => {
    const fields = [
      field('ssn', { id: 'ssn' }),
      field('date', { id: 'date' }),
      field('percent', { id: 'pct' }),
      field('checkbox', { id: 'cb' }),
      field('radioGroup', { id: 'radio', options: [{ id: 'a', rect: at(100) }] }),
      field('charList', { id: 'chars', cells: 3 }),
      field('phone', { id: 'tel' }),
      field('fullName', { id: 'name', parts: { firstName: at(100) } }),
      field('number', { id: 'num' }),
    ];
    const t = await template(fields);
    const err = await engine
      .fill(t, {
        data: {
          ssn: '12ab',
          date: '31/12/2020',
          pct: 150,
          cb: 'yes',
          radio: 'z',
          chars: 'ABCD',
          tel: { num: '123', region: 'FR' },
          name: 'Ada',
          num: 'many',
        },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const v = err as ValidationError;
    expect(v.status).toBe(400);
    expect(v.fields.map((f) => f.property).sort()).toEqual(
      [
        'data.cb',
        'data.chars',
        'data.date',
        'data.name',
        'data.num',
        'data.pct',
        'data.radio',
        'data.ssn',
        'data.tel',
      ].sort(),
    );
    expect(v.fields.find((f) => f.property === 'data.pct')!.message).toMatch(/0 to 100/);

    const arr = await engine
      .fill(t, { data: [{ ssn: '123456789' }, { date: ['2020-01-01', '2020-13-01'] }] })
      .catch((e: unknown) => e);
    expect((arr as ValidationError).fields.map((f) => f.property)).toEqual(['data[1].date[1]']);
  });
});

describe('text that does not fit even at the smallest size stays in its box', () => {
  it('longText: lines past the bottom are left out (not drawn over what is below); shortText: clipped at the sides', async () => {
    const long = at(100, 40, 150);
    const short = at(200, 20, 120);
    const words = Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' ');
    const { pdf, page } = await fillOne(
      [field('longText', { id: 'l', rect: long }), field('shortText', { id: 's', rect: short })],
      { l: words, s: words },
    );
    const block = page.items
      .filter((i) => i.str.trim() !== '' && i.x < long.x + long.width && i.baseline < short.y - 5)
      .sort((a, b) => a.baseline - b.baseline);
    // The block starts with the first words, at the smallest size, and no baseline leaves the box.
    expect(block[0]!.str.startsWith('word0')).toBe(true);
    expect(block[0]!.height).toBeLessThan(6);
    for (const it of block) expect(it.baseline, it.str).toBeLessThanOrEqual(long.y + long.height + 0.5);
    // Nothing is painted right of the one-line box or below the block.
    const [rendered] = await renderPages(pdf, 1);
    expect(ink(rendered!, { x: short.x + short.width + 1, y: short.y, width: 100, height: short.height })).toBe(0);
    expect(ink(rendered!, { x: long.x, y: long.y + long.height + 2, width: long.width, height: 50 })).toBe(0);
    expect(ink(rendered!, { x: long.x, y: long.y, width: long.width, height: long.height })).toBeGreaterThan(0.02);
  });
});
