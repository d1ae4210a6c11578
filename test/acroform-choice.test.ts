/** The field writer's choice fields (combo and list), password and required text, written through a kernel update session. */
import { PDFDocument } from '@cantoo/pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addInteractiveFields,
  flattenForm,
  type FieldTextStyle,
  type InteractiveFieldSpec,
} from '../src/acroform/index.js';
import { FontRegistry } from '../src/fonts/index.js';
import { UpdateSession } from '../src/pdf/index.js';
import { TextSetter } from '../src/text/index.js';
import { pageText, qpdfCheck, qpdfFields, readFields } from './helpers/pdf.js';

let registry: FontRegistry;
beforeAll(() => {
  registry = new FontRegistry();
});

const style: FieldTextStyle = {
  fontFamily: 'Noto Sans',
  fontWeight: 'normal',
  fontSize: 10,
  textColor: '#3E3E57',
  alignment: 'left',
};
const rect = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
const countries = [
  { exportValue: 'us', label: 'United States' },
  { exportValue: 'ca', label: 'Canada' },
  { exportValue: 'fr', label: 'France' },
];

describe('choice, password and required fields', () => {
  it('are written as an update with appearances drawn by the text layer; qpdf reads values, choices and flags', async () => {
    const blank = await PDFDocument.create({ updateMetadata: false });
    blank.addPage([612, 792]);
    const base = await blank.save();
    const session = await UpdateSession.open(base);
    const specs: InteractiveFieldSpec[] = [
      {
        name: 'country',
        kind: 'combo',
        pageIndex: 0,
        rect: rect(50, 700, 200, 20),
        value: 'ca',
        choices: countries,
        style,
        required: true,
      },
      {
        name: 'visit',
        kind: 'list',
        pageIndex: 0,
        rect: rect(50, 600, 200, 60),
        value: 'fr',
        choices: countries,
        style,
      },
      {
        name: 'other',
        kind: 'combo',
        pageIndex: 0,
        rect: rect(50, 560, 200, 20),
        value: 'Typed text',
        choices: countries,
        style,
      },
      { name: 'pin', kind: 'text', pageIndex: 0, rect: rect(50, 520, 100, 20), value: 'secret', password: true, style },
    ];
    addInteractiveFields(session.doc, specs, new TextSetter(session.doc, registry));
    const out = await session.commit();
    expect(Buffer.compare(Buffer.from(out.subarray(0, base.byteLength)), Buffer.from(base))).toBe(0);
    await qpdfCheck(out);

    const fields = new Map((await qpdfFields(out)).map((f) => [f.fullname, f as typeof f & { ischoice: boolean }]));
    const country = fields.get('country')!;
    expect([country.fieldtype, country.value, country.ischoice]).toEqual(['/Ch', 'u:ca', true]);
    expect(country.fieldflags & (1 << 17)).not.toBe(0);
    expect(country.fieldflags & (1 << 1)).not.toBe(0);
    const visit = fields.get('visit')!;
    expect([visit.value, visit.fieldflags & (1 << 17)]).toEqual(['u:fr', 0]);
    expect(fields.get('other')!.value).toBe('u:Typed text');
    expect(fields.get('pin')!.fieldflags & (1 << 13)).not.toBe(0);
    // qpdf lists /Opt only on a field that is its own widget; pdfjs reads the [export, label] pairs.
    const options = new Map((await readFields(out)).map((f) => [f.name, f.options]));
    expect(options.get('country')).toEqual(
      countries.map((c) => ({ exportValue: c.exportValue, displayValue: c.label })),
    );

    // What viewers show before anyone edits (the appearances, burnt into the page to read them back):
    // the chosen labels, every list row, bullets for the password.
    const flat = await PDFDocument.load(out);
    flattenForm(flat);
    const [shown] = await pageText(await flat.save());
    expect(shown).toContain('Canada');
    expect(shown).toContain('Typed text');
    for (const c of countries) expect(shown).toContain(c.label);
    expect(shown).toContain('\u2022'.repeat(6));
    expect(shown).not.toContain('secret');
  });
});
