/**
 * `verifyPdf` speed, counted (no clocks): the difference analysis reads the revision a
 * signature signed and every later one. Parsing each of them whole, a B-LTA seal (signature,
 * DSS update, document timestamp) would cost three parses of the file on top of the form's. Each
 * later revision is read as the one before it plus its own update: the bytes handed to the
 * kernel's parser are about one file, and grow with the pages as the file does (100 vs 400 pages).
 */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HardenedParser } from '../src/pdf/parse/parser.js';
import {
  createSigningIdentity,
  LocalTimestampAuthority,
  sealPdf,
  signInTurn,
  verifyPdf,
  type SigningIdentity,
} from '../src/signing/index.js';
import { tempDir } from './helpers/signing.js';

let tmp: { dir: string; remove: () => Promise<void> };
let identity: SigningIdentity;
let tsa: LocalTimestampAuthority;
let anchors: string[];

beforeAll(async () => {
  tmp = await tempDir('castpress-verify-work-');
  identity = await createSigningIdentity({ dataDir: tmp.dir });
  tsa = await LocalTimestampAuthority.open({ dataDir: tmp.dir });
  anchors = [await readFile(path.join(tmp.dir, 'signing', 'root-ca.pem'), 'utf8')];
}, 60_000);
afterAll(async () => {
  await tmp?.remove();
});

async function pages(n: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < n; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Page ${i + 1} of the packet. `.repeat(8), { x: 30, y: 760, size: 9, font });
  }
  return doc.save({ useObjectStreams: true });
}

/** Bytes the kernel's parser was handed while verifying, against the file's size. */
async function parsedPerFile(pdf: Uint8Array): Promise<number> {
  const spy = vi.spyOn(HardenedParser, 'parse');
  try {
    const report = await verifyPdf(pdf, { trustAnchors: anchors });
    expect(report.problems).toEqual([]);
    expect(report.valid).toBe(true);
    const bytes = spy.mock.calls.reduce((sum, [input]) => sum + input.length, 0);
    return bytes / pdf.length;
  } finally {
    spy.mockRestore();
  }
}

describe('verifyPdf reads each revision once', () => {
  it('parses about one file for a B-LTA seal (signature, DSS, document timestamp), at 100 and 400 pages', async () => {
    const ratios: number[] = [];
    for (const n of [100, 400]) {
      const sealed = await sealPdf(await pages(n), identity, { reason: 'work', timestamp: { local: tsa } });
      const report = await verifyPdf(sealed, { trustAnchors: anchors });
      expect(report.signatures.map((s) => s.kind)).toEqual(['signature', 'documentTimestamp']);
      expect(report.signatures[0]!.padesLevel).toBe('B-LTA');
      ratios.push(await parsedPerFile(sealed));
    }
    // Before: three whole parses (the signed revision, the DSS's, the timestamp's), ratio 3.
    for (const r of ratios) expect(r).toBeLessThan(1.2);
    // Linear: the same share of the file at both sizes.
    expect(Math.abs(ratios[1]! - ratios[0]!)).toBeLessThan(0.1);
  }, 240_000);

  it('parses about one file for three signers in turn (each later revision only its update)', async () => {
    const ratios: number[] = [];
    for (const n of [100, 400]) {
      const signed = await signInTurn(await pages(n), [
        { identity, name: 'First' },
        { identity, name: 'Second' },
        { identity, name: 'Third' },
      ]);
      ratios.push(await parsedPerFile(signed));
    }
    for (const r of ratios) expect(r).toBeLessThan(1.2);
    expect(Math.abs(ratios[1]! - ratios[0]!)).toBeLessThan(0.1);
  }, 240_000);
});
