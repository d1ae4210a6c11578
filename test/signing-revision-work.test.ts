/**
 * Per-signer signing cost: a signer's revision (their marks as field appearances and
 * values, and their own signature) is one incremental update written once from one parse of the
 * document, not marks as an update of their own (the kernel parsing and writing the file) and
 * @libpdf/core's `sign()` parsing the marked file again, writing it and parsing its output once
 * more: three parses and three writes per signer per document. Counted, not timed: every parse of
 * the document (the kernel's parser, libpdf's load and reload) and every write (the kernel's
 * incremental writer over the document, libpdf's save), on the certified W-9 for two signers in turn.
 * The result is what the issue asks for: each signature valid with the local root, each later
 * revision form filling and signing.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFStreamWriter, PDFWriter } from '@cantoo/pdf-lib';
import { PDF } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signAsSigner, type PlannedField, type SignerInputs } from '../src/packets/index.js';
import type { Signer } from '../src/packets/request/request.js';
import { prepareDocument } from '../src/packets/signatures/signer-signature.js';
import { HardenedParser } from '../src/pdf/parse/parser.js';
import { AppearanceWriter, createSigningIdentity, verifyPdf, type SigningIdentity } from '../src/signing/index.js';
import { w9Pdf } from './fixtures/fill/corpus.js';
import { tempDir } from './helpers/signing.js';

const AT = new Date('2026-03-02T09:00:00Z');
let tmp: { dir: string; remove: () => Promise<void> };
let identity: SigningIdentity;
let rootPem: string;
const writer = new AppearanceWriter();

const field = (fieldId: string, type: PlannedField['type'], y: number, signerId: string): PlannedField => ({
  fileId: 'w9',
  fieldId,
  type,
  pageNum: 0,
  rect: { x: 60, y, width: 220, height: 24 },
  source: 'request',
  signerId,
});
const fields = [
  field('adaSig', 'signature', 560, 'ada'),
  field('adaDate', 'signatureDate', 600, 'ada'),
  field('bobSig', 'signature', 640, 'bob'),
  field('bobName', 'fullName', 680, 'bob'),
];
const signers = {
  ada: { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com', routingOrder: 1 } as unknown as Signer,
  bob: { id: 'bob', name: 'Bob Babbage', email: 'bob@example.com', routingOrder: 2 } as unknown as Signer,
};
const inputs: Record<keyof typeof signers, SignerInputs> = {
  ada: { signature: { type: 'typed', text: 'Ada Lovelace' }, signedAt: AT },
  bob: {
    signature: { type: 'typed', text: 'Bob Babbage' },
    signedAt: new Date(AT.getTime() + 60_000),
  },
};

beforeAll(async () => {
  tmp = await tempDir('castpress-revision-work-');
  identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'data'), clock: () => AT });
  rootPem = await readFile(identity.files!.rootCertificate, 'utf8');
});
afterAll(async () => {
  vi.restoreAllMocks();
  await tmp.remove();
});

/** Parses and writes of a document of at least `size` bytes while `work` runs. */
async function counted<T>(
  size: number,
  work: () => Promise<T>,
): Promise<{ result: T; parses: number; writes: number }> {
  const kernelParse = vi.spyOn(HardenedParser, 'parse');
  const libLoad = vi.spyOn(PDF, 'load');
  const libReload = vi.spyOn(PDF.prototype, 'reload');
  const libSave = vi.spyOn(PDF.prototype, 'save');
  const writers = [vi.spyOn(PDFWriter, 'forContextWithSnapshot'), vi.spyOn(PDFStreamWriter, 'forContextWithSnapshot')];
  try {
    const result = await work();
    const parses =
      kernelParse.mock.calls.filter(([bytes]) => bytes.byteLength >= size).length +
      libLoad.mock.calls.length +
      libReload.mock.calls.length;
    // The kernel's incremental writer over the document (an appearance page written from scratch has pdfSize 0).
    const kernelWrites = writers.reduce(
      (n, spy) => n + spy.mock.calls.filter(([, , snapshot]) => snapshot.pdfSize >= size).length,
      0,
    );
    return { result, parses, writes: kernelWrites + libSave.mock.calls.length };
  } finally {
    for (const spy of [kernelParse, libLoad, libReload, libSave, ...writers]) spy.mockRestore();
  }
}

const revisions = (pdf: Uint8Array) => Buffer.from(pdf).toString('latin1').split('%%EOF').length - 1;

describe("a signer's revision is one update from one parse", () => {
  it('two signers in turn on the certified W-9: one parse and one write each, every signature valid', async () => {
    const prepared = await prepareDocument(w9Pdf(), fields, {
      identity,
      packetEid: 'pkt',
      signingTime: new Date(AT.getTime() - 60_000),
    });
    let pdf = prepared;
    const work: Array<{ parses: number; writes: number }> = [];
    for (const who of ['ada', 'bob'] as const) {
      const before = pdf;
      const { result, parses, writes } = await counted(before.byteLength, () =>
        signAsSigner(
          before,
          inputs[who],
          { writer, signer: signers[who], fields },
          { identity, packetEid: 'pkt', signerEid: `sgn-${who}` },
        ),
      );
      work.push({ parses, writes });
      expect(Buffer.from(result.subarray(0, before.byteLength)).equals(Buffer.from(before))).toBe(true);
      // One revision: marks and signature in the same update.
      expect(revisions(result)).toBe(revisions(before) + 1);
      pdf = result;
    }
    // Before: { parses: 3, writes: 3 } for each signer.
    expect(work).toEqual([
      { parses: 1, writes: 1 },
      { parses: 1, writes: 1 },
    ]);

    const report = await verifyPdf(pdf, { trustAnchors: [rootPem] });
    expect(report.signatures.map((s) => [s.fieldName, s.valid])).toEqual([
      ['Signature of castpress certification', true],
      ['Signature of Ada Lovelace', true],
      ['Signature of Bob Babbage', true],
    ]);
    expect(report.signatures.map((s) => s.signer?.commonName)).toEqual([
      'castpress certification',
      'Ada Lovelace',
      'Bob Babbage',
    ]);
    // The certification (P=2) allows each signer's revision, and Ada's signature Bob's: form filling and signing.
    const kinds = report.signatures.map((s) => s.modifications.revisions.map((r) => r.classification));
    expect(kinds).toEqual([['formFillingAndSigning', 'formFillingAndSigning'], ['formFillingAndSigning'], []]);
    expect(report.signatures[0]!.modifications.docMdp).toBe(2);
    expect(report.valid).toBe(true);
  });
});
