/**
 * Limits first: a packet whose text tags would make more signature fields than a document
 * may hold is refused while its pages' text is read, before any page's glyphs are, not after the whole
 * scan and assembly (two uploads of 2,000 tagged pages were 81 s of work before their 400). Measured as
 * the work done before the refusal at two sizes of the same upload: it stops at the limit's page, so
 * eight times the pages costs about what loading them costs, not eight times the scan.
 */
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { assemblePacket } from '../src/packets/index.js';
import { scalingRatio } from './helpers/scaling.js';

/** `pages` pages, each with twenty lines of text and a signature tag for signer `x`. */
async function taggedPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([612, 792]);
    for (let l = 0; l < 20; l++)
      page.drawText(`Page ${i + 1}, line ${l + 1}: the tenant keeps the garden tidy.`, {
        x: 50,
        y: 740 - l * 20,
        size: 11,
        font,
      });
    page.drawText('Sign here: {{ signature:::x }}', { x: 50, y: 200, size: 11, font });
  }
  return doc.save();
}

const signers = [{ id: 'x', name: 'X Y', email: 'x@example.com', fields: [] }];
const body = (...uploads: Uint8Array[]) => ({
  name: 'Tags',
  signers,
  files: uploads.map((file, i) => ({ id: `f${i}`, title: `File ${i}`, file, fields: [] })),
});

/** The error `assemblePacket` refuses with, as `{status, name, property, message}`. */
async function refusal(engine: Engine, request: unknown, limit: number) {
  return assemblePacket(engine, request, { limits: { packetSignatureFields: limit } }).then(
    () => undefined,
    (e: { status?: number; name?: string; fields?: Array<{ property: string; message: string }> }) => ({
      status: e.status,
      name: e.name,
      property: e.fields?.[0]?.property,
      message: e.fields?.[0]?.message,
    }),
  );
}

describe('signature fields of a document: limited before the scan', () => {
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine();
  });
  afterAll(async () => engine?.close());

  it('a file with more signature tags than allowed is a 413 on that file, found on the page that passes it', async () => {
    const r = await refusal(engine, body(await taggedPdf(5), await taggedPdf(30)), 20);
    expect(r).toMatchObject({ status: 413, name: 'PayloadTooLargeError', property: 'files[1]' });
    expect(r?.message).toMatch(/at most 20 signature or initial fields; this file passes that at its page 21$/);
    // Within the limit, the same file is assembled with one signature field per tag.
    const ok = await assemblePacket(engine, body(await taggedPdf(20)), { limits: { packetSignatureFields: 20 } });
    expect(ok.files[0]!.fields.filter((f) => f.type === 'signature')).toHaveLength(20);
  }, 120_000);

  it('the request’s own fields count too, and merged files share one count', async () => {
    const own = Array.from({ length: 3 }, (_, k) => ({
      id: `own${k}`,
      type: 'initial',
      pageNum: 0,
      rect: { x: 72, y: 100 + 40 * k, width: 100, height: 30 },
    }));
    const withOwn = body(await taggedPdf(18));
    withOwn.files[0]!.fields = own as never[];
    expect(await refusal(engine, withOwn, 20)).toMatchObject({ status: 413, property: 'files[0]' });
    const merged = { ...body(await taggedPdf(12), await taggedPdf(12)), mergePDFs: true };
    // The files are scanned at once: the one whose page passes the shared count is named.
    const r = await refusal(engine, merged, 20);
    expect(r).toMatchObject({ status: 413, name: 'PayloadTooLargeError' });
    expect(r?.property).toMatch(/^files\[[01]\]$/);
    expect(await refusal(engine, { ...merged, mergePDFs: false }, 20)).toBeUndefined();
  }, 120_000);

  it('refusing 8x the tagged pages costs far less than 8x: the scan stops at the limit', async () => {
    const pdfs = new Map([
      [40, await taggedPdf(40)],
      [320, await taggedPdf(320)],
    ]);
    const s = await scalingRatio(
      async (pages) => {
        const r = await refusal(engine, body(pdfs.get(pages)!), 20);
        expect(r).toMatchObject({ status: 413, property: 'files[0]' });
      },
      40,
      320,
      { rounds: 2 },
    );
    // A scan of every page costs about 8x here (its pages are the work); loading the bytes is what grows now.
    if (process.env.SCALING_DEBUG) console.log(s.detail);
    expect(s.ratio, s.detail).toBeLessThan(4);
  }, 300_000);
});
