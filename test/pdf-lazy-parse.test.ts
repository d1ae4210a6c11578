/**
 * The kernel parses a plain PDF lazily: when one classic cross-reference table names
 * exactly the object headers in the file, each object is parsed the first time it is looked up
 * (src/pdf/parse/lazy-objects.ts). What a lookup or a walk of all objects then sees must be what
 * pdf-lib's sequential parse of the whole file gives; any other file takes the sequential parse.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PDFDict, PDFName, PDFRawStream, PDFRef, type PDFContext } from '@cantoo/pdf-lib';
import { loadPdf, rewritePdf } from '../src/pdf/index.js';
import { HardenedParser } from '../src/pdf/parse/parser.js';
import { corpusPdf, ENCRYPTED, FILLABLE_FORMS } from './acroform-corpus.js';
import { qpdfCheck } from './helpers/pdf.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Header, trailer, numbering and every object as written: all a parse hands to pdf-lib. */
function summary(context: PDFContext): string[] {
  const trailer = Object.entries(context.trailerInfo).map(([k, v]) => `${k}=${String(v)}`);
  const objects = context
    .enumerateIndirectObjects()
    .map(([ref, o]) =>
      o instanceof PDFRawStream
        ? `${ref} ${o.dict.toString()} ${Buffer.from(o.contents).toString('base64')}`
        : `${ref} ${o.constructor.name} ${o.toString()}`,
    );
  return [
    context.header.toString(),
    ...trailer,
    `largest ${context.largestObjectNumber}`,
    `objectStreams ${String(context.pdfFileDetails.useObjectStreams)}`,
    ...objects,
  ];
}

async function sequential(bytes: Uint8Array): Promise<{ context: PDFContext; fatal?: string }> {
  const parser = new HardenedParser(bytes);
  const context = await parser.parseDocument();
  return { context, fatal: parser.fatal };
}

/** The kernel's parse, and how many objects it parsed before anything walked them all. */
async function kernelParse(bytes: Uint8Array): Promise<{ context: PDFContext; fatal?: string; parsed: number }> {
  let result!: Awaited<ReturnType<typeof HardenedParser.parse>>;
  const parsed = await parsedObjects(async () => (result = await HardenedParser.parse(bytes)));
  return { ...result, parsed };
}

/**
 * Indirect objects parsed: parseObject is called with the object's reference for it and every value
 * inside it (without one for the trailer's dictionary).
 */
function objectsIn(calls: Array<[ref?: PDFRef]>): number {
  return new Set(calls.map(([ref]) => ref).filter((ref) => ref !== undefined)).size;
}

async function parsedObjects(parse: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(HardenedParser.prototype, 'parseObject');
  await parse();
  const calls = objectsIn(spy.mock.calls);
  spy.mockRestore();
  return calls;
}

/** A PDF of `bodies` (object i + 1 each) with a standard cross-reference table; `edit` changes the bytes after. */
function plainPdf(bodies: string[], edit: (text: string) => string = (t) => t): Uint8Array {
  let text = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f\r\n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n\r\n`;
  text += `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(edit(text), 'latin1'));
}

const BODIES = [
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [ 3 0 R ] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [ 0 0 200 200 ] /Contents 4 0 R >>',
  '<< /Length 17 >>\nstream\n0 0 m 10 10 l S\n\nendstream',
  '(a string with \\) and % inside) ',
];

