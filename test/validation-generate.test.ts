import { describe, expect, it } from 'vitest';
import { parseGenerateRequest, type MarkdownRequest, type HtmlRequest } from '../src/schema/index.js';
import { errorOf as castpressErrorOf } from './helpers/errors.js';
import type { ValidationError } from '../src/errors/index.js';
import { expectLinearTime } from './helpers/scaling.js';

const errorOf = (fn: () => unknown) => castpressErrorOf<ValidationError>(fn);

const md = { data: [{ content: 'Hello' }] };
const html = { type: 'html', data: { html: '<p>Hi</p>' } };

describe('generate request validation', () => {
  it('an empty body asks for data', () => {
    expect(errorOf(() => parseGenerateRequest({})).fields).toEqual([{ message: 'Required', property: 'data' }]);
    expect(errorOf(() => parseGenerateRequest(undefined)).fields).toEqual([{ message: 'Required', property: 'data' }]);
  });

  // One bad value for every property of the generate table, the PageOptions, blocks, tables and logo.
  const bad: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['type', { type: 'docx' }, 'type', /one of: "html", "markdown"/],
    ['title', { title: [] }, 'title', /Expected string/],
    ['data empty', { data: [] }, 'data', /at least 1/],
    ['data not array in markdown', { type: 'markdown', data: { css: 'x' } }, 'data', /array of content blocks/],
    ['outputFormat', { outputFormat: 'zip' }, 'outputFormat', /one of/],
    ['fontSize', { fontSize: 40 }, 'fontSize', /at most 30/],
    ['fontFamily', { fontFamily: '' }, 'fontFamily', /empty/],
    ['textColor', { textColor: '#ggg000' }, 'textColor', /6-digit hex/],
    ['includeTimestamp', { includeTimestamp: 'sometimes' }, 'includeTimestamp', /Expected boolean/],
    ['logo true-ish string', { logo: 'yes' }, 'logo', /.+/],
    ['logo without src', { logo: { maxWidth: 100 } }, 'logo.src', /Required/],
    [
      'logo maxWidth over 500',
      { logo: { src: 'data:image/png;base64,AA', maxWidth: 501 } },
      'logo.maxWidth',
      /at most 500/,
    ],
    ['logo maxHeight negative', { logo: { src: 'data:image/png;base64,AA', maxHeight: -1 } }, 'logo.maxHeight', /.+/],
    ['page not object', { page: 5 }, 'page', /Expected object/],
    ['page width unit', { page: { width: '8.5inch' } }, 'page.width', /unit/],
    ['page height', { page: { height: 'tall' } }, 'page.height', /unit/],
    ['page margin shorthand', { page: { margin: '1in 2in 3in 4in 5in' } }, 'page.margin', /one to four/],
    ['page marginTop', { page: { marginTop: '-1in' } }, 'page.marginTop', /non-negative/],
    ['page marginRight', { page: { marginRight: '1 in' } }, 'page.marginRight', /unit/],
    ['page marginBottom', { page: { marginBottom: '%' } }, 'page.marginBottom', /unit/],
    ['page marginLeft', { page: { marginLeft: true } }, 'page.marginLeft', /Expected string/],
    ['page pageCount', { page: { pageCount: 'middle' } }, 'page.pageCount', /one of: "topLeft"/],
    // blocks
    ['empty block', { data: [{ content: 'a' }, {}] }, 'data[1]', /at least one of heading, label, content or table/],
    ['block heading', { data: [{ heading: 1 }] }, 'data[0].heading', /Expected string/],
    ['block label', { data: [{ label: {} }] }, 'data[0].label', /Expected string/],
    ['block content', { data: [{ content: ['x'] }] }, 'data[0].content', /Expected string/],
    ['block fontSize', { data: [{ content: 'x', fontSize: 4 }] }, 'data[0].fontSize', /at least 5/],
    ['block textColor', { data: [{ content: 'x', textColor: 'black' }] }, 'data[0].textColor', /6-digit hex/],
    ['block fontFamily', { data: [{ content: 'x', fontFamily: 12 }] }, 'data[0].fontFamily', /Expected string/],
    // tables
    ['table not object', { data: [{ table: [] }] }, 'data[0].table', /Expected object/],
    ['table rows missing', { data: [{ table: {} }] }, 'data[0].table.rows', /Required/],
    ['table row not array', { data: [{ table: { rows: ['a'] } }] }, 'data[0].table.rows[0]', /Expected array/],
    ['table cell object', { data: [{ table: { rows: [['a', {}]] } }] }, 'data[0].table.rows[0][1]', /Expected string/],
    [
      'firstRowHeaders',
      { data: [{ table: { rows: [], firstRowHeaders: 'no' } }] },
      'data[0].table.firstRowHeaders',
      /Expected boolean/,
    ],
    [
      'rowGridlines',
      { data: [{ table: { rows: [], rowGridlines: 2 } }] },
      'data[0].table.rowGridlines',
      /Expected boolean/,
    ],
    [
      'columnGridlines',
      { data: [{ table: { rows: [], columnGridlines: 'x' } }] },
      'data[0].table.columnGridlines',
      /Expected boolean/,
    ],
    [
      'verticalAlign',
      { data: [{ table: { rows: [], verticalAlign: 'baseline' } }] },
      'data[0].table.verticalAlign',
      /one of: "top", "center", "bottom"/,
    ],
    [
      'columnOptions not array',
      { data: [{ table: { rows: [], columnOptions: {} } }] },
      'data[0].table.columnOptions',
      /Expected array/,
    ],
    [
      'columnOptions align',
      { data: [{ content: 'x' }, { table: { rows: [], columnOptions: [{}, { align: 'justify' }] } }] },
      'data[1].table.columnOptions[1].align',
      /one of/,
    ],
    [
      'columnOptions width',
      { data: [{ table: { rows: [], columnOptions: [{ width: '3em' }] } }] },
      'data[0].table.columnOptions[0].width',
      /pixels .* percentage/,
    ],
  ];

  it.each(bad)('%s → typed error at its path', (_label, body, property, message) => {
    const e = errorOf(() => parseGenerateRequest({ ...md, ...body }));
    expect(e.status).toBe(400);
    expect(e.fields).toContainEqual({ property, message: expect.stringMatching(message) });
  });

  it.each([
    ['html missing', { data: { css: 'p{}' } }, 'data.html', /Required/],
    ['html not string', { data: { html: 5 } }, 'data.html', /Expected string/],
    ['css not string', { data: { html: '', css: 1 } }, 'data.css', /Expected string/],
    ['array data', { data: [{ content: 'x' }] }, 'data', /object \{html, css\}/],
    ['page in html mode', { page: { width: 'wide' } }, 'page.width', /unit/],
    ['tagged not boolean', { tagged: 'no' }, 'tagged', /Expected boolean/],
    ['tagged a number', { tagged: 0 }, 'tagged', /Expected boolean/],
  ] as Array<[string, Record<string, unknown>, string, RegExp]>)('HTML mode: %s', (_l, body, property, message) => {
    const e = errorOf(() => parseGenerateRequest({ ...html, ...body }));
    expect(e.status).toBe(400);
    expect(e.fields).toContainEqual({ property, message: expect.stringMatching(message) });
  });

  it('HTML mode: tagged is a boolean (as text too), absent by default', () => {
    expect((parseGenerateRequest({ ...html, tagged: false }) as HtmlRequest).tagged).toBe(false);
    expect((parseGenerateRequest({ ...html, tagged: 'false' }) as HtmlRequest).tagged).toBe(false);
    expect((parseGenerateRequest({ ...html, tagged: true }) as HtmlRequest).tagged).toBe(true);
    expect((parseGenerateRequest(html) as HtmlRequest).tagged).toBeUndefined();
  });

  it('normalises the spellings clients send', () => {
    const r = parseGenerateRequest({
      fontSize: '12',
      data: [
        {
          table: {
            rows: [['a', 1, null, true]],
            rowGridLines: true,
            columnGridLines: true,
            verticalAlign: 'middle',
            columnOptions: [{}, null, { width: 80 }],
          },
        },
      ],
      page: JSON.stringify({ width: 612, margin: '0 1in', pageCount: 'bottomCenter' }),
    }) as MarkdownRequest;
    expect(r.type).toBe('markdown');
    expect(r.fontSize).toBe(12);
    expect(r.includeTimestamp).toBe(true);
    const t = r.data[0].table!;
    expect(t).toEqual({
      rows: [['a', '1', '', 'true']],
      firstRowHeaders: true,
      rowGridlines: true,
      columnGridlines: true,
      verticalAlign: 'center',
      columnOptions: [{}, {}, { width: '80px' }],
    });
    expect(r.page).toEqual({ width: '612px', margin: '0px 1in', pageCount: 'bottomCenter' });
  });

  it('generate rule 1: an html key in data means HTML mode even with type markdown', () => {
    const r = parseGenerateRequest({ type: 'markdown', data: { html: '<p>x</p>' } }) as HtmlRequest;
    expect(r.type).toBe('html');
    expect(r.data.html).toBe('<p>x</p>');
  });

  it('infers HTML mode from data.html and ignores Markdown-only options there', () => {
    const r = parseGenerateRequest({
      data: { html: '<p>x</p>', css: 'p{}' },
      fontSize: 99,
      logo: 'bad',
      includeTimestamp: 'bad',
    }) as HtmlRequest;
    expect(r.type).toBe('html');
    expect(r.data).toEqual({ html: '<p>x</p>', css: 'p{}' });
    expect(r).not.toHaveProperty('fontSize');
  });

  it('logo: false, true and objects with defaults', () => {
    const logo = (l: unknown) => (parseGenerateRequest({ ...md, logo: l }) as MarkdownRequest).logo;
    expect(logo(false)).toBe(false);
    expect(logo({ src: 'data:image/png;base64,AA' })).toEqual({
      src: 'data:image/png;base64,AA',
      maxWidth: 200,
      maxHeight: 200,
    });
    expect(logo({ src: 'https://x/y.png', maxWidth: '300px', maxHeight: 500 })).toEqual({
      src: 'https://x/y.png',
      maxWidth: 300,
      maxHeight: 500,
    });
    expect(logo({ src: 'https://x/y.png', maxWidth: ' 120 px ', maxHeight: ' 80 \t' })).toEqual({
      src: 'https://x/y.png',
      maxWidth: 120,
      maxHeight: 80,
    });
  });

  it('a logo size of many spaces before a stray letter is refused in linear time (80 KB took 11 s)', async () => {
    // n characters; 8x as many cost under 22.6x (quadratic: 64x).
    const sizes = [
      (n: number) => `1${' '.repeat(n)}x`,
      (n: number) => `1 ${'px '.repeat(n / 3)}`,
      (n: number) => `${' '.repeat(n)}1x`,
    ];
    // Every pattern in one measurement: one that went quadratic again would dominate the sum.
    const refused = await expectLinearTime(
      'logo sizes',
      async (n) =>
        sizes.map(
          (size) =>
            errorOf(() => parseGenerateRequest({ ...md, logo: { src: 'data:image/png;base64,AA', maxWidth: size(n) } }))
              .fields,
        ),
      3_750,
      30_000,
    );
    for (const fields of refused) expect(fields.map((f) => f.property)).toEqual(['logo.maxWidth']);
  });
});
