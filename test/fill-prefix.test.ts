/** Every fill output is an incremental update of its template: the template's bytes are an exact prefix. */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type TemplateInput } from '../src/index.js';
import { w9Data, w9Template } from './fixtures/fill/corpus.js';
import { field, template } from './fixtures/fill/templates.js';
import { qpdfCheck, qpdfFields } from './helpers/pdf.js';

const engine = createEngine();
afterAll(() => engine.close());

function startsWith(out: Uint8Array, pdf: Uint8Array): boolean {
  return (
    out.byteLength > pdf.byteLength &&
    Buffer.compare(Buffer.from(out.subarray(0, pdf.byteLength)), Buffer.from(pdf)) === 0
  );
}

const r = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });

describe('fill output starts with the template bytes', () => {
  const cases: Array<[string, () => Promise<{ tpl: TemplateInput; data: Record<string, unknown> }>]> = [
    [
      'W-9 (its own form)',
      async () => {
        const { template: tpl, fields } = await w9Template();
        return { tpl, data: w9Data(fields) };
      },
    ],
    [
      'a template without a form, one page repeated',
      async () => ({
        tpl: await template(
          [
            field('shortText', { id: 'name', rect: r(72, 72, 200, 20) }),
            field('checkbox', { id: 'ok', rect: r(72, 100, 20, 20) }),
          ],
          { pages: 2 },
        ),
        data: { name: ['Ada', 'Grace'], ok: true },
      }),
    ],
  ];
  for (const [name, make] of cases) {
    for (const interactive of [false, true]) {
      it(`${name}, ${interactive ? 'interactive' : 'flat'}`, async () => {
        const { tpl, data } = await make();
        const out = await engine.fill(tpl, { data, useInteractiveFields: interactive, title: 'Prefix' });
        expect(startsWith(out, tpl.pdf as Uint8Array)).toBe(true);
        await qpdfCheck(out);
        const fields = await qpdfFields(out);
        if (!interactive) expect(fields).toHaveLength(0);
        else expect(fields.length).toBeGreaterThan(0);
      });
    }
  }

  it('the W-9 interactive fill writes its values into its own fields (qpdf reads them)', async () => {
    const { template: tpl, fields } = await w9Template();
    const out = await engine.fill(tpl, { data: w9Data(fields), useInteractiveFields: true });
    const got = await qpdfFields(out);
    expect(got).toHaveLength(22);
    // qpdf's JSON marks text strings with u:.
    const text = fields.find((f) => f.type === 'shortText')!;
    expect(got.find((f) => f.fullname === text.acroFieldName)!.value).toBe(`u:Value ${text.id}`);
    expect(got.filter((f) => f.fieldtype === '/Btn').every((f) => f.value !== '/Off')).toBe(true);
  });

  it('fills never change the cached template: a value of one interactive fill does not reach the next', async () => {
    const { template: tpl, fields } = await w9Template();
    const text = fields.find((f) => f.type === 'shortText')!;
    const box = fields.find((f) => f.type === 'checkbox')!;
    await engine.fill(tpl, { data: { [text.id]: 'First fill', [box.id]: true }, useInteractiveFields: true });
    const next = await qpdfFields(await engine.fill(tpl, { data: {}, useInteractiveFields: true }));
    expect(next.find((f) => f.fullname === text.acroFieldName)!.value).not.toBe('u:First fill');
    expect(next.find((f) => f.fullname === box.acroFieldName)!.value).toBe('/Off');
  });
});
