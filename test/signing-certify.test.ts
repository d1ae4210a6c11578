/**
 * Certification (DocMDP) and documents signed elsewhere.
 *
 * - sealPdf({certify: P}) writes /Perms /DocMDP and the signature's /Reference; verifyPdf reports the
 *   certification and holds every later revision to P: a form fill after P=2 is allowed, after P=1 it
 *   is not; page content or an annotation after P=2 is not.
 * - A packet whose upload was sealed by another install's CA: the marks are unsigned signature fields
 *   created when the packet is sent, so that foreign signature still verifies (integrity, modifications
 *   formFillingAndSigning) after every signer and the final seal; trust only with its own root.
 * - An upload certified with P=1 elsewhere cannot take any mark: refused at creation, naming the file.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { createPacketWorkflow, openSqliteStore, type PacketStore, type PacketWorkflow } from '../src/packets/index.js';
import { addAnnotation, appendFieldMarks, UpdateSession } from '../src/pdf/index.js';
import {
  AppearanceWriter,
  createSigningIdentity,
  issueSignerIdentity,
  LocalTimestampAuthority,
  sealPdf,
  verifyPdf,
  type SigningIdentity,
} from '../src/signing/index.js';
import { serve } from '../src/cli/serve.js';
import { guardedFetch } from '../src/resources/index.js';
import { tsaUrlOf } from '../src/server/index.js';
import { makePdf, mutoolVerify, nssDbTrusting, pdfsig, tempDir } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

const NOW = Date.parse('2026-03-02T09:00:00Z');
let tmp: { dir: string; remove: () => Promise<void> };
let identity: SigningIdentity;
let other: SigningIdentity;
let rootPem: string;
let otherRootPem: string;
let appearance: Uint8Array;

beforeAll(async () => {
  tmp = await tempDir('castpress-certify-');
  identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'ours'), clock: () => new Date(NOW) });
  other = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'theirs'), clock: () => new Date(NOW) });
  rootPem = await readFile(identity.files!.rootCertificate, 'utf8');
  otherRootPem = await readFile(other.files!.rootCertificate, 'utf8');
  appearance = await makePdf(1, 'mark');
}, 300_000);

afterAll(async () => {
  await tmp?.remove();
});

const at = new Date(NOW);
const rect = { x: 72, y: 100, width: 200, height: 24 };

/** A one-page document with a read-only text field "note" (castpress's mark field), certified with P. */
async function certified(p: 1 | 2 | 3): Promise<Uint8Array> {
  const form = await appendFieldMarks(await makePdf(), {
    create: [{ name: 'note', kind: 'text', pageIndex: 0, rect }],
  });
  return sealPdf(form, identity, { certify: p, name: 'Operator', signingTime: at });
}

/** The field "note" filled (value and appearance), as a signer's revision does. */
const fill = (pdf: Uint8Array) =>
  appendFieldMarks(pdf, { appearances: appearance, set: [{ name: 'note', appearancePage: 0, value: 'Filled' }] });

/** A text annotation on page 1, through the kernel's update session. */
async function annotate(pdf: Uint8Array): Promise<Uint8Array> {
  const session = await UpdateSession.open(pdf, 'pdf');
  const doc = session.doc;
  const annot = doc.context.register(
    doc.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [300, 300, 320, 320], Contents: 'added later' }),
  );
  addAnnotation(doc.getPage(0), annot);
  return session.commit();
}

