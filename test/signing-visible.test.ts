/**
 * Visible signatures. With `signatureDetails`, a per-signer packet's signature box shows,
 * under the signer's mark, who signed, the signing time (UTC) and the SHA-256 fingerprint of the
 * certificate their signature was made with, as Acrobat and DocuSign boxes do. Read back with
 * MuPDF (`mutool draw -F txt` renders the widget's appearance), the fingerprint matched against
 * the certificate openssl finds in that signature, and the signer's revision still only form
 * filling and signing (verifyPdf). Without the option the box shows the mark alone.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { verifyPdf } from '../src/signing/index.js';
import { openTestWorkflow, signerCertificateSha256, type TestWorkflow } from './helpers/packet-serve.js';
import { extractSignatures, tool } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';
import { readFile } from 'node:fs/promises';

const engine = createEngine();
const opened: TestWorkflow[] = [];
afterAll(async () => {
  for (const w of opened) await w.close();
  await engine.close();
}, 60_000);

/** A one-signer packet signed (typed) through the library workflow; the signed document. */
async function signedDocument(details: boolean): Promise<{ pdf: Uint8Array; setup: TestWorkflow }> {
  const setup = await openTestWorkflow('castpress-visible-', engine, { signatureDetails: details });
  opened.push(setup);
  const s = setup.flow.service;
  const created = await s.createEtchPacket({
    name: 'Visible',
    files: [
      {
        id: 'm',
        filename: 'm.pdf',
        title: 'Terms',
        fields: [
          { content: 'Agreed.' },
          { id: 's', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 240, height: 60 } },
        ],
      },
    ],
    signers: [
      {
        id: 'a',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        signerType: 'embedded',
        fields: [{ fileId: 'm', fieldId: 's' }],
      },
    ],
  });
  const signer = created.documentGroup.signers[0]!;
  const url = await s.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'u-1' });
  await s.submitSigning({ ...tokenOf(url), inputs: { signature: { type: 'typed', text: 'Ada Lovelace' } } });
  const [doc] = await s.groupDocuments(created.documentGroup.eid);
  return { pdf: doc!.pdf, setup };
}

async function mupdfText(pdf: Uint8Array, dir: string, name: string): Promise<string> {
  const file = path.join(dir, `${name}.pdf`);
  await writeFile(file, pdf);
  const r = await tool('mutool', ['draw', '-F', 'txt', '-o', '-', file]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.replace(/\s+/g, ' ');
}

describe('visible signatures (per-signer)', () => {
  it("the signature box shows the signer's name, the signing time and their certificate's fingerprint", async () => {
    const { pdf, setup } = await signedDocument(true);
    const text = await mupdfText(pdf, setup.tmp.dir, 'visible');
    expect(text).toContain('Digitally signed by Ada Lovelace');
    // The fingerprint of the certificate in Ada's signature, as openssl reads it from the CMS.
    const hashes: string[] = [];
    for (const sig of extractSignatures(pdf))
      await signerCertificateSha256(sig.der, 'Ada Lovelace', setup.tmp.dir).then(
        (h) => hashes.push(h),
        () => undefined,
      );
    expect(hashes).toHaveLength(1);
    expect(text).toContain(`SHA-256 ${hashes[0]}`);
    // Still a valid signature, its revision form filling and signing only.
    const root = await readFile(setup.identity.files!.rootCertificate, 'utf8');
    const report = await verifyPdf(pdf, { trustAnchors: [root] });
    expect(report.valid, report.problems.join('; ')).toBe(true);
    // The date shown is the signature's /M.
    const ada = report.signatures.find((s) => s.signer?.commonName === 'Ada Lovelace')!;
    expect(text).toContain(`Date: ${ada.signingTime!.toISOString().slice(0, 19).replace('T', ' ')} UTC`);
    for (const s of report.signatures)
      for (const r of s.modifications.revisions)
        expect(['none', 'formFillingAndSigning'], JSON.stringify(r.changes)).toContain(r.classification);
  }, 120_000);

  it('without the option the box shows the mark alone', async () => {
    const { pdf, setup } = await signedDocument(false);
    const text = await mupdfText(pdf, setup.tmp.dir, 'plain');
    expect(text).not.toContain('Digitally signed by');
    expect(text).not.toContain('SHA-256');
  }, 120_000);
});
