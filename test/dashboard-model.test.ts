/**
 * The dashboard app's own copy of the template shapes (src/dashboard/app/model/types.ts, written out so
 * the browser bundle carries no zod) held to the engine's: the same field types in the same order, the
 * same keys of a field, an engine field usable as the app's; and the preview's sample data is data the
 * engine fills without a 400, one field of every fill type.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { FIELD_TYPES, templateField, type TemplateField as EngineField } from '../src/fields/index.js';
import { SIGNING_TYPES as PACKET_SIGNING_TYPES } from '../src/packets/index.js';
import { FIELD_KINDS, TYPE_GROUPS } from '../src/dashboard/app/model/field-kinds.js';
import { sampleData } from '../src/dashboard/app/model/sample-data.js';
import { FILL_TYPES, SIGNING_TYPES, type TemplateField } from '../src/dashboard/app/model/types.js';
import { readText } from './helpers/pdf.js';
import { blankPdf } from './fixtures/fill/templates.js';

/** Every key of the app's TemplateField, once: the compiler refuses a missing or an extra one. */
const APP_FIELD_KEYS = {
  id: true,
  alias: true,
  type: true,
  pageNum: true,
  rect: true,
  format: true,
  style: true,
  cells: true,
  lines: true,
  options: true,
  parts: true,
  rows: true,
  readOnly: true,
  name: true,
  maxLength: true,
  square: true,
  rotation: true,
  acroFieldName: true,
} satisfies Record<keyof TemplateField, true>;

describe('dashboard model: the same shapes as the engine', () => {
  it('names the engine’s fill types and the packets’ signing types, in their order', () => {
    // The engine's template types are its fill types followed by the signing types packets sign.
    const signing: readonly string[] = PACKET_SIGNING_TYPES;
    const fill = FIELD_TYPES.filter((t) => !signing.includes(t));
    expect([...FILL_TYPES]).toEqual(fill);
    expect([...SIGNING_TYPES]).toEqual([...PACKET_SIGNING_TYPES]);
    expect([...FIELD_TYPES]).toEqual([...fill, ...PACKET_SIGNING_TYPES]);
    expect(TYPE_GROUPS.flatMap((g) => g.types)).toEqual([...FIELD_TYPES]);
    expect(Object.keys(FIELD_KINDS).sort()).toEqual([...FIELD_TYPES].sort());
  });

  it('has the keys of the engine’s template field, and an engine field is one of its fields', () => {
    expect(Object.keys(APP_FIELD_KEYS).sort()).toEqual(Object.keys(templateField.shape).sort());
    const engine: EngineField = templateField.parse({
      id: 'a',
      type: 'radioGroup',
      pageNum: 0,
      rect: { x: 1, y: 2, width: 3, height: 4 },
      options: [{ id: 'yes', rect: { x: 1, y: 2, width: 3, height: 4 } }],
      style: { verticalAlignment: 'center', textColor: '112233' },
    });
    const app: TemplateField = engine;
    expect(app.options?.[0]?.id).toBe('yes');
  });
});

describe('dashboard model: sample data for the preview', () => {
  it('fills a template with one field of every fill type without a 400, the values at their places', async () => {
    const r = (i: number, width = 150, height = 18) => ({
      x: 40 + (i % 3) * 180,
      y: 40 + Math.floor(i / 3) * 40,
      width,
      height,
    });
    const fields: TemplateField[] = FILL_TYPES.map((type, i) => {
      const f: TemplateField = { id: `${type}F`, type, pageNum: 0, rect: r(i) };
      if (type === 'radioGroup')
        f.options = [
          { id: 'yes', rect: { ...r(i), width: 12, height: 12 } },
          { id: 'no', rect: { ...r(i), x: r(i).x + 20, width: 12, height: 12 } },
        ];
      if (type === 'textWrap') f.lines = [r(i, 150, 9), { ...r(i, 150, 9), y: r(i).y + 9 }];
      if (type === 'charList') f.cells = 4;
      if (type === 'fullName') f.parts = { firstName: r(i, 60), lastName: { ...r(i, 80), x: r(i).x + 65 } };
      return f;
    });
    fields.push({ id: 'sig', type: 'signature', pageNum: 0, rect: r(30) });
    const data = sampleData(fields);
    expect(Object.keys(data)).toEqual(FILL_TYPES.map((t) => `${t}F`));
    const engine = createEngine();
    try {
      const template = { eid: 'sample', pdf: await blankPdf(), fields: fields.filter((f) => f.type !== 'signature') };
      const pdf = await engine.fill(template as never, { data, strict: true });
      const [page] = await readText(pdf);
      const text = page!.items.map((i) => i.str).join(' ');
      expect(text).toContain('Sample shortTextF');
      expect(text).toContain('03/15/2024');
      expect(text).toContain('123-45-6789');
      expect(text).toContain('$1,234.56');
      expect(text).toContain('Lovelace');
    } finally {
      await engine.close();
    }
  });

  it('gives fields sharing an alias one key, and signing fields none', () => {
    const rect = { x: 0, y: 0, width: 10, height: 10 };
    const data = sampleData([
      { id: 'a', alias: 'name', type: 'shortText', pageNum: 0, rect },
      { id: 'b', alias: 'name', type: 'shortText', pageNum: 1, rect },
      { id: 'c', type: 'signatureDate', pageNum: 0, rect },
      { id: 'd', type: 'charList', cells: 3, pageNum: 0, rect },
    ]);
    expect(data).toEqual({ name: 'Sample name', d: 'ABC' });
  });
});