describe('certification signatures (DocMDP)', () => {
  it('P=2: a form fill and a signature after it are allowed; verifyPdf reports the certification', async () => {
    // Ada signs with a certificate of her own, as in a packet (pdfsig's NSS calls a certificate that signs
    // twice around a form fill "Unknown issue" the second time).
    const ada = await issueSignerIdentity(identity, { name: 'Ada', now: at });
    const doc = await sealPdf(await fill(await certified(2)), ada, { name: 'Ada', signingTime: at });
    const report = await verifyPdf(doc, { trustAnchors: [rootPem] });
    expect(report.valid, report.problems.join('; ')).toBe(true);
    const [cert, adas] = report.signatures;
    expect(cert!.modifications).toMatchObject({ certification: true, docMdp: 2, ok: true });
    expect(cert!.modifications.revisions.map((r) => r.classification)).toEqual([
      'formFillingAndSigning',
      'formFillingAndSigning',
    ]);
    expect(adas!.modifications).toMatchObject({ certification: false, docMdp: 2, ok: true });
    // The bytes: /Perms /DocMDP in the catalog, the /Reference with P 2 in the signature dictionary.
    const text = Buffer.from(doc).toString('latin1');
    expect(text).toMatch(/\/Perms\s*<<\s*\/DocMDP \d+ 0 R/);
    expect(text).toMatch(/\/TransformMethod \/DocMDP/);
    expect(text).toMatch(/\/P 2\b/);
    const file = path.join(tmp.dir, 'p2.pdf');
    await writeFile(file, doc);
    const nss = await nssDbTrusting(tmp.dir, identity.files!.rootCertificate);
    const sig = await pdfsig(file, nss);
    expect(sig.signatures).toHaveLength(2);
    for (const s of sig.signatures) expect(s.valid && s.trusted, sig.text).toBe(true);
    const mutool = await mutoolVerify(file);
    console.log(`mutool sign -v (P=2 certification, a form fill, a signature):\n${mutool}`);
    // MuPDF does not tell allowed form filling from other edits: the certification is "valid but there have been edits".
    expect(mutool).toMatch(/The signature is valid/);
    expect(mutool).toContain('The document is unchanged since signing');
  }, 60_000);

  it('P=2: page content added after it makes it not valid (other)', async () => {
    const doc = await new AppearanceWriter().apply(await certified(2), [
      { page: 0, rect: { x: 72, y: 200, width: 200, height: 20 }, input: { type: 'text', text: 'Added later' } },
    ]);
    const report = await verifyPdf(doc, { trustAnchors: [rootPem] });
    expect(report.valid).toBe(false);
    const cert = report.signatures[0]!;
    expect(cert.valid).toBe(false);
    expect(cert.modifications.revisions.at(-1)!.classification).toBe('other');
  }, 60_000);

  it('P=2: an annotation added after it is not allowed; P=3 allows it', async () => {
    const p2 = await verifyPdf(await annotate(await certified(2)), { trustAnchors: [rootPem] });
    expect(p2.valid).toBe(false);
    expect(p2.signatures[0]!.modifications.revisions.at(-1)!.classification).toBe('annotations');
    expect(p2.signatures[0]!.problems.join(' ')).toMatch(/annotation added/);
    const p3 = await verifyPdf(await annotate(await certified(3)), { trustAnchors: [rootPem] });
    // The certification itself holds (the document as a whole is not valid: nothing signs the annotation).
    expect(p3.signatures[0]!.valid, p3.signatures[0]!.problems.join('; ')).toBe(true);
    expect(p3.signatures[0]!.modifications).toMatchObject({ docMdp: 3, allowed: 'annotations' });
  }, 60_000);

  it('P=1: a form fill after it is not allowed', async () => {
    const report = await verifyPdf(await fill(await certified(1)), { trustAnchors: [rootPem] });
    expect(report.valid).toBe(false);
    const cert = report.signatures[0]!;
    expect(cert.modifications).toMatchObject({ certification: true, docMdp: 1, allowed: 'none', ok: false });
    // "note" is read-only and no signature follows its fill: beyond form filling.
    expect(cert.modifications.revisions.at(-1)!.classification).toBe('other');
  }, 60_000);

  it('only the first signature certifies: an already signed document is a 400 on certify', async () => {
    const signed = await sealPdf(await makePdf(), identity, { signingTime: at });
    await expect(sealPdf(signed, identity, { certify: 2, signingTime: at })).rejects.toMatchObject({
      name: 'ValidationError',
      fields: [{ property: 'certify' }],
    });
  }, 60_000);
});

