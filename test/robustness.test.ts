/**
 * Bad input never crashes and never hangs: valid fill and Markdown requests are
 * mutated at random (seeded, so a failure replays) and every call must either
 * produce a PDF or reject with a CastpressError whose JSON is the spec's
 * `{name, message, fields: [{message, property}]}`. Anything else — a TypeError,
 * a RangeError from deep inside pdf-lib, a promise that never settles — fails.
 */
import { seededRandom } from './helpers/random.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, isCastpressError, type TemplateInput } from '../src/index.js';
import { blankPdf, field, pngDataUrl, template } from './fixtures/fill/templates.js';

const engine = createEngine({ now: () => new Date('2026-01-01T00:00:00Z') });
afterAll(() => engine.close());

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const JUNK: Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  -1e-308,
  3.5,
  '',
  ' ',
  'x'.repeat(5000),
  '12',
  '-3',
  '#GGGGGG',
  '#fff',
  '1990-02-31',
  '2024-13-01',
  'not-a-date',
  'data:image/png;base64,AAAA',
  'data:image/png;base64,',
  'http://127.0.0.1:9/x.png',
  'file:///etc/passwd',
  '{{pageNumber}}{{totalPages}}{{nope}}',
  '\u0000\uFFFF\uD800',
  '𝕏 שלום مرحبا 你好',
  '<script>alert(1)</script>',
  [],
  [[]],
  [null],
  [1, 'a', { value: 2 }],
  {},
  { value: null },
  { value: 'x', fontSize: 99 },
  { value: 'x', textColor: 'blue', alignment: 'sideways' },
  { data: [] },
  { num: '555', region: 'ZZ' },
  { firstName: 1, lastName: [] },
  { __proto__: { polluted: true } } as unknown as Json,
  { constructor: 'x', toString: 1 } as unknown as Json,
];

/** Thousands of levels deep, made fresh each time (too deep to copy by JSON): walkers must not overflow the stack. */
const DEEP: Array<() => Json> = [
  () => JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`) as Json,
  () => JSON.parse(`${'{"value":'.repeat(3000)}1${'}'.repeat(3000)}`) as Json,
  () => JSON.parse(`${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`) as Json,
];

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function brief(body: Json): string {
  try {
    return JSON.stringify(body).slice(0, 400);
  } catch {
    return '(too deep to print)';
  }
}

/** Every path to a value inside `v` (including the root's children), as key lists. */
function paths(
  v: Json,
  prefix: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  // Edits go no deeper than a real request nests (and deep junk is not walked).
  if (prefix.length >= 8) return out;
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([...prefix, i]), paths(x, [...prefix, i], out)));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) (out.push([...prefix, k]), paths(x, [...prefix, k], out));
  return out;
}

/** One to three edits: replace a value with junk, delete it, or add a junk key. */
function mutate(base: Json, rnd: () => number): Json {
  const v = clone(base) as { [k: string]: Json };
  const edits = 1 + Math.floor(rnd() * 3);
  for (let e = 0; e < edits; e++) {
    const all = paths(v);
    const path = all[Math.floor(rnd() * all.length)];
    const junk =
      rnd() < 0.06 ? DEEP[Math.floor(rnd() * DEEP.length)]!() : clone(JUNK[Math.floor(rnd() * JUNK.length)] ?? null);
    if (!path || path.length === 0) continue;
    let parent: Json = v;
    for (const k of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[k] ?? null;
    if (!parent || typeof parent !== 'object') continue;
    const last = path[path.length - 1]!;
    const roll = rnd();
    if (roll < 0.7) (parent as Record<string | number, Json>)[last] = junk;
    else if (roll < 0.85 && !Array.isArray(parent)) delete (parent as Record<string, Json>)[last as string];
    else if (!Array.isArray(parent)) (parent as Record<string, Json>)[`extra${e}`] = junk;
  }
  return v;
}

/** A settled outcome, or a failure message: the call must end (deadline) with bytes or a typed error. */
async function outcome(call: () => Promise<Uint8Array>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('HANG: no answer within 20 s')), 20_000);
  });
  try {
    const pdf = await Promise.race([call(), deadline]);
    return new TextDecoder().decode(pdf.slice(0, 5)) === '%PDF-' ? 'pdf' : 'not a PDF';
  } catch (e) {
    if (!isCastpressError(e))
      return `untyped ${e instanceof Error ? `${e.name}: ${e.message}\n${e.stack?.split('\n').slice(1, 4).join('\n')}` : String(e)}`;
    const body = e.toJSON() as { name?: unknown; message?: unknown; fields?: unknown };
    const shapeOk =
      typeof body.name === 'string' &&
      typeof body.message === 'string' &&
      Array.isArray(body.fields) &&
      body.fields.every(
        (f: { message?: unknown; property?: unknown }) =>
          typeof f.message === 'string' && typeof f.property === 'string',
      );
    if (!shapeOk) return `bad error body ${JSON.stringify(body)}`;
    if (!(e.status >= 400 && e.status < 600)) return `bad status ${e.status}`;
    return e.status >= 500 ? `server error ${JSON.stringify(body)}` : `typed ${e.status}`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends `count` mutations of `valid` (seeded: ROBUST_SEED replays or varies a run) and
 * returns the failures (anything but a PDF or a typed error) and how often each outcome came.
 */
async function mutations(
  valid: Json,
  count: number,
  seed: number,
  call: (body: Json, rnd: () => number) => Promise<Uint8Array>,
): Promise<{ bad: string[]; seen: Map<string, number> }> {
  const rnd = seededRandom(Number(process.env.ROBUST_SEED ?? seed));
  const bad: string[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const body = mutate(valid, rnd);
    const got = await outcome(() => call(body, rnd));
    const kind = got.split(' ')[0]!;
    seen.set(kind, (seen.get(kind) ?? 0) + 1);
    if (kind !== 'pdf' && kind !== 'typed') bad.push(`#${i} ${got}\n  body: ${brief(body)}`);
  }
  return { bad, seen };
}

