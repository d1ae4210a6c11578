/**
 * Signing fields in templates: a template (a Cast) holds `signature`, `initial` and
 * `signatureDate` boxes beside its fill fields, as the hosted product's Casts do.
 * - The template schema takes them (a working version in a template folder too); a signatureDate
 *   takes a date `format`, and a bad one is a 400 on its path.
 * - A fill never fills them: flat output leaves them undrawn (the same bytes as the template
 *   without them); interactive output writes an empty /Sig widget at a signature field's rect and
 *   empty text fields for initials and signature dates, read back with qpdf and pdfjs.
 * - A value for one in `data` fills nothing and is said, as an unknown key is: a warning on
 *   `data.<key>` (X-Castpress-Warning over REST), a 400 on it under `strict`.
 * - A fillable PDF's unsigned /Sig field imports as a `signature` field (castpress import-template).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, ValidationError, type TemplateField } from '../src/index.js';
import { templateFromPdf } from '../src/fields/index.js';
import { appendSignatureFieldsOnDisplay } from '../src/acroform/index.js';
import { DirectoryTemplateStore, parseTemplate, WORKING_VERSION } from '../src/template/index.js';
import { corpusPdf } from './acroform-corpus.js';
import { blankPdf, field, template } from './fixtures/fill/templates.js';
import { runCastpress } from './helpers/cli.js';
import { pageText, qpdfCheck, qpdfFields, readFields } from './helpers/pdf.js';
import { PROD_KEY, basic, startTestServer, type TestServer } from './server-setup.js';

const Anvil = anvilModule.default;
const engine = createEngine();
let dir: string;

const r = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
const SIG = r(72, 400, 200, 40);
const INI = r(300, 400, 60, 30);
const DATE = r(380, 400, 150, 20);

/** A contract page: a name to fill, and a signature, initials and the signing date for its signer. */
function contractFields(): TemplateField[] {
  return [
    field('shortText', { id: 'name', rect: r(72, 100, 200, 20) }),
    field('signature', { id: 'clientSig', alias: 'clientSignature', rect: SIG }),
    field('initial', { id: 'clientIni', rect: INI }),
    field('signatureDate', { id: 'clientDate', rect: DATE, format: 'MMMM D, YYYY' }),
  ];
}

