/**
 * Per-signer signatures by default: a two-signer packet (a template, an upload with
 * text tags, a Markdown file; one signer draws, one types) through the library workflow. Each
 * document gets one signature per signer who has fields on it, each by a certificate the local
 * CA issued for that signer, then the final seal; the certificate of completion is a file of
 * its own. pdfsig (NSS trusting the local root), `openssl cms -verify` and verifyPdf accept
 * every signature, the difference analysis finds only form filling and signing after each, and
 * a page-content change after a signer's signature is flagged.
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { createPacketWorkflow, openSqliteStore, type PacketStore, type PacketWorkflow } from '../src/packets/index.js';
import {
  AppearanceWriter,
  createSigningIdentity,
  verifyPdf,
  type SigningIdentity,
  type VerifyResult,
} from '../src/signing/index.js';
import {
  extractSignatures,
  mutoolVerify,
  nssDbTrusting,
  opensslCmsVerify,
  pdfsig,
  tempDir,
} from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

const NOW = Date.parse('2026-03-02T09:00:00Z');
const CAST = 'tplAgreement';
let tmp: { dir: string; remove: () => Promise<void> };
let engine: ReturnType<typeof createEngine>;
let identity: SigningIdentity;
let rootPem: string;
let store: PacketStore;
let flow: PacketWorkflow;

async function pdfWith(lines: Array<{ text: string; y: number }>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  for (const l of lines) page.drawText(l.text, { x: 72, y: l.y, size: 12, font });
  return doc.save();
}

const box = (y: number, width = 200, height = 30) => ({ x: 72, y, width, height });
const drawn = {
  type: 'drawn' as const,
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
  tmp = await tempDir('castpress-per-signer-');
  const folder = path.join(tmp.dir, 'templates', CAST);
  await mkdir(folder, { recursive: true });
  // The template's signature box comes from its text tag, assigned to the client.
  await writeFile(
    path.join(folder, 'template.pdf'),
    await pdfWith([
      { text: 'Service agreement', y: 720 },
      { text: 'Signed: {{ signature ::: client }}', y: 500 },
    ]),
  );
  await writeFile(
    path.join(folder, 'v1.json'),
    JSON.stringify({
      title: 'Service agreement',
      pdf: 'template.pdf',
      fields: [{ id: 'clientRef', type: 'shortText', pageNum: 0, rect: box(120, 200, 18) }],
    }),
  );
  engine = createEngine({ now: () => new Date(NOW), templates: path.join(tmp.dir, 'templates') });
  identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'identity'), clock: () => new Date(NOW) });
  rootPem = await readFile(identity.files!.rootCertificate, 'utf8');
  store = await openSqliteStore({ dir: path.join(tmp.dir, 'store') });
  flow = createPacketWorkflow({
    store,
    engine,
    identity,
    baseUrl: 'http://castpress.test',
    clock: () => new Date(NOW),
    mailDir: path.join(tmp.dir, 'mail'),
  });
}, 120_000);

afterAll(async () => {
  await flow?.close();
  await store?.close();
  await engine?.close();
  await tmp?.remove();
}, 60_000);

/** The packet signed by both; `update`: a new payload after the first signer (the documents re-rendered, the first signer replayed). */
async function runPacket(update = false): Promise<Array<{ filename: string; pdf: Uint8Array }>> {
  const s = flow.service;
  const upload = await pdfWith([
    { text: 'Order form', y: 720 },
    { text: 'Client: {{ signature ::: client }}', y: 600 },
    { text: 'Provider: {{ signature ::: provider }}', y: 500 },
  ]);
  const created = await s.createEtchPacket({
    name: 'Per-signer agreement',
    isDraft: true,
    allowUpdates: true,
    data: { payloads: { terms: { data: { ref: 'REF-1' } } } },
    files: [
      { id: 'agreement', castEid: CAST },
      {
        id: 'order',
        title: 'Order form',
        file: { data: Buffer.from(upload).toString('base64'), filename: 'order.pdf', mimetype: 'application/pdf' },
        fields: [],
      },
      {
        id: 'terms',
        filename: 'terms.pdf',
        title: 'Terms',
        fields: [
          { heading: 'Terms' },
          { content: 'Both parties initial and date below.' },
          { id: 'ref', type: 'shortText', pageNum: 0, rect: box(250, 150, 20) },
          { id: 'clientDate', type: 'signatureDate', pageNum: 0, rect: box(300, 150, 20) },
          { id: 'providerIni', type: 'initial', pageNum: 0, rect: box(360, 60, 36) },
          { id: 'providerName', type: 'fullName', pageNum: 0, rect: box(420, 200, 20) },
        ],
      },
    ],
    signers: [
      {
        id: 'client',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        signerType: 'embedded',
        routingOrder: 1,
        fields: [{ fileId: 'terms', fieldId: 'clientDate' }],
      },
      {
        id: 'provider',
        name: 'Boris Provider',
        email: 'boris@example.com',
        signerType: 'embedded',
        routingOrder: 2,
        fields: [
          { fileId: 'terms', fieldId: 'providerIni' },
          { fileId: 'terms', fieldId: 'providerName' },
        ],
      },
    ],
  });
  await s.sendEtchPacket({ eid: created.eid });
  const [client, provider] = created.documentGroup.signers;
  const clientUrl = await s.generateEtchSignURL({ signerEid: client!.eid, clientUserId: 'c-1' });
  await s.submitSigning({ ...tokenOf(clientUrl), inputs: { signature: drawn } });
  if (update)
    await s.updateEtchPacket({ eid: created.eid, payload: { terms: { data: { ref: 'REF-2' } } }, mergePayloads: true });
  const providerUrl = await s.generateEtchSignURL({ signerEid: provider!.eid, clientUserId: 'p-1' });
  const done = await s.submitSigning({
    ...tokenOf(providerUrl),
    inputs: { signature: { type: 'typed', text: 'Boris Provider' } },
  });
  expect(done.documentGroupStatus).toBe('completed');
  return s.groupDocuments(created.documentGroup.eid);
}

