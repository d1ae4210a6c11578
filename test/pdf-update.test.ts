/** The kernel's update session (src/pdf): appended updates, copy-on-read, and the writers that go through it. */
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFObjectStream, PDFString } from '@cantoo/pdf-lib';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { appendSignatureFields } from '../src/acroform/index.js';
import { isCastpressError } from '../src/errors/index.js';
import { createEngine } from '../src/index.js';
import { demoTemplate } from '../examples/demo-template.js';
import { openForUpdate, UpdateSession } from '../src/pdf/index.js';
import { WATERMARK_TEXT, watermarkPdf } from '../src/server/index.js';
import { w9Pdf } from './fixtures/fill/corpus.js';
import { pageText, qpdfCheck, qpdfFields } from './helpers/pdf.js';

const latin1 = new TextDecoder('latin1');

async function twoPages(useObjectStreams: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([300, 200]);
  doc.addPage([300, 200]);
  return doc.save({ useObjectStreams });
}

/** V8's full collection, in whichever pool the file runs (the shared one has no --expose-gc). */
function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  if (typeof gc !== 'function') throw new Error('no gc() after --expose-gc');
  return gc as () => void;
}

/** The first operator drawn into a content stream (pdf-lib keeps the list private). */
function operatorOf(stream: object): object {
  const operators: unknown = Reflect.get(stream, 'operators');
  if (!Array.isArray(operators) || typeof operators[0] !== 'object')
    throw new Error('not a content stream with operators');
  return operators[0] as object;
}

function expectPrefix(out: Uint8Array, base: Uint8Array): void {
  expect(out.byteLength).toBeGreaterThan(base.byteLength);
  expect(Buffer.compare(Buffer.from(out.subarray(0, base.byteLength)), Buffer.from(base))).toBe(0);
}

describe('UpdateSession', () => {
  for (const [kind, objectStreams] of [
    ['table', false],
    ['stream', true],
  ] as const) {
    it(`appends changed and new objects after the original bytes, with an xref ${kind} like the original's`, async () => {
      const base = await twoPages(objectStreams);
      const session = await UpdateSession.open(base);
      const page = session.doc.getPage(1);
      page.node.set(PDFName.of('UserUnit'), PDFNumber.of(2));
      const note = session.context.register(session.context.obj({ Note: PDFString.of('added') }));
      session.doc.catalog.set(PDFName.of('Note'), note);
      const out = await session.commit();
      expectPrefix(out, base);
      await qpdfCheck(out);
      const update = latin1.decode(out.subarray(base.byteLength));
      if (objectStreams) expect(update).toMatch(/\/Type \/XRef/);
      else expect(update).toMatch(/\nxref\n/);
      expect(update).toMatch(/\/Prev \d+/);
      // Only the changed page, the catalog and the new object are written: the other page is not.
      const written = [...update.matchAll(/(\d+) 0 obj/g)].map((m) => Number(m[1]));
      const reread = await PDFDocument.load(out);
      expect(written).not.toContain(reread.getPage(0).ref.objectNumber);
      expect(written).toContain(reread.getPage(1).ref.objectNumber);
      expect(reread.getPage(1).node.get(PDFName.of('UserUnit'))).toEqual(PDFNumber.of(2));
      expect(reread.catalog.lookup(PDFName.of('Note'), PDFDict).lookup(PDFName.of('Note'), PDFString).asString()).toBe(
        'added',
      );
    });
  }

  it('never changes the shared parse: a second session over the same base sees the original objects', async () => {
    const base = await openForUpdate(await twoPages(false));
    const first = UpdateSession.over(base);
    first.doc.getPage(0).node.set(PDFName.of('Rotate'), PDFNumber.of(90));
    await first.commit();
    expect(base.doc.getPage(0).node.get(PDFName.of('Rotate'))).toBeUndefined();
    const second = UpdateSession.over(base);
    expect(second.doc.getPage(0).node.get(PDFName.of('Rotate'))).toBeUndefined();
  });

  it('an update that changes nothing returns the original bytes', async () => {
    const bytes = await twoPages(true);
    const session = await UpdateSession.open(bytes);
    session.doc.getPages().forEach((p) => p.getSize());
    expect(await session.commit()).toBe(bytes);
  });

  it('a closed session leaves its document and its streams reaching none of the update: pdf-lib keeps them until the next full GC', async () => {
    const gc = fullGc();
    const base = await twoPages(true);
    // The writer's object streams, which their own closures keep as long as the document.
    const made = vi.spyOn(PDFObjectStream, 'withContextAndObjects');
    // In a function, so that no local of the test keeps the session's objects.
    const written = async () => {
      const session = await UpdateSession.open(base);
      session.doc.getPage(0).drawRectangle({ x: 10, y: 10, width: 50, height: 20 });
      const note = session.context.obj({ Note: PDFString.of('added') });
      session.doc.catalog.set(PDFName.of('Note'), session.context.register(note));
      const out = await session.commit();
      const stream = session.doc.getPage(0).node.normalizedEntries().Contents?.lookup(0);
      if (!stream) throw new Error('the page has no content stream');
      const kept = { note: new WeakRef(note), operator: new WeakRef(operatorOf(stream)) };
      session.close();
      return { out, doc: session.doc, stream, kept };
    };
    try {
      const { out, doc, stream, kept } = await written();
      const objectStreams = made.mock.results.map((r) => r.value as unknown);
      expect(objectStreams.length).toBeGreaterThan(0);
      expectPrefix(out, base);
      await new Promise((r) => setImmediate(r));
      gc();
      // These stand for what V8 keeps until its next full collection: pdf-lib's closures hold them (src/pdf/README.md).
      expect([doc.context, stream, ...objectStreams].every((x) => x !== undefined)).toBe(true);
      expect(kept.note.deref()).toBeUndefined();
      expect(kept.operator.deref()).toBeUndefined();
    } finally {
      made.mockRestore();
    }
  });

  it('a fill closes its session once its bytes are written', async () => {
    const close = vi.spyOn(UpdateSession.prototype, 'close');
    const engine = createEngine();
    try {
      const template = await demoTemplate();
      await engine.fill(template, { data: { notes: 'closed' } });
      await engine.fill(template, { data: { notes: 'closed again' } });
      expect(close).toHaveBeenCalledTimes(2);
    } finally {
      close.mockRestore();
      await engine.close();
    }
  });

  it('bad input is still a typed InvalidPdfError naming the property', async () => {
    const err = await UpdateSession.open(new TextEncoder().encode('not a pdf'), 'pdf').catch((e: unknown) => e);
    expect(isCastpressError(err) && err.name).toBe('InvalidPdfError');
    expect(JSON.stringify(err)).toContain('"property":"pdf"');
  });
});

