/**
 * A document whose last update pyHanko wrote (a cross-reference stream with /W [1 8 2]) takes the
 * kernel's updates (a fill, a signer's marks) and then a seal: @libpdf/core reads stream fields of
 * at most 6 bytes and stopped following /Prev at pyHanko's section once the kernel's update stood
 * before it ("Not a readable PDF: Root Pages object is not a dictionary"). The kernel's update now
 * lists every object in its own stream when an earlier one is that wide.
 */
import path from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { PDF } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateSession, XrefRevisions, appendFieldMarks } from '../src/pdf/index.js';
import { createSigningIdentity, sealPdf, verifyPdf, type SigningIdentity } from '../src/signing/index.js';
import { appendUpdate, tailOf } from './helpers/pdf-updates.js';
import { tempDir, tool } from './helpers/signing.js';

let tmp: { dir: string; remove: () => Promise<void> };
let identity: SigningIdentity;
beforeAll(async () => {
  tmp = await tempDir('castpress-xref-wide-');
  identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'ca') });
});
afterAll(async () => tmp?.remove());

/** A one-page document saved by pdf-lib, with or without object streams (then a cross-reference stream). */
async function onePage(objectStreams: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('pay 100 EUR', { x: 72, y: 770, size: 14, font });
  return doc.save({ useObjectStreams: objectStreams });
}

/** `pdf` updated as pyHanko updates a file with cross-reference streams: the catalog again, /Version raised, /W [1 8 2]. */
function pyHankoUpdated(pdf: Uint8Array): Uint8Array {
  const text = Buffer.from(pdf).toString('latin1');
  const root = tailOf(pdf).root.split(' ')[0]!;
  const pages = /\/Pages\s+(\d+)\s+0\s+R/.exec(text)![1];
  return appendUpdate(pdf, {
    xref: 'stream',
    wide: true,
    objects: { [root]: `<< /Type /Catalog /Pages ${pages} 0 R /Version /2.0 >>` },
  });
}

describe("a pyHanko update's wide cross-reference stream", () => {
  for (const objectStreams of [false, true]) {
    it(`a kernel update over it stays readable by @libpdf/core, qpdf and the verifier, and takes marks and a seal (${objectStreams ? 'object streams' : 'table'} underneath)`, async () => {
      const input = pyHankoUpdated(await onePage(objectStreams));
      expect(Buffer.from(input).toString('latin1')).toContain('/W [1 8 2]');
      expect((await PDF.load(input)).getPageCount()).toBe(1);
      const session = await UpdateSession.open(input);
      session.doc.setTitle('filled');
      const updated = await session.commit();
      expect((await PDF.load(updated)).getPageCount()).toBe(1);
      const file = path.join(tmp.dir, `updated-${objectStreams}.pdf`);
      await writeFile(file, updated);
      const q = await tool('qpdf', ['--check', file]);
      expect(q.code, q.stdout + q.stderr).toBe(0);
      // The chain is whole: the kernel's section names pyHanko's, which names the first.
      const chain = new XrefRevisions(updated).chainEntries(updated.length);
      expect(typeof chain !== 'string' && chain.chain.length).toBe(3);
      // The upload path of a packet: the signer's mark fields, then the seal.
      const marked = await appendFieldMarks(updated, {
        create: [{ name: 'mark', kind: 'signature', pageIndex: 0, rect: { x: 72, y: 100, width: 200, height: 40 } }],
      });
      const sealed = await sealPdf(marked, identity, { name: 'Ada' });
      const report = await verifyPdf(sealed, {
        trustAnchors: [await readFile(identity.files!.rootCertificate, 'utf8')],
      });
      expect(report.problems).toEqual([]);
      expect(report.valid).toBe(true);
    });
  }
});