const r = (x: number, y: number, width = 200, height = 20) => ({ x, y, width, height });

async function everyTypeTemplate(): Promise<TemplateInput> {
  return template([
    field('shortText', { id: 'short', rect: r(72, 60) }),
    field('longText', { id: 'long', rect: r(72, 90, 200, 60) }),
    field('email', { id: 'email', rect: r(320, 60) }),
    field('ssn', { id: 'ssn', rect: r(320, 90) }),
    field('ein', { id: 'ein', rect: r(320, 120) }),
    field('date', { id: 'date', rect: r(72, 160), format: 'MM/DD/YYYY' }),
    field('number', { id: 'number', rect: r(320, 160) }),
    field('integer', { id: 'integer', rect: r(72, 190) }),
    field('dollar', { id: 'dollar', rect: r(320, 190) }),
    field('percent', { id: 'percent', rect: r(72, 220) }),
    field('phone', { id: 'phone', rect: r(320, 220) }),
    field('checkbox', { id: 'check', rect: r(72, 250, 20, 20) }),
    field('radioGroup', {
      id: 'radio',
      rect: r(320, 250, 60, 20),
      options: [
        { id: 'a', rect: r(320, 250, 20, 20) },
        { id: 'b', rect: r(350, 250, 20, 20) },
      ],
    }),
    field('charList', { id: 'chars', rect: r(72, 290, 160, 24), cells: 8 }),
    field('fullName', {
      id: 'name',
      rect: r(320, 290, 220, 20),
      parts: { firstName: r(320, 290, 90), mi: r(412, 290, 20), lastName: r(434, 290, 106) },
    }),
    field('usAddress', { id: 'address', rect: r(72, 330, 220, 50) }),
    field('textWrap', { id: 'wrap', rect: r(320, 330, 220, 56), lines: [r(320, 330, 220, 16), r(320, 350, 220, 16)] }),
    field('imageFile', { id: 'image', rect: r(72, 400, 120, 80) }),
    field('shortText', { id: 'rows', rect: r(320, 400), rows: [r(320, 400), r(320, 420)] }),
  ]);
}

