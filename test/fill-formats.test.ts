import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, ValidationError, type TemplateField } from '../src/index.js';
import { readText } from './helpers/pdf.js';
import { rejectionOf } from './helpers/errors.js';
import { field, inRect, joined, template } from './fixtures/fill/templates.js';

const engine = createEngine();
afterAll(() => engine.close());

const at = (y: number) => ({ x: 72, y, width: 300, height: 20 });

async function shown(fields: TemplateField[], data: Record<string, unknown>): Promise<string[]> {
  const pdf = await engine.fill(await template(fields), { data });
  const [page] = await readText(pdf);
  return fields.map((f) => joined(inRect(page!.items, f.rect)));
}

async function fillError(fields: TemplateField[], data: Record<string, unknown>): Promise<ValidationError> {
  const e = await rejectionOf<ValidationError>(engine.fill(await template(fields), { data }));
  expect(e).toBeInstanceOf(ValidationError);
  return e;
}

describe('fill: date and number formats', () => {
  it('prints weekday, ordinal and time tokens instead of leaving them literal', async () => {
    const fields = [
      field('date', { id: 'long', rect: at(100), format: 'dddd, MMMM Do YYYY' }),
      field('date', { id: 'time', rect: at(130), format: 'HH:mm' }),
      field('date', { id: 'stamp', rect: at(160), format: 'ddd D MMM YY, h:mm A' }),
      field('date', { id: 'lit', rect: at(190), format: '[Week] W [of] GGGG' }),
    ];
    expect(
      await shown(fields, {
        long: '2024-03-05',
        time: '2024-03-05T14:30',
        stamp: '2024-03-05T09:05:00+01:00',
        lit: '2021-01-01',
      }),
    ).toEqual(['Tuesday, March 5th 2024', '14:30', 'Tue 5 Mar 24, 9:05 AM', 'Week 53 of 2020']);
  });

  it('a template date format with an unknown token is a 400 on that field’s format', async () => {
    const e = await fillError(
      [
        field('shortText', { id: 'a', rect: at(100) }),
        field('date', { id: 'd', rect: at(130), format: 'YYYY-MM-DDTHH:mm' }),
      ],
      { d: '2024-03-05' },
    );
    expect(e.status).toBe(400);
    expect(e.fields).toEqual([
      {
        property: 'template.fields[1].format',
        message: expect.stringMatching(/Unknown date token "T" at position 11/),
      },
    ]);
  });

  it('number formats: the supported patterns print, unknown ones are a 400 on the field’s format', async () => {
    const fields = [
      field('dollar', { id: 'acc', rect: at(100), format: '($0,0.00)' }),
      field('number', { id: 'eur', rect: at(130), format: '0,0.00 €' }),
      field('number', { id: 'plus', rect: at(160), format: '+0.0[0]' }),
    ];
    expect(await shown(fields, { acc: -1234.5, eur: 1234.5, plus: 2 })).toEqual(['($1,234.50)', '1,234.50 €', '+2.0']);

    const e = await fillError(
      [
        field('number', { id: 'n', rect: at(100), format: '0.0a' }),
        field('percent', { id: 'p', rect: at(130), format: '0o%' }),
      ],
      { n: 1 },
    );
    expect(e.fields.map((f) => f.property)).toEqual(['template.fields[0].format', 'template.fields[1].format']);
  });

  it('a format on a type that prints no formatted value is ignored', async () => {
    expect(await shown([field('shortText', { id: 's', rect: at(100), format: 'whatever' })], { s: 'kept' })).toEqual([
      'kept',
    ]);
  });
});