describe('watermark as an appended update', () => {
  it('keeps the rendered bytes as an exact prefix and stamps every page', async () => {
    const base = await twoPages(false);
    const out = await watermarkPdf(base);
    expectPrefix(out, base);
    await qpdfCheck(out);
    for (const t of await pageText(out)) expect(t).toContain(WATERMARK_TEXT);
  });

  it('keeps a form and its fields (W-9, xref stream, XFA dropped in the update)', async () => {
    const w9 = w9Pdf();
    const out = await watermarkPdf(w9);
    expectPrefix(out, w9);
    await qpdfCheck(out);
    expect((await qpdfFields(out)).length).toBe((await qpdfFields(w9)).length);
    const reread = await PDFDocument.load(out, { preserveXFA: true });
    expect(reread.catalog.lookup(PDFName.of('AcroForm'), PDFDict).has(PDFName.of('XFA'))).toBe(false);
  });
});

describe('signature fields', () => {
  it('adds empty /Sig fields with widgets as an incremental update; qpdf reads them back', async () => {
    const w9 = w9Pdf();
    const out = await appendSignatureFields(w9, [
      { name: 'signer1', kind: 'signature', pageIndex: 0, rect: { x: 100, y: 150, width: 200, height: 30 } },
      { name: 'signer1_initials', kind: 'initial', pageIndex: 1, rect: { x: 500, y: 40, width: 60, height: 24 } },
    ]);
    expectPrefix(out, w9);
    await qpdfCheck(out);
    const fields = await qpdfFields(out);
    const sig = fields.filter((f) => f.fieldtype === '/Sig');
    expect(sig.map((f) => [f.fullname, f.pageposfrom1, f.value])).toEqual([
      ['signer1', 1, null],
      ['signer1_initials', 2, null],
    ]);
    // The form's own 22 fields are still there.
    expect(fields.length).toBe(24);
    const doc = await PDFDocument.load(out);
    const form = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
    // SignaturesExist (bit 1) is set; other flags the form had stay.
    expect(form.lookup(PDFName.of('SigFlags'), PDFNumber).asNumber() & 1).toBe(1);
    const widget = doc
      .getPage(1)
      .node.Annots()!
      .asArray()
      .map((r) => doc.context.lookup(r, PDFDict))
      .find((a) => a.get(PDFName.of('FT')) === PDFName.of('Sig'))!;
    expect(widget.lookup(PDFName.of('Rect'))!.toString()).toBe('[ 500 40 560 64 ]');
    expect(widget.lookup(PDFName.of('TU'))!.toString()).toContain('FEFF0049006E0069007400690061006C0073');
  });

  it('a clashing name, a missing page or an empty rect is a ValidationError on its property', async () => {
    const err = await appendSignatureFields(await twoPages(false), [
      { name: 'a', kind: 'signature', pageIndex: 5, rect: { x: 0, y: 0, width: 10, height: 10 } },
      { name: 'a', kind: 'signature', pageIndex: 0, rect: { x: 0, y: 0, width: 10, height: 10 } },
    ]).catch((e: unknown) => e);
    expect(isCastpressError(err) && err.name).toBe('ValidationError');
    const props = (err as { fields: Array<{ property: string }> }).fields.map((f) => f.property);
    expect(props).toEqual(['fields[0].pageIndex', 'fields[1].name']);
    const empty = await appendSignatureFields(await twoPages(false), [
      { name: 'b', kind: 'initial', pageIndex: 0, rect: { x: 0, y: 0, width: 0, height: 10 } },
    ]).catch((e: unknown) => e);
    expect((empty as { fields: Array<{ property: string }> }).fields.map((f) => f.property)).toEqual([
      'fields[0].rect.width',
    ]);
  });
});
