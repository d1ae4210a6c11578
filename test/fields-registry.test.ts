/** The field-type registry: one module per type, each answering for its own values, widgets and imports. */
import { describe, expect, it } from 'vitest';
import { FIELD_TYPE_MODULES, SIGNING_FIELD_TYPES, fieldType, importedType } from '../src/fields/index.js';
import { FIELD_TYPES, type TemplateField } from '../src/template/index.js';

const style = {
  fontFamily: 'Noto Sans',
  fontWeight: 'normal' as const,
  fontSize: 10,
  textColor: '#000000',
  alignment: 'left' as const,
  verticalAlignment: 'middle' as const,
};
const rect = { x: 10, y: 20, width: 100, height: 20 };
const options = { checkboxCharacter: 'X', checkboxSquare: false };

type FillType = Exclude<(typeof FIELD_TYPES)[number], (typeof SIGNING_FIELD_TYPES)[number]>;
const FILL_TYPES = FIELD_TYPES.filter((t): t is FillType => !(SIGNING_FIELD_TYPES as readonly string[]).includes(t));

/** One valid value per type that a fill fills, and what each type stores for it. */
const samples: Record<FillType, { field?: Partial<TemplateField>; value: unknown; stored: Record<string, string> }> = {
  shortText: { value: 'Ada', stored: { '': 'Ada' } },
  longText: { value: 'a b', stored: { '': 'a b' } },
  email: { value: 'a@b.c', stored: { '': 'a@b.c' } },
  ssn: { value: '123456789', stored: { '': '123-45-6789' } },
  ein: { value: '12 3456789', stored: { '': '12-3456789' } },
  date: { value: '2024-03-05', stored: { '': '03/05/2024' } },
  radioGroup: {
    field: {
      options: [
        { id: 'a', rect },
        { id: 'b', rect, exportValue: 'B' },
      ],
    },
    value: 'B',
    stored: { b: 'B' },
  },
  imageFile: { value: 'data:image/png;base64,AAAA', stored: { '': 'data:image/png;base64,AAAA' } },
  checkbox: { value: true, stored: { checked: 'true' } },
  number: { value: 1234.5, stored: { '': '1,234.5' } },
  decimalNumber: { value: '1234.5', stored: { '': '1,234.5' } },
  dollar: { value: -5, stored: { '': '-$5.00' } },
  integer: { value: 41.5, stored: { '': '42' } },
  percent: { value: 12.5, stored: { '': '12.5%' } },
  charList: { field: { cells: 4 }, value: 'AB', stored: { '': 'AB' } },
  textWrap: { field: { lines: [rect, { ...rect, y: 40 }] }, value: ['one', 'two'], stored: { '': 'one\ntwo' } },
  fullName: { value: { firstName: 'Ada', lastName: 'Lovelace' }, stored: { '': 'Ada Lovelace' } },
  usAddress: {
    value: { street1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
    stored: { '': '1 Main St\nSpringfield, IL 62701' },
  },
  phone: { value: '2025550123', stored: { '': '(202) 555-0123' } },
};

describe('field-type registry', () => {
  it('has exactly one module per template field type, named for its key', () => {
    expect(Object.keys(FIELD_TYPE_MODULES).sort()).toEqual([...FIELD_TYPES].sort());
    for (const [name, m] of Object.entries(FIELD_TYPE_MODULES)) expect(m.type).toBe(name);
  });

  for (const type of FILL_TYPES) {
    it(`${type}: formats a valid value, refuses a wrong one, and writes widgets for it`, () => {
      const s = samples[type];
      const field = { id: 'f', type, pageNum: 0, rect, ...s.field } as TemplateField;
      const m = fieldType(type);
      const out = m.format({ field, raw: s.value, box: rect, at: { dx: 0, dy: 0 }, style, options });
      expect(out).toMatchObject({ ok: true, result: { values: s.stored } });
      if (type !== 'imageFile')
        expect(m.format({ field, raw: [[1]], box: rect, at: { dx: 0, dy: 0 }, style, options }).ok).toBe(false);
      if (!out.ok) return;
      const filled = {
        field,
        property: 'data.f',
        style,
        readOnly: false,
        values: out.result.values,
        box: rect,
        contents: out.result.contents,
      };
      const widgets = m.interactive({
        filled,
        name: 'f',
        common: { pageIndex: 0, style, readOnly: false },
        at: (r) => ({ x: r.x, y: 792 - r.y - r.height, width: r.width, height: r.height }),
        checkboxSquare: false,
        paintMark: () => {},
      });
      expect(widgets.length).toBeGreaterThan(0);
      if (type === 'imageFile') expect(widgets.map((w) => w.kind)).toEqual(['image']);
    });
  }

  it('the signing kinds are template types that a fill never fills: signed as a signature field or an empty text field', () => {
    expect(SIGNING_FIELD_TYPES).toEqual(['signature', 'initial', 'signatureDate']);
    for (const type of SIGNING_FIELD_TYPES) expect(FIELD_TYPES).toContain(type);
    // Every fill type leaves signedAs unset; the renderers know a signing kind by it alone.
    expect(FILL_TYPES.filter((t) => fieldType(t).signedAs !== undefined)).toEqual([]);
    expect(SIGNING_FIELD_TYPES.map((t) => fieldType(t).signedAs)).toEqual(['signature', 'text', 'text']);
    for (const type of SIGNING_FIELD_TYPES) {
      const field = { id: 'f', type, pageNum: 0, rect } as TemplateField;
      const out = fieldType(type).format({ field, raw: 'Ada', box: rect, at: { dx: 0, dy: 0 }, style, options });
      expect(out).toEqual({ ok: false, message: 'Signing fields are signed, not filled' });
      const widgets = fieldType(type).interactive({
        filled: { field, property: 'data.f', style, readOnly: false, values: { '': '' }, box: rect, contents: [] },
        name: 'f',
        common: { pageIndex: 0, style, readOnly: false },
        at: (r) => ({ x: r.x, y: 792 - r.y - r.height, width: r.width, height: r.height }),
        checkboxSquare: false,
        paintMark: () => {},
      });
      // A signature box is written by the signature-field writer, the others as one empty text field.
      expect(widgets.map((w) => [w.kind, w.value])).toEqual(type === 'signature' ? [] : [['text', '']]);
    }
    // signatureDate takes a date format, as a packet's signatureDate does.
    expect(fieldType('signatureDate').formatProblem?.('MMMM Do, YYYY')).toBeUndefined();
    expect(fieldType('signatureDate').formatProblem?.('%Y-%m-%d')).toBeTypeOf('string');
  });

  it('imports fillable-PDF widgets in order: comb → charList, multiline → longText, check box, radio, signature, other text → shortText', () => {
    const facts = (
      kind: 'text' | 'checkbox' | 'radio' | 'combo' | 'listbox' | 'signature',
      more: { multiline?: boolean; comb?: boolean; maxLength?: number } = {},
    ) => ({ kind, multiline: false, comb: false, ...more });
    expect(importedType(facts('text', { comb: true, maxLength: 9 }))).toEqual({
      type: 'charList',
      props: { cells: 9 },
    });
    expect(importedType(facts('text', { multiline: true }))?.type).toBe('longText');
    expect(importedType(facts('text', { maxLength: 9 }))?.type).toBe('shortText');
    expect(importedType(facts('checkbox'))?.type).toBe('checkbox');
    expect(importedType(facts('radio'))?.type).toBe('radioGroup');
    expect(importedType(facts('combo'))?.type).toBe('shortText');
    expect(importedType(facts('listbox'))?.type).toBe('shortText');
    expect(importedType(facts('signature'))).toEqual({ type: 'signature', props: {} });
  });
});
