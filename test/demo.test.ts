/**
 * `npm run demo`'s signature packet: the library workflow run by scripts/demo-packet.ts
 * writes the three sealed documents, and every signature in them, read back from disk, verifies valid
 * against the local CA root the demo made: a signature per signer, the seal, the certificate of completion apart.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPdf } from '../src/signing/index.js';
import { runPacketDemo, type PacketDemoResult } from '../scripts/demo-packet.js';
import { pageText, popplerText } from './helpers/pdf.js';
import { tempDir } from './helpers/signing.js';

let tmp: { dir: string; remove: () => Promise<void> };
let result: PacketDemoResult;
beforeAll(async () => {
  tmp = await tempDir('castpress-demo-');
  result = await runPacketDemo(path.join(tmp.dir, 'out', 'packet'), path.join(tmp.dir, 'out', 'demo-data'));
}, 240_000);
afterAll(async () => {
  await tmp?.remove();
});

describe('npm run demo: the signature packet', () => {
  it('writes the template, the tagged upload and the Markdown document, sealed', async () => {
    const written = (await readdir(path.join(tmp.dir, 'out', 'packet'))).sort();
    // Per-signer signatures (the library workflow's default): the certificate of completion is its own sealed file.
    expect(written).toEqual(['Engagement letter.pdf', 'certificate-of-completion.pdf', 'order-form.pdf', 'terms.pdf']);
    expect(result.files.map((f) => path.basename(f)).sort()).toEqual(written);
  });

  it('every signature verifies valid against the local CA root, and the report says so', async () => {
    const root = await readFile(path.join(tmp.dir, 'out', 'demo-data', 'signing', 'root-ca.pem'), 'utf8').catch(
      () => undefined,
    );
    const anchors = root ? [root] : [];
    expect(anchors, 'the demo CA root file').toHaveLength(1);
    const signers = new Set<string>();
    for (const name of ['Engagement letter.pdf', 'order-form.pdf', 'terms.pdf', 'certificate-of-completion.pdf']) {
      const pdf = new Uint8Array(await readFile(path.join(tmp.dir, 'out', 'packet', name)));
      const report = await verifyPdf(pdf, { trustAnchors: anchors });
      expect(report.valid, `${name}: ${report.problems.join('; ')}`).toBe(true);
      expect(report.signatures.length).toBeGreaterThan(0);
      expect(report.signatures.every((s) => s.valid && s.trust.trusted)).toBe(true);
      const pages = await pageText(pdf);
      if (name === 'certificate-of-completion.pdf') {
        expect(pages[0]).toContain('Certificate of completion');
        expect(pages.join('\n')).toContain('Ada Lovelace');
      } else {
        // Each signer's own signature on the documents they have fields on, then the seal.
        expect(report.signatures.length).toBeGreaterThanOrEqual(2);
        for (const s of report.signatures) if (s.signer?.commonName) signers.add(s.signer.commonName);
      }
    }
    expect([...signers]).toEqual(expect.arrayContaining(['Ada Lovelace', 'Bob Provider']));
    expect(result.valid).toBe(true);
    expect(result.report.length).toBeGreaterThanOrEqual(4 + 3);
    expect(result.report.every((line) => /\svalid\s/.test(line) && !line.includes('NOT'))).toBe(true);
  });

  it('the signed upload and Markdown document show the marks and no tag text (the tags are gone from their pages)', async () => {
    for (const name of ['order-form.pdf', 'terms.pdf']) {
      const pdf = new Uint8Array(await readFile(path.join(tmp.dir, 'out', 'packet', name)));
      const text = (await popplerText(pdf)).join('\n');
      expect(text, name).not.toMatch(/\{\{|\}\}|:::/);
    }
    const terms = (
      await popplerText(new Uint8Array(await readFile(path.join(tmp.dir, 'out', 'packet', 'terms.pdf'))))
    )[0];
    expect(terms).toContain('Provider initials:');
  });
});
