import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, ValidationError, type TemplateField } from '../src/index.js';
import { collectFillRequest } from '../src/schema/index.js';
import { rejectionOf } from './helpers/errors.js';
import { field, template } from './fixtures/fill/templates.js';

const engine = createEngine();
afterAll(() => engine.close());

async function fillError(
  fields: TemplateField[],
  body: unknown,
  templateStyle?: { fontFamily: string },
): Promise<ValidationError> {
  const e = await rejectionOf<ValidationError>(
    engine.fill(await template(fields, templateStyle ? { style: templateStyle } : {}), body),
  );
  expect(e).toBeInstanceOf(ValidationError);
  return e;
}

const fields = [
  field('percent', { id: 'pct' }),
  field('date', { id: 'when', rect: { x: 72, y: 140, width: 200, height: 20 } }),
  field('shortText', { id: 'name', rect: { x: 72, y: 180, width: 200, height: 20 } }),
];

describe('fill: every error of a request at once', () => {
  it('a bad fontSize no longer hides a bad percent value', async () => {
    const e = await fillError(fields, { fontSize: 40, data: { pct: 140 } });
    expect(e.fields).toEqual([
      { property: 'fontSize', message: 'Must be at most 30' },
      { property: 'data.pct', message: 'Expected a percentage from 0 to 100, received 140' },
    ]);
    expect(e.message).toBe('fontSize: Must be at most 30; data.pct: Expected a percentage from 0 to 100, received 140');
  });

  it('request options, value-object styling, unknown fonts, template fonts and values are reported together', async () => {
    const e = await fillError(
      fields,
      {
        fontSize: 40,
        textColor: 'red',
        fontFamily: 'No Such Font',
        data: { pct: 'lots', when: '2024-02-30', name: { value: 'Ada', fontSize: 2 } },
      },
      { fontFamily: 'Another Missing Font' },
    );
    expect(e.fields.map((f) => f.property).sort()).toEqual(
      [
        'data.name.fontSize',
        'data.pct',
        'data.when',
        'fontFamily',
        'fontSize',
        'template.style.fontFamily',
        'textColor',
      ].sort(),
    );
  });

  it('per-fill data in an array: each fill’s problems, with their index', async () => {
    const e = await fillError(fields, {
      alignment: 'justify',
      data: [{ pct: 50 }, { pct: -1, name: { value: 'x', textColor: 'blue' } }],
    });
    expect(e.fields.map((f) => f.property).sort()).toEqual(
      ['alignment', 'data[1].name.textColor', 'data[1].pct'].sort(),
    );
  });

  it('a valid body still renders, and 400s come before the 404 of an unknown template', async () => {
    const pdf = await engine.fill(await template(fields), {
      fontSize: 12,
      data: { pct: 50, when: '2024-03-05', name: 'Ada' },
    });
    expect(pdf.byteLength).toBeGreaterThan(0);
    await expect(engine.fill('no-such-eid', { data: { a: 1 } })).rejects.toMatchObject({ status: 404 });
    await expect(engine.fill('no-such-eid', { fontSize: 40, data: { a: 1 } })).rejects.toMatchObject({
      status: 400,
      fields: [{ property: 'fontSize' }],
    });
  });

  it('collectFillRequest keeps what it could read and leaves out what failed', () => {
    const { errors, request } = collectFillRequest({
      fontSize: 40,
      title: 'T',
      data: { a: 'x', b: { value: 1, fontSize: 99 } },
    });
    expect(errors.map((f) => f.property)).toEqual(['fontSize', 'data.b.fontSize']);
    expect(request).toEqual({ title: 'T', data: [{ a: 'x' }], dataWasArray: false });
    expect(collectFillRequest({ fontSize: 40 })).toEqual({
      errors: [
        { property: 'fontSize', message: 'Must be at most 30' },
        { property: 'data', message: 'Required' },
      ],
    });
  });
});

describe('generate: the mode and data errors together', () => {
  it('a bad type and a missing data are one error with both', async () => {
    await expect(engine.generate({ type: 'pdf' })).rejects.toMatchObject({
      status: 400,
      fields: [{ property: 'type' }, { property: 'data', message: 'Required' }],
    });
  });

  it('Markdown: the document options and every block are checked in one pass', async () => {
    const e = await rejectionOf(
      engine.generate({ fontSize: 40, data: [{ heading: 'x', fontSize: 2 }, { table: { rows: 'no' } }] }),
    );
    expect(e.status).toBe(400);
    expect(e.fields.map((f) => f.property).sort()).toEqual(['data[0].fontSize', 'data[1].table.rows', 'fontSize']);
  });

  it('Markdown: unknown fonts are in the same 400 as the body’s other problems', async () => {
    const e = await rejectionOf(
      engine.generate({
        fontSize: 40,
        fontFamily: 'No Such Font',
        data: [{ content: 'x', fontFamily: 'Nor This' }, { table: { rows: 'no' } }],
      }),
    );
    expect(e.fields.map((f) => f.property).sort()).toEqual([
      'data[0].fontFamily',
      'data[1].table.rows',
      'fontFamily',
      'fontSize',
    ]);
    expect(e.fields.find((f) => f.property === 'data[0].fontFamily')?.message).toBe('Unknown font "Nor This"');
  });
});
