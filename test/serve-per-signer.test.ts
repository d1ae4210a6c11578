/**
 * Per-signer signatures through the server: `castpress serve --signatures per-signer` (started here, a keys file,
 * `--data` and `--templates` in a temp folder; packets assembled, signed and completed on its worker
 * threads). The unmodified `@anvilco/anvil` client creates a two-signer packet of a template, an
 * upload with text tags and a Markdown file; the signers submit as the signing page does (one draws,
 * one types). The zip holds per document one signature per signer with fields on it, each naming
 * its signer, then the server's seal, and the certificate of completion as a file of its own;
 * verifyPdf with the server's local root and pdfsig (NSS trusting that root) say every one is valid.
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPdf } from '../src/signing/index.js';
import {
  Anvil,
  downloadedDocuments,
  ok,
  signUrlOf,
  startPacketServe,
  type PacketServe,
} from './helpers/packet-serve.js';
import { nssDbTrusting, pdfsig, tempDir } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

const CAST = 'tplAgreement';

let tmp: { dir: string; remove: () => Promise<void> };
let served: PacketServe;
let base = '';
let client: InstanceType<typeof Anvil>;

async function pdfWith(lines: Array<{ text: string; y: number }>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  for (const l of lines) page.drawText(l.text, { x: 72, y: l.y, size: 12, font });
  return doc.save();
}

const box = (y: number, width = 200, height = 30) => ({ x: 72, y, width, height });
const drawn = {
  type: 'drawn',
  strokes: [
    [
      { x: 0, y: 0 },
      { x: 30, y: 14 },
      { x: 60, y: 2 },
      { x: 90, y: 16 },
    ],
  ],
};

beforeAll(async () => {
  tmp = await tempDir('castpress-serve-per-signer-');
  const folder = path.join(tmp.dir, 'templates', CAST);
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, 'template.pdf'),
    await pdfWith([
      { text: 'Service agreement', y: 720 },
      { text: 'Signed: {{ signature ::: client }}', y: 500 },
    ]),
  );
  await writeFile(
    path.join(folder, 'v1.json'),
    JSON.stringify({ title: 'Service agreement', pdf: 'template.pdf', fields: [] }),
  );
  served = await startPacketServe(tmp.dir, [
    '--templates',
    path.join(tmp.dir, 'templates'),
    '--signatures',
    'per-signer',
  ]);
  ({ base, client } = served);
}, 120_000);

afterAll(async () => {
  await served?.close();
  await tmp?.remove();
}, 60_000);

/** The signer finishes as the signing page does (each box accepted at once: acceptEachField is off). */
async function submit(url: string, signature: unknown): Promise<{ status: number; body: string }> {
  const { signerEid, token } = tokenOf(url);
  const res = await fetch(`${base}/sign/${encodeURIComponent(signerEid)}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ token, signature, accepted: [] }),
  });
  return { status: res.status, body: await res.text() };
}

const SIGNERS = { client: 'Ada Lovelace', provider: 'Boris Provider' } as const;

describe('castpress serve --signatures per-signer', () => {
  it('signs a two-signer packet per signer, seals it, and every signature verifies with the local root', async () => {
    const upload = await pdfWith([
      { text: 'Order form', y: 720 },
      { text: 'Client: {{ signature ::: client }}', y: 600 },
      { text: 'Provider: {{ signature ::: provider }}', y: 500 },
    ]);
    const created = ok(
      await client.createEtchPacket({
        variables: {
          name: 'Per-signer agreement',
          isDraft: false,
          isTest: true,
          files: [
            { id: 'agreement', castEid: CAST },
            {
              id: 'order',
              title: 'Order form',
              file: Anvil.prepareGraphQLFile(Buffer.from(upload), {
                filename: 'order.pdf',
                mimetype: 'application/pdf',
              }),
              fields: [],
            },
            {
              id: 'terms',
              filename: 'terms.pdf',
              title: 'Terms',
              fields: [
                { heading: 'Terms' },
                { content: 'Both parties initial and date below.' },
                { id: 'clientDate', type: 'signatureDate', pageNum: 0, rect: box(300, 150, 20) },
                { id: 'providerIni', type: 'initial', pageNum: 0, rect: box(360, 60, 36) },
                { id: 'providerName', type: 'fullName', pageNum: 0, rect: box(420, 200, 20) },
              ],
            },
          ],
          signers: [
            {
              id: 'client',
              name: SIGNERS.client,
              email: 'ada@example.com',
              signerType: 'embedded',
              routingOrder: 1,
              acceptEachField: false,
              fields: [{ fileId: 'terms', fieldId: 'clientDate' }],
            },
            {
              id: 'provider',
              name: SIGNERS.provider,
              email: 'boris@example.com',
              signerType: 'embedded',
              routingOrder: 2,
              acceptEachField: false,
              fields: [
                { fileId: 'terms', fieldId: 'providerIni' },
                { fileId: 'terms', fieldId: 'providerName' },
              ],
            },
          ],
        },
      }),
    ).createEtchPacket as { eid: string; documentGroup: { eid: string; signers: Array<{ eid: string }> } };
    const [first, second] = created.documentGroup.signers;
    const urlOf = (signerEid: string, clientUserId: string) => signUrlOf(client, signerEid, clientUserId);
    const a = await submit(await urlOf(first!.eid, 'c-1'), drawn);
    expect(a.status, a.body).toBe(200);
    const b = await submit(await urlOf(second!.eid, 'p-1'), { type: 'typed', text: SIGNERS.provider });
    expect(b.status, b.body).toBe(200);
    expect(JSON.parse(b.body).event.documentGroupStatus).toBe('completed');

    const entries = await downloadedDocuments(client, created.documentGroup.eid);
    const names = Object.keys(entries);
    expect(names).toHaveLength(4);
    const certificateName = names.find((n) => /certificate/i.test(n));
    expect(certificateName, names.join(', ')).toBeDefined();

    const signing = path.join(tmp.dir, 'data', 'signing');
    const rootPem = await readFile(path.join(signing, 'root-ca.pem'), 'utf8');
    const sealName = new X509Certificate(await readFile(path.join(signing, 'signer.pem'))).subject.match(/CN=(.*)/)![1];
    const nss = await nssDbTrusting(tmp.dir, path.join(signing, 'root-ca.pem'));
    // Each document is certified when the packet is sent (a certificate the local CA issues for it).
    const certifier = 'castpress certification';
    const expected: Record<string, string[]> = {
      agreement: [certifier, SIGNERS.client, sealName!],
      order: [certifier, SIGNERS.client, SIGNERS.provider, sealName!],
      terms: [certifier, SIGNERS.client, SIGNERS.provider, sealName!],
      certificate: [sealName!],
    };
    for (const [name, bytes] of Object.entries(entries)) {
      const key = Object.keys(expected).find((k) => name.toLowerCase().includes(k));
      expect(key, name).toBeDefined();
      const report = await verifyPdf(bytes, { trustAnchors: [rootPem] });
      expect(
        report.signatures.map((s) => s.signer?.commonName),
        name,
      ).toEqual(expected[key!]);
      expect(report.problems, name).toEqual([]);
      expect(report.valid, name).toBe(true);
      for (const s of report.signatures) {
        expect(s.valid, `${name} #${s.index}: ${s.problems.join('; ')}`).toBe(true);
        for (const r of s.modifications.revisions)
          expect(['none', 'formFillingAndSigning'], JSON.stringify(r.changes)).toContain(r.classification);
      }
      expect(report.signatures.at(-1)!.coversWholeDocument).toBe(true);
      const file = path.join(tmp.dir, `out-${key}.pdf`);
      await writeFile(file, bytes);
      const sig = await pdfsig(file, nss);
      expect(sig.signatures.length, sig.text).toBe(expected[key!]!.length);
      for (const s of sig.signatures) {
        expect(s.valid, sig.text).toBe(true);
        expect(s.trusted, sig.text).toBe(true);
      }
    }
  }, 300_000);
});
