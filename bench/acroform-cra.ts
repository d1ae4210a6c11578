/**
 * CRA B300 (13 pages, 726 fields): filling every text field, the comb fields
 * and the radio groups, then flattening and saving. Anchor: @cantoo/pdf-lib's
 * own form API (setText/select, flatten, save) on the same values in the same
 * run. Runnable alone: `npx tsx bench/acroform-cra.ts`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PDFDocument, PDFRadioGroup, PDFTextField } from '@cantoo/pdf-lib';
import { fillExistingFields, type ExistingFieldValue } from '../src/acroform/index.js';
import { templateFromPdf } from '../src/fields/index.js';
import { FontRegistry } from '../src/fonts/index.js';
import { loadPdf } from '../src/pdf/index.js';
import { TextSetter } from '../src/text/index.js';
import type { TemplateField } from '../src/template/index.js';
import { timeMedian, type BenchRow } from './types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const CRA = path.resolve(here, '../test/fixtures/corpus/fillable_pdfs/ca_cra_cannabis_duty_return_combed.pdf');

function valueFor(f: TemplateField, i: number, script: 'latin' | 'mixed'): string | boolean {
  if (f.type === 'radioGroup') return f.options?.[1]?.id ?? '';
  if (f.type === 'checkbox') return i % 2 === 0;
  if (f.type === 'charList') return '1234567890123456'.slice(0, f.cells ?? 4);
  return script === 'latin' ? `Value ${i} Abc` : `Значение ${i} 東京`;
}

export async function run(): Promise<BenchRow[]> {
  const bytes = new Uint8Array(readFileSync(CRA));
  const template = await templateFromPdf(bytes);
  const registry = new FontRegistry();
  const values = (script: 'latin' | 'mixed'): ExistingFieldValue[] =>
    template.fields.map((f, i) => ({
      acroFieldName: f.acroFieldName ?? '',
      value: valueFor(f as TemplateField, i, script),
    }));
  const latin = values('latin');
  const mixed = values('mixed');

  const ours = (vals: ExistingFieldValue[], flatten: boolean) => async () => {
    const doc = await loadPdf(bytes);
    fillExistingFields(doc, vals, new TextSetter(doc, registry), { flatten });
    return doc.save({ updateFieldAppearances: false });
  };
  const pdfLib = async () => {
    const doc = await PDFDocument.load(bytes);
    const form = doc.getForm();
    for (const v of latin) {
      const field = form.getFieldMaybe(v.acroFieldName);
      if (field instanceof PDFTextField) field.setText(String(v.value));
      else if (field instanceof PDFRadioGroup && typeof v.value === 'string') field.select(v.value);
    }
    form.flatten();
    return doc.save();
  };

  // Fonts are parsed once per registry, as in an engine: warm them before timing.
  await ours(mixed, true)();
  const baseline = await timeMedian(pdfLib, 5, 1);
  const flat = await timeMedian(ours(latin, true), 5, 1);
  const interactive = await timeMedian(ours(latin, false), 5, 1);
  const cjk = await timeMedian(ours(mixed, true), 5, 1);
  return [
    { name: 'pdf-lib form fill + flatten + save (anchor)', value: baseline, unit: 'ms' },
    {
      name: `castpress fill + flatten + save, ${latin.length} values`,
      value: flat,
      unit: 'ms',
      baseline,
      ratio: flat / baseline,
      goal: '<= 0.2',
    },
    {
      name: 'castpress fill, kept interactive, + save',
      value: interactive,
      unit: 'ms',
      baseline,
      ratio: interactive / baseline,
    },
    {
      name: 'castpress fill + flatten, Cyrillic + CJK values (pdf-lib cannot)',
      value: cjk,
      unit: 'ms',
      baseline,
      ratio: cjk / baseline,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await run());
}