/** The widget rect a field at `rect` (top-left points) has on a 612 × 792 page: [x1, y1, x2, y2]. */
const pdfRect = (rect: { x: number; y: number; width: number; height: number }) => [
  rect.x,
  792 - rect.y - rect.height,
  rect.x + rect.width,
  792 - rect.y,
];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-signing-fields-'));
});
afterAll(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

describe('templates hold signing fields', () => {
  it('the schema takes signature, initial and signatureDate (a working version in a folder too); a bad signatureDate format is a 400 on its path', async () => {
    const t = parseTemplate(await template(contractFields()));
    expect(t.fields.map((f) => f.type)).toEqual(['shortText', 'signature', 'initial', 'signatureDate']);

    const folder = path.join(dir, 'templates', 'contract');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'template.pdf'), await blankPdf());
    await writeFile(path.join(folder, 'working.json'), JSON.stringify({ title: 'Contract', fields: contractFields() }));
    const working = await new DirectoryTemplateStore(path.join(dir, 'templates')).get('contract', WORKING_VERSION);
    expect(working.fields.find((f) => f.id === 'clientDate')).toMatchObject({
      type: 'signatureDate',
      format: 'MMMM D, YYYY',
      rect: DATE,
    });

    const bad = await template([field('signatureDate', { id: 'd', format: '%Y-%m-%d' })]);
    expect(() => parseTemplate(bad)).toThrow(ValidationError);
    try {
      parseTemplate(bad);
    } catch (e) {
      expect((e as ValidationError).fields.map((f) => f.property)).toEqual(['template.fields[0].format']);
    }
  });

  it('flat fill: the signing fields are undrawn, byte for byte the template without them, and no form is written', async () => {
    const pdf = await blankPdf();
    const withSigning = await template(contractFields(), { pdf });
    const without = await template(contractFields().slice(0, 1), { pdf });
    const out = await engine.fill(withSigning, { data: { name: 'Ada Lovelace' } });
    expect(Buffer.from(out).equals(Buffer.from(await engine.fill(without, { data: { name: 'Ada Lovelace' } })))).toBe(
      true,
    );
    expect(await qpdfFields(out)).toEqual([]);
    expect((await pageText(out))[0]).toContain('Ada Lovelace');
  });

  it('interactive fill: an empty /Sig widget at the signature rect, empty text fields for initials and the date, beside the values', async () => {
    const tpl = await template(contractFields());
    const out = await engine.fill(tpl, { data: { name: 'Ada Lovelace' }, useInteractiveFields: true });
    await qpdfCheck(out);
    const fields = await qpdfFields(out);
    expect(fields.map((f) => [f.fullname, f.fieldtype, f.value, f.pageposfrom1])).toEqual([
      ['name', '/Tx', 'u:Ada Lovelace', 1],
      ['clientIni', '/Tx', 'u:', 1],
      ['clientDate', '/Tx', 'u:', 1],
      ['clientSignature', '/Sig', null, 1],
    ]);
    const widgets = await readFields(out);
    const rectOf = (name: string) => widgets.find((w) => w.name === name)!.rect;
    for (const [name, rect] of [
      ['clientSignature', SIG],
      ['clientIni', INI],
      ['clientDate', DATE],
    ] as const)
      rectOf(name).forEach((v, i) => expect(v, name).toBeCloseTo(pdfRect(rect)[i]!, 3));
    // The same /Sig widget as packets' signature-field writer makes (where its signer would sign).
    const reference = await appendSignatureFieldsOnDisplay(await blankPdf(), [
      { name: 'clientSignature', kind: 'signature', pageIndex: 0, rect: SIG },
    ]);
    expect(rectOf('clientSignature')).toEqual((await readFields(reference))[0]!.rect);
    // Empty boxes are there to be completed: defaultReadOnly locks the values only.
    const locked = await readFields(
      await engine.fill(tpl, { data: { name: 'Ada' }, useInteractiveFields: true, defaultReadOnly: true }),
    );
    expect(locked.map((w) => [w.name, w.readOnly])).toEqual([
      ['name', true],
      ['clientIni', false],
      ['clientDate', false],
      ['clientSignature', false],
    ]);
  });

  it('interactive fill: a repeated page holds the boxes once, on its first copy; a name a value field takes is not refused', async () => {
    const tpl = await template(
      [
        field('shortText', { id: 'item', rect: r(72, 100, 200, 20) }),
        field('shortText', { id: 'other', alias: 'clientSignature', pageNum: 1, rect: r(72, 100, 200, 20) }),
        field('signature', { id: 'clientSignature', pageNum: 1, rect: SIG }),
      ],
      { pages: 2 },
    );
    const out = await engine.fill(tpl, {
      data: { item: ['one', 'two', 'three'], clientSignature: 'typed over' },
      useInteractiveFields: true,
    });
    const fields = await qpdfFields(out);
    expect((await PDFDocument.load(out)).getPageCount()).toBe(4);
    expect(fields.filter((f) => f.fieldtype === '/Sig').map((f) => [f.fullname, f.pageposfrom1])).toEqual([
      ['clientSignature_2', 4],
    ]);
    expect(fields.find((f) => f.fullname === 'clientSignature')).toMatchObject({
      fieldtype: '/Tx',
      value: 'u:typed over',
    });
  });

  it('data for a signing field fills nothing: a warning on data.<key>; strict: a 400 on it', async () => {
    const tpl = await template(contractFields());
    const out = await engine.fillDocument(tpl, {
      data: { name: 'Ada', clientSignature: 'Ada Lovelace', clientIni: 'AL', clientDate: '2024-01-02' },
    });
    expect(out.warnings).toEqual([
      {
        property: 'data.clientSignature',
        message: '"clientSignature" names a signature field: signing fields are signed, not filled',
      },
      {
        property: 'data.clientIni',
        message: '"clientIni" names an initial field: signing fields are signed, not filled',
      },
      {
        property: 'data.clientDate',
        message: '"clientDate" names a signatureDate field: signing fields are signed, not filled',
      },
    ]);
    const text = (await pageText(out.pdf))[0]!;
    expect(text).toContain('Ada');
    for (const s of ['Lovelace', 'AL', '2024', 'January']) expect(text).not.toContain(s);

    const strict = await engine
      .fill(tpl, { strict: true, data: { name: 'Ada', clientSig: 'x' } })
      .catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(ValidationError);
    expect((strict as ValidationError).fields).toEqual([
      {
        property: 'data.clientSig',
        message: '"clientSig" names a signature field: signing fields are signed, not filled',
      },
    ]);
  });

  describe('REST fillPDF through @anvilco/anvil', () => {
    let server: TestServer;
    beforeAll(async () => {
      const templates = path.join(dir, 'rest-templates');
      const folder = path.join(templates, 'contract');
      await mkdir(folder, { recursive: true });
      await writeFile(path.join(folder, 'template.pdf'), await blankPdf());
      await writeFile(path.join(folder, 'v1.json'), JSON.stringify({ title: 'Contract', fields: contractFields() }));
      server = await startTestServer({ store: new DirectoryTemplateStore(templates) });
    });
    afterAll(() => server.close());

    it('a plain fill leaves the boxes undrawn; a signing key is named in X-Castpress-Warning', async () => {
      const client = new Anvil({ apiKey: PROD_KEY, baseURL: server.base });
      const filled = await client.fillPDF('contract', { data: { name: 'Grace Hopper' } });
      expect(filled.errors, JSON.stringify(filled.errors)).toBeUndefined();
      expect(filled.statusCode).toBe(200);
      const pdf = new Uint8Array(filled.data as Buffer);
      expect((await pageText(pdf))[0]).toContain('Grace Hopper');
      expect(await qpdfFields(pdf)).toEqual([]);

      const res = await fetch(`${server.base}/api/v1/fill/contract.pdf`, {
        method: 'POST',
        headers: { authorization: basic(PROD_KEY), 'content-type': 'application/json' },
        body: JSON.stringify({ data: { name: 'Grace', clientSignature: 'Grace Hopper' } }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-castpress-warning')).toBe(
        'data.clientSignature: "clientSignature" names a signature field: signing fields are signed, not filled',
      );
    });
  });
});

describe('fillable PDFs with signature boxes import whole', () => {
  it("an unsigned /Sig field becomes a signature field at its widget; interactive fill keeps the PDF's own, flat fill drops it", async () => {
    const bytes = corpusPdf('pdflib_sample_form_signature.pdf');
    const imported = await templateFromPdf(bytes);
    const sig = imported.fields.filter((f) => f.type === 'signature');
    expect(sig).toHaveLength(1);
    expect(sig[0]).toMatchObject({
      id: 'EMPLOYEE SIGNATURE',
      alias: 'EMPLOYEE SIGNATURE',
      acroFieldName: 'EMPLOYEE SIGNATURE',
    });
    // The widget where the PDF has it: pdfjs's rect, seen from the top-left corner of the page.
    const own = (await readFields(bytes)).find((w) => w.name === 'EMPLOYEE SIGNATURE')!;
    const pageHeight = (await PDFDocument.load(bytes)).getPage(own.page).getHeight();
    expect(sig[0]!.pageNum).toBe(own.page);
    expect(sig[0]!.rect.x).toBeCloseTo(own.rect[0]!, 3);
    expect(sig[0]!.rect.y).toBeCloseTo(pageHeight - own.rect[3]!, 3);
    expect(sig[0]!.rect.width).toBeCloseTo(own.rect[2]! - own.rect[0]!, 3);
    const tpl = parseTemplate(imported);

    const interactive = await engine.fill(tpl, { data: {}, useInteractiveFields: true });
    const sigs = (await qpdfFields(interactive)).filter((f) => f.fieldtype === '/Sig');
    expect(sigs.map((f) => f.fullname)).toEqual(['EMPLOYEE SIGNATURE']);
    const flat = await engine.fill(tpl, { data: {} });
    expect(await qpdfFields(flat)).toEqual([]);

    // The other corpus form with a signature box imports it too.
    const basic = await templateFromPdf(corpusPdf('pdfbox_AcroFormsBasicFields.pdf'));
    expect(basic.fields.filter((f) => f.type === 'signature')).toHaveLength(1);
  });

  it('a signed signature field is a finished signature, not a box: it is left out', async () => {
    // The corpus form with its box signed (a signature dictionary as /V), and a second, empty box.
    const doc = await PDFDocument.load(corpusPdf('pdflib_sample_form_signature.pdf'));
    const own = doc.getForm().getField('EMPLOYEE SIGNATURE').acroField.dict;
    own.set(
      PDFName.of('V'),
      doc.context.register(doc.context.obj({ Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'ETSI.CAdES.detached' })),
    );
    const bytes = await appendSignatureFieldsOnDisplay(await doc.save(), [
      { name: 'witness', kind: 'signature', pageIndex: 0, rect: r(72, 600, 200, 30) },
    ]);
    expect((await qpdfFields(bytes)).filter((f) => f.fieldtype === '/Sig').map((f) => f.fullname)).toEqual([
      'EMPLOYEE SIGNATURE',
      'witness',
    ]);
    const imported = await templateFromPdf(bytes);
    expect(imported.fields.filter((f) => f.type === 'signature').map((f) => f.acroFieldName)).toEqual(['witness']);
    expect(imported.fields.map((f) => f.acroFieldName)).not.toContain('EMPLOYEE SIGNATURE');
  });

  it('castpress import-template writes the signature field into the template JSON', async () => {
    const work = path.join(dir, 'cli');
    await mkdir(work, { recursive: true });
    await writeFile(path.join(work, 'form.pdf'), corpusPdf('pdflib_sample_form_signature.pdf'));
    const res = await runCastpress(['import-template', 'form.pdf', '-o', 'form.template.json'], work);
    expect(res.code, res.stderr).toBe(0);
    const json = JSON.parse(await readFile(path.join(work, 'form.template.json'), 'utf8')) as {
      fields: TemplateField[];
    };
    expect(json.fields.filter((f) => f.type === 'signature').map((f) => f.id)).toEqual(['EMPLOYEE SIGNATURE']);
  });
});