describe('a plain PDF is parsed lazily, to what the sequential parse gives', () => {
  it('loading the W-9 parses a fraction of its objects', async () => {
    const w9 = corpusPdf('irs_fw9_rev2018_xfa.pdf');
    const lazy = await parsedObjects(() => loadPdf(w9));
    const whole = await parsedObjects(() => sequential(w9));
    // loadPdf reads the catalog, the page tree and the form (structure.ts), not the structure tree or XFA.
    expect(lazy).toBeGreaterThan(0);
    expect(lazy).toBeLessThan(whole / 4);
  });

  it.each([...FILLABLE_FORMS, ...ENCRYPTED])('%s: the same objects, trailer and numbering', async (name) => {
    const bytes = corpusPdf(name);
    const ours = await kernelParse(bytes);
    const theirs = await sequential(bytes);
    expect(ours.fatal).toBe(theirs.fatal);
    expect(summary(ours.context)).toEqual(summary(theirs.context));
  });

  it('the corpus forms written by one writer in one pass are the ones parsed lazily', async () => {
    const lazy: string[] = [];
    for (const name of FILLABLE_FORMS) {
      const bytes = corpusPdf(name);
      if ((await kernelParse(bytes)).parsed < (await parsedObjects(() => sequential(bytes)))) lazy.push(name);
    }
    expect(lazy).toEqual([
      'ca_cra_cannabis_duty_return_combed.pdf',
      'irs_fw9_rev2018_xfa.pdf',
      'pdfjs_opt_demo_radio_japanese_export.pdf',
    ]);
  });

  it('a small file: one lookup parses one object; the walk of all gives the file order and objects', async () => {
    const bytes = plainPdf(BODIES);
    const ours = await kernelParse(bytes);
    // The catalog, looked up to check the trailer's /Root (as pdf-lib's parse ends).
    expect(ours.parsed).toBe(1);
    expect(await parsedObjects(async () => ours.context.lookup(PDFRef.of(4)))).toBe(1);
    expect(summary(ours.context)).toEqual(summary((await sequential(bytes)).context));
    expect(ours.context.enumerateIndirectObjects().map(([ref]) => ref.objectNumber)).toEqual([1, 2, 3, 4, 5]);
  });

  it('objects the parser rejects, lazily: nested too deep, a stream without its length', async () => {
    const bodies = [...BODIES, `${'['.repeat(300)}${']'.repeat(300)}`, '<< /Length 99 >>\nstream\nshort\nendstream'];
    const bytes = plainPdf(bodies);
    const ours = await kernelParse(bytes);
    expect(ours.parsed).toBe(1);
    const deep = ours.context.lookup(PDFRef.of(6));
    expect(deep?.constructor.name).toBe('PDFInvalidObject');
    expect(summary(ours.context)).toEqual(summary((await sequential(bytes)).context));
  });

  it.each([
    // A header behind a `%` on its line is a comment to the sequential parse, which drops the object.
    ['a header in a comment', (t: string) => t.replace('\n3 0 obj', '%3 0 obj')],
    // An update appended to the file: two sections, the second one's objects win.
    [
      'an incremental update',
      (t: string) =>
        `${t}5 0 obj\n(updated)\nendobj\nxref\n5 1\n${String(t.length).padStart(10, '0')} 00000 n\r\ntrailer\n<< /Size 6 /Root 1 0 R /Prev ${t.indexOf('xref')} >>\nstartxref\n${t.length + 29}\n%%EOF\n`,
    ],
    [
      'a table that names a wrong offset',
      (t: string) => t.replace(/0000000(\d{3}) 00000 n\r\ntrailer/, '0000000001 00000 n\r\ntrailer'),
    ],
    ['an object the table does not name', (t: string) => t.replace('xref\n', '9 0 obj\n(stray)\nendobj\nxref\n')],
    // The binary comment line made text (same length: the table's offsets still hold).
    ['bytes before the first object', (t: string) => t.replace('%\xe2\xe3\xcf\xd3\n', 'junk!\n')],
  ])('%s: read as the sequential parse reads it', async (_, edit) => {
    const bytes = plainPdf(BODIES, edit);
    const ours = await kernelParse(bytes);
    const theirs = await sequential(bytes);
    expect(ours.parsed).toBe(await parsedObjects(() => sequential(bytes)));
    expect(summary(ours.context)).toEqual(summary(theirs.context));
  });
});

describe('a clean write that copies what nothing read (Chromium prints)', () => {
  /** Spacing pdf-lib's writer would not keep: a copied object shows up in the output as it is written here. */
  const UNREAD = '<</Type /StructElem   /S /P\n/K [0 1]>>';
  const bodies = [...BODIES, UNREAD, '<</Length 5>> stream\nq Q  \nendstream'];

  it('writes unread objects as their bytes, read ones from their parse, and reads back as a whole parse; uploads are not copied', async () => {
    const bytes = plainPdf(bodies);
    const doc = await loadPdf(bytes);
    const page = doc.getPage(0).node;
    page.set(PDFName.of('Rotate'), doc.context.obj(90));
    let out!: Uint8Array;
    const parsed = await parsedObjects(async () => (out = await rewritePdf(doc, { copyUnread: true })));
    expect(parsed).toBe(0);
    const text = Buffer.from(out).toString('latin1');
    expect(text).toContain(`6 0 obj\n${UNREAD}\nendobj`);
    expect(text).toContain('7 0 obj\n<</Length 5>> stream\nq Q  \nendstream\nendobj');
    expect(text).toContain('/Rotate 90');
    await qpdfCheck(out);
    // The same objects as pdf-lib's own write of the whole parse.
    const whole = await loadPdf(bytes);
    whole.getPage(0).node.set(PDFName.of('Rotate'), whole.context.obj(90));
    const reference = await rewritePdf(whole);
    expect(summary((await sequential(out)).context)).toEqual(summary((await sequential(reference)).context));
    // The document still reads its objects afterwards, parsing them then.
    expect(doc.context.lookup(PDFRef.of(6), PDFDict).get(PDFName.of('S'))).toBe(PDFName.of('P'));
    // An upload (no option) is written from its parse: nothing is copied.
    expect(Buffer.from(reference).toString('latin1')).not.toContain(UNREAD);
  });
});