describe('robustness: mutated requests give a PDF or a typed error, never a crash or a hang', () => {
  it('fill: 400 mutations of a request touching every field type', async () => {
    const tpl = await everyTypeTemplate();
    const valid: Json = {
      title: 'Robust',
      fontSize: 10,
      textColor: '#333333',
      useInteractiveFields: false,
      data: {
        short: 'Short',
        long: 'Long text that wraps',
        email: 'a@b.co',
        ssn: '123456789',
        ein: '987654321',
        date: '2024-01-30',
        number: 12.5,
        integer: 3,
        dollar: 1234.5,
        percent: 42,
        phone: { num: '2025550123', region: 'US', baseRegion: 'US' },
        check: true,
        radio: 'b',
        chars: 'AB12',
        name: { firstName: 'Ada', mi: 'K', lastName: 'Lovelace' },
        address: { street1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
        wrap: ['one', 'two'],
        image: await pngDataUrl(4, 4, { r: 1, g: 2, b: 3 }),
        rows: ['r1', 'r2', 'r3'],
      },
    };
    expect(await outcome(() => engine.fill(tpl, valid as never))).toBe('pdf');
    const { bad, seen } = await mutations(valid, 400, 20261122, (body, rnd) => {
      if (rnd() < 0.2) (body as Record<string, Json>).useInteractiveFields = true;
      return engine.fill(tpl, body as never);
    });
    expect(bad, bad.join('\n')).toEqual([]);
    // The mutations reach both outcomes, so the test exercises validation and rendering alike.
    expect(seen.get('pdf') ?? 0).toBeGreaterThan(20);
    expect(seen.get('typed') ?? 0).toBeGreaterThan(20);
  }, 300_000);

  it('generate (Markdown): 300 mutations of a request with every block kind and page option', async () => {
    const valid: Json = {
      title: 'Robust',
      fontSize: 12,
      textColor: '#222222',
      fontFamily: 'Noto Sans',
      includeTimestamp: true,
      logo: false,
      page: { width: '8.5in', height: '11in', margin: '20mm', marginTop: '1in', pageCount: 'bottomCenter' },
      data: [
        { heading: 'Heading', fontSize: 16 },
        { label: 'Label', textColor: '#123456' },
        {
          content:
            '# Title\n\n*em* **strong** `code` [link](https://example.com)\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |',
        },
        {
          table: {
            rows: [
              ['h1', 'h2'],
              ['a', 'b'],
            ],
            firstRowHeaders: true,
            rowGridlines: true,
            columnGridlines: false,
            verticalAlign: 'center',
            columnOptions: [{ align: 'right', width: '30%' }, {}],
          },
        },
      ],
    };
    expect(await outcome(() => engine.generate(valid as never))).toBe('pdf');
    const { bad, seen } = await mutations(valid, 300, 4242, (body) => engine.generate(body as never));
    expect(bad, bad.join('\n')).toEqual([]);
    expect(seen.get('pdf') ?? 0).toBeGreaterThan(20);
    expect(seen.get('typed') ?? 0).toBeGreaterThan(20);
  }, 300_000);

  it('generate (HTML): 60 mutations of a request with paged-media CSS, a form and page options', async () => {
    const valid: Json = {
      type: 'html',
      title: 'Robust',
      page: { width: '210mm', height: '297mm', margin: '15mm', pageCount: 'bottomRight' },
      data: {
        html: '<div id="h">Header</div><table><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table><form><input type="text" name="who" value="Ada"></form><p class="n">x</p>',
        css: '#h{position:running(h)} @page{@top-center{content:element(h)}} .n::after{content:counter(page) "/" counter(pages)}',
      },
    };
    expect(await outcome(() => engine.generate(valid as never))).toBe('pdf');
    const { bad } = await mutations(valid, 60, 99, (body) => engine.generate(body as never));
    expect(bad, bad.join('\n')).toEqual([]);
  }, 300_000);

  it('templates: broken PDF bytes and malformed fields are typed errors', async () => {
    const good = await blankPdf(1);
    const rnd = seededRandom(7);
    const pdfs: Uint8Array[] = [
      new Uint8Array(),
      new TextEncoder().encode('%PDF-1.7\n%%EOF'),
      good.slice(0, good.length / 2),
    ];
    for (let i = 0; i < 20; i++) {
      const copy = good.slice();
      for (let k = 0; k < 30; k++) copy[Math.floor(rnd() * copy.length)] = Math.floor(rnd() * 256);
      pdfs.push(copy);
    }
    const bad: string[] = [];
    for (const [i, pdf] of pdfs.entries()) {
      const got = await outcome(() =>
        engine.fill({ eid: `broken${i}`, pdf, fields: [field('shortText', { id: 'a' })] }, { data: { a: 'x' } }),
      );
      if (got !== 'pdf' && !got.startsWith('typed')) bad.push(`pdf #${i}: ${got}`);
    }
    const fieldsJunk: unknown[] = [
      [{ id: 'a', type: 'shortText', pageNum: 0 }],
      [{ id: 'a', type: 'nope', pageNum: 0, rect: r(0, 0) }],
      [{ id: 'a', type: 'shortText', pageNum: 5, rect: r(0, 0) }],
      [{ id: 'a', type: 'shortText', pageNum: 0, rect: { x: 'a', y: 0, width: -1, height: Infinity } }],
      [{ id: 'a', type: 'radioGroup', pageNum: 0, rect: r(0, 0) }],
      [{ id: 'a', type: 'textWrap', pageNum: 0, rect: r(0, 0), lines: [] }],
      [{ id: 'a', type: 'charList', pageNum: 0, rect: r(0, 0), cells: 0 }],
      null,
      'fields',
    ];
    for (const [i, fields] of fieldsJunk.entries()) {
      const got = await outcome(() =>
        engine.fill({ eid: `junk${i}`, pdf: good, fields } as never, { data: { a: 'x' } }),
      );
      if (got !== 'pdf' && !got.startsWith('typed')) bad.push(`fields #${i}: ${got}`);
    }
    expect(bad, bad.join('\n')).toEqual([]);
  }, 120_000);
});