const SIGNERS = { client: 'Ada Lovelace', provider: 'Boris Provider' } as const;

describe('per-signer signatures in the packet flow (library workflow)', () => {
  let docs: Array<{ filename: string; pdf: Uint8Array }>;
  const reports = new Map<string, VerifyResult>();

  beforeAll(async () => {
    docs = await runPacket();
    for (const d of docs) reports.set(d.filename, await verifyPdf(d.pdf, { trustAnchors: [rootPem] }));
  }, 240_000);

  it('gives each document one signature per signer with fields on it, then the seal; the certificate is a file of its own', () => {
    const names = (f: string) => reports.get(f)!.signatures.map((s) => s.signer?.commonName);
    const sealName = new X509Certificate(identity.certificate).subject.match(/CN=(.*)/)![1];
    expect(docs.map((d) => d.filename)).toEqual([
      'Service agreement.pdf',
      'order.pdf',
      'terms.pdf',
      'certificate-of-completion.pdf',
    ]);
    // First the certification signature written when the packet was sent (a certificate the local CA issued for it).
    const certifier = 'castpress certification';
    expect(names('Service agreement.pdf')).toEqual([certifier, SIGNERS.client, sealName]);
    expect(names('order.pdf')).toEqual([certifier, SIGNERS.client, SIGNERS.provider, sealName]);
    expect(names('terms.pdf')).toEqual([certifier, SIGNERS.client, SIGNERS.provider, sealName]);
    expect(names('certificate-of-completion.pdf')).toEqual([sealName]);
    // The signer's e-mail in subjectAltName, the packet and signer in /Reason, a key of their own each time.
    const order = reports.get('order.pdf')!.signatures;
    expect(order[0]!.reason).toMatch(/^Certified for packet \S+: form filling and signing allowed$/);
    expect(order[1]!.reason).toMatch(/^Signed by Ada Lovelace <ada@example.com> as signer \S+ of packet \S+$/);
    const certs = docs.flatMap((d) => extractSignatures(d.pdf).map((s) => s.der.toString('hex')));
    expect(new Set(certs).size).toBe(certs.length);
  });

  it('verifyPdf with the local root: every signature valid, only form filling and signing after each', () => {
    for (const [file, report] of reports) {
      expect(report.problems, file).toEqual([]);
      expect(report.valid, file).toBe(true);
      for (const s of report.signatures) {
        expect(s.valid, `${file} #${s.index}: ${s.problems.join('; ')}`).toBe(true);
        expect(s.modifications.ok).toBe(true);
        for (const r of s.modifications.revisions)
          expect(['none', 'formFillingAndSigning'], JSON.stringify(r.changes)).toContain(r.classification);
        if (s.signer?.commonName !== SIGNERS.client) continue;
        // After the first signer: the second's field appearances and values, their signature, the seal.
        expect(s.modifications.revisions.map((r) => r.classification)).toContain('formFillingAndSigning');
      }
      expect(report.signatures.at(-1)!.coversWholeDocument).toBe(true);
      // Each signed document is certified first (DocMDP P=2), which governs every later signature.
      if (file === 'certificate-of-completion.pdf') continue;
      expect(report.signatures[0]!.modifications).toMatchObject({ certification: true, docMdp: 2 });
      for (const s of report.signatures.slice(1))
        expect(s.modifications).toMatchObject({ certification: false, docMdp: 2, allowed: 'formFillingAndSigning' });
    }
  });

  it('pdfsig (NSS trusting the local root), openssl cms -verify accept every signature; mutool reports no disallowed change', async () => {
    const nss = await nssDbTrusting(tmp.dir, identity.files!.rootCertificate);
    for (const [i, d] of docs.entries()) {
      const file = path.join(tmp.dir, `doc-${i}.pdf`);
      await writeFile(file, d.pdf);
      const report = await pdfsig(file, nss);
      expect(report.signatures.length, report.text).toBe(reports.get(d.filename)!.signatures.length);
      for (const s of report.signatures) {
        expect(s.valid, report.text).toBe(true);
        expect(s.trusted, report.text).toBe(true);
      }
      for (const [k, sig] of extractSignatures(d.pdf).entries()) {
        const r = await opensslCmsVerify(sig, identity.files!.rootCertificate, tmp.dir, `d${i}-s${k}`);
        expect(r.code, r.stderr).toBe(0);
      }
      const mutool = await mutoolVerify(file);
      if (process.env.PER_SIGNER_KEEP) await writeFile(path.join(process.env.PER_SIGNER_KEEP, `doc-${i}.pdf`), d.pdf);
      // What mutool says about each signature, kept in the test log.
      console.log(`mutool sign -v ${d.filename}:\n${mutool}`);
      // mutool does not tell form filling from other edits: an earlier signature is "valid but there have
      // been edits since signing", the seal "unchanged since signing"; the difference analysis above judges the edits.
      const verdicts = mutool.split(/^Verifying signature/m).slice(1);
      expect(verdicts).toHaveLength(reports.get(d.filename)!.signatures.length);
      for (const v of verdicts) expect(v).toMatch(/The signature is valid|The document is unchanged since signing/);
      expect(verdicts.at(-1)).toContain('The document is unchanged since signing');
    }
  }, 120_000);

  it('a payload update after the first signer re-renders and replays their signature: every signature still valid', async () => {
    const again = await runPacket(true);
    for (const d of again) {
      const report = await verifyPdf(d.pdf, { trustAnchors: [rootPem] });
      expect(report.valid, `${d.filename}: ${report.problems.join('; ')}`).toBe(true);
      expect(report.signatures.length).toBe(reports.get(d.filename)!.signatures.length);
    }
  }, 240_000);

  it("flags page content drawn after a signer's signature", async () => {
    const terms = docs.find((d) => d.filename === 'terms.pdf')!.pdf;
    const tampered = await new AppearanceWriter().apply(terms, [
      { page: 0, rect: box(600), input: { type: 'text', text: 'Added after signing' } },
    ]);
    const report = await verifyPdf(tampered, { trustAnchors: [rootPem] });
    expect(report.valid).toBe(false);
    for (const s of report.signatures) {
      expect(s.valid).toBe(false);
      expect(s.modifications.ok).toBe(false);
      expect(s.modifications.revisions.at(-1)!.classification).toBe('other');
    }
    // The same document untouched: valid (so it is the drawing that is flagged).
    expect((await verifyPdf(terms, { trustAnchors: [rootPem] })).valid).toBe(true);
  }, 60_000);
});