describe('a packet whose upload was signed elsewhere', () => {
  let engine: Engine;
  let store: PacketStore;
  let flow: PacketWorkflow;

  beforeAll(async () => {
    await mkdir(path.join(tmp.dir, 'templates'), { recursive: true });
    engine = createEngine({ now: () => new Date(NOW), templates: path.join(tmp.dir, 'templates') });
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
  }, 60_000);

  const upload = (pdf: Uint8Array) => ({
    id: 'contract',
    title: 'Contract',
    file: { data: Buffer.from(pdf).toString('base64'), filename: 'contract.pdf', mimetype: 'application/pdf' },
    fields: [
      { id: 'clientSig', type: 'signature', pageNum: 0, rect: { x: 72, y: 500, width: 200, height: 30 } },
      { id: 'clientDate', type: 'signatureDate', pageNum: 0, rect: { x: 300, y: 500, width: 150, height: 20 } },
      { id: 'providerSig', type: 'signature', pageNum: 0, rect: { x: 72, y: 600, width: 200, height: 30 } },
    ],
  });
  const signers = [
    {
      id: 'client',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      signerType: 'embedded',
      routingOrder: 1,
      fields: [
        { fileId: 'contract', fieldId: 'clientSig' },
        { fileId: 'contract', fieldId: 'clientDate' },
      ],
    },
    {
      id: 'provider',
      name: 'Boris Provider',
      email: 'boris@example.com',
      signerType: 'embedded',
      routingOrder: 2,
      fields: [{ fileId: 'contract', fieldId: 'providerSig' }],
    },
  ];

  it("keeps the other CA's signature valid through both signers and the seal", async () => {
    const theirs = await sealPdf(await makePdf(1, 'Contract signed by the other party'), other, {
      name: 'Other party',
      signingTime: at,
    });
    const s = flow.service;
    const created = await s.createEtchPacket({ name: 'Countersign', files: [upload(theirs)], signers });
    const [client, provider] = created.documentGroup.signers;
    for (const [signer, input] of [
      [
        client!,
        {
          type: 'drawn',
          strokes: [
            [
              { x: 0, y: 0 },
              { x: 40, y: 12 },
              { x: 80, y: 2 },
            ],
          ],
        },
      ],
      [provider!, { type: 'typed', text: 'Boris Provider' }],
    ] as const) {
      const url = await s.generateEtchSignURL({ signerEid: signer.eid, clientUserId: signer.eid });
      await s.submitSigning({ ...tokenOf(url), inputs: { signature: input } });
    }
    const docs = await s.groupDocuments(created.documentGroup.eid);
    const contract = docs.find((d) => d.filename === 'contract.pdf')!.pdf;
    // Not certified (only a first signature can): the other party's, the two signers', the seal.
    const report = await verifyPdf(contract, { trustAnchors: [rootPem] });
    expect(report.signatures.map((x) => x.signer?.commonName)).toEqual([
      expect.stringMatching(/^castpress local signer /),
      'Ada Lovelace',
      'Boris Provider',
      expect.stringMatching(/^castpress local signer /),
    ]);
    const foreign = report.signatures[0]!;
    expect(foreign.integrity.intact).toBe(true);
    expect(foreign.modifications.ok, foreign.modifications.reason).toBe(true);
    expect(foreign.modifications.certification).toBe(false);
    for (const r of foreign.modifications.revisions) expect(r.classification).toBe('formFillingAndSigning');
    // Its root is not ours: not trusted, so not valid, for our root alone; everything else valid.
    expect(foreign.trust.trusted).toBe(false);
    for (const x of report.signatures.slice(1)) expect(x.valid, x.problems.join('; ')).toBe(true);
    const both = await verifyPdf(contract, { trustAnchors: [rootPem, otherRootPem] });
    expect(both.valid, both.problems.join('; ')).toBe(true);
  }, 240_000);

  it('an upload certified elsewhere with P=1 is refused at creation, naming the file', async () => {
    const locked = await sealPdf(await makePdf(1, 'No changes allowed'), other, { certify: 1, signingTime: at });
    await expect(
      flow.service.createEtchPacket({ name: 'Locked', files: [upload(locked)], signers }),
    ).rejects.toMatchObject({
      name: 'ValidationError',
      fields: [{ property: 'files[0]', message: expect.stringMatching(/signature that signing it here would break/) }],
    });
  }, 120_000);
});

describe('a remote TSA through the resolver (--tsa URL)', () => {
  let server: http.Server;
  let url: string;
  let requests = 0;

  beforeAll(async () => {
    // The "remote" TSA: the built-in one answering RFC 3161 requests over HTTP on loopback.
    const tsa = await LocalTimestampAuthority.open({
      dataDir: path.join(tmp.dir, 'theirs'),
      clock: () => new Date(NOW),
    });
    server = http.createServer((req, res) => {
      requests++;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void tsa.respond(new Uint8Array(Buffer.concat(chunks))).then((answer) => {
          res.writeHead(200, { 'content-type': 'application/timestamp-reply' });
          res.end(Buffer.from(answer));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsr`;
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('refuses a loopback TSA that is not allow-listed (nothing sent), and uses it when it is', async () => {
    const pdf = await makePdf();
    await expect(
      sealPdf(pdf, identity, { level: 'B-T', signingTime: at, timestamp: { url, fetch: guardedFetch() } }),
    ).rejects.toMatchObject({ name: 'SigningError', status: 502, fields: [{ property: 'timestamp' }] });
    expect(requests).toBe(0);
    const host = new URL(url).host;
    const sealed = await sealPdf(pdf, identity, {
      level: 'B-T',
      signingTime: at,
      timestamp: { url, fetch: guardedFetch({ allowHosts: [host] }) },
    });
    expect(requests).toBe(1);
    const report = await verifyPdf(sealed, { trustAnchors: [rootPem] });
    expect(report.signatures[0]!.padesLevel).toBe('B-T');
    expect(report.signatures[0]!.timestamp).toMatchObject({ imprintMatches: true, signatureValid: true });
  }, 60_000);

  it('--tsa takes local or an http(s) URL: anything else stops the start with a ValidationError on tsa', async () => {
    expect(tsaUrlOf(url)).toBe(url);
    for (const bad of ['ftp://tsa.example/', 'not a url', 'https://user:pw@tsa.example/'])
      expect(() => tsaUrlOf(bad)).toThrow(
        expect.objectContaining({ name: 'ValidationError', fields: [expect.objectContaining({ property: 'tsa' })] }),
      );
    await expect(serve(['--tsa', 'ftp://tsa.example/', '--port', '0'])).rejects.toMatchObject({
      name: 'ValidationError',
    });
  });
});
