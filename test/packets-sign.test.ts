/**
 * A packet from assembly to seal: two signers draw and type their
 * marks onto a merged packet in routing order, the certificate of completion is
 * appended, the seal goes last; pdfsig, mutool and verifyPdf accept it, every
 * step kept the earlier bytes as a prefix, and bad submissions change nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, ValidationError } from '../src/index.js';
import {
  applySignerInputs,
  assemblePacket,
  completeDocument,
  sha256Of,
  type AssembledPacket,
} from '../src/packets/index.js';
import { AppearanceWriter, createSigningIdentity, verifyPdf, type SigningIdentity } from '../src/signing/index.js';
import { readText } from './helpers/pdf.js';
import { mutoolVerify, pdfsig, tempDir } from './helpers/signing.js';

const engine = createEngine({ now: () => new Date('2024-05-01T12:00:00Z') });
const writer = new AppearanceWriter();
let identity: SigningIdentity;
let tmp: { dir: string; remove: () => Promise<void> };
let packet: AssembledPacket;

const field = (id: string, type: string, y: number) => ({
  id,
  type,
  pageNum: 0,
  rect: { x: 72, y, width: 220, height: 36 },
});

beforeAll(async () => {
  tmp = await tempDir();
  // The CA's clock is pinned before the packet's dates: the seal's signing time (completedAt, 2024) must fall inside the certificate's validity.
  identity = await createSigningIdentity({
    dataDir: path.join(tmp.dir, 'data'),
    clock: () => new Date('2024-05-01T00:00:00Z'),
  });
  packet = await assemblePacket(engine, {
    name: 'Services agreement',
    mergePDFs: true,
    files: [
      {
        id: 'terms',
        filename: 'terms.pdf',
        title: 'Terms',
        fields: [
          { heading: 'Terms' },
          { content: 'Both parties agree.' },
          field('clientSig', 'signature', 300),
          field('clientDate', 'signatureDate', 350),
        ],
      },
      {
        id: 'annex',
        filename: 'annex.pdf',
        title: 'Annex',
        markup: { html: '<h1>Annex</h1><p>Prices.</p>', css: '' },
        fields: [
          field('agentSig', 'signature', 300),
          field('agentName', 'fullName', 350),
          field('clientInitials', 'initial', 420),
        ],
      },
    ],
    signers: [
      {
        id: 'client',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        fields: [
          { fileId: 'terms', fieldId: 'clientSig' },
          { fileId: 'terms', fieldId: 'clientDate' },
          { fileId: 'annex', fieldId: 'clientInitials' },
        ],
      },
      {
        id: 'agent',
        name: 'Борис Агентов',
        email: 'boris@example.com',
        fields: [
          { fileId: 'annex', fieldId: 'agentSig' },
          { fileId: 'annex', fieldId: 'agentName' },
        ],
      },
    ],
  });
}, 120_000);

afterAll(async () => {
  await engine.close();
  await tmp?.remove();
});

describe('a packet signed and sealed', () => {
  it('signers apply their marks in turn, the certificate and seal follow; validators accept the result', async () => {
    const merged = packet.merged!;
    const signerOf = (id: string) => packet.plan.signers.find((s) => s.signerId === id)!.signer;
    const assembled = merged.pdf;
    const afterClient = await applySignerInputs(
      assembled,
      {
        signature: {
          type: 'drawn',
          strokes: [
            [
              { x: 0, y: 0 },
              { x: 40, y: 20 },
              { x: 80, y: 0 },
            ],
          ],
        },
        signedAt: new Date('2024-05-02T23:30:00Z'),
        timeZone: 'Europe/Berlin',
      },
      { writer, signer: signerOf('client'), fields: merged.fields },
    );
    expect(Buffer.from(afterClient.subarray(0, assembled.length)).equals(Buffer.from(assembled))).toBe(true);
    const afterAgent = await applySignerInputs(
      afterClient,
      { signature: { type: 'typed', text: 'Борис Агентов' } },
      { writer, signer: signerOf('agent'), fields: merged.fields },
    );
    expect(Buffer.from(afterAgent.subarray(0, afterClient.length)).equals(Buffer.from(afterClient))).toBe(true);

    // The date in the signer's time zone (May 3 in Berlin), the name from the signer.
    const text = (await readText(afterAgent)).map((p) => p.items.map((i) => i.str).join(' ')).join('\n');
    expect(text).toContain('05/03/2024');
    expect(text).toContain('Борис Агентов');

    const sealed = await completeDocument(engine, afterAgent, {
      identity,
      certificate: {
        packetName: 'Services agreement',
        packetEid: 'pkt_test_1',
        documents: [{ name: merged.filename, sha256Before: sha256Of(assembled), sha256After: sha256Of(afterAgent) }],
        signers: [
          {
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            routingOrder: 1,
            signerType: 'email',
            ip: '127.0.0.1',
            signedAt: new Date('2024-05-02T23:30:00Z'),
          },
          {
            name: 'Борис Агентов',
            email: 'boris@example.com',
            routingOrder: 2,
            signerType: 'embedded',
            clientUserId: 'u-42',
          },
        ],
        completedAt: new Date('2024-05-03T08:00:00Z'),
      },
    });
    expect(Buffer.from(sealed.subarray(0, afterAgent.length)).equals(Buffer.from(afterAgent))).toBe(true);
    const pages = await readText(sealed);
    expect(pages.length).toBeGreaterThan(merged.pageCount);
    const certificate = pages
      .slice(merged.pageCount)
      .map((p) => p.items.map((i) => i.str).join(' '))
      .join(' ');
    expect(certificate).toContain('Certificate of completion');
    expect(certificate).toContain(sha256Of(assembled).slice(0, 16));
    expect(certificate).toContain('u-42');

    const file = path.join(tmp.dir, 'sealed.pdf');
    await writeFile(file, sealed);
    const report = await pdfsig(file);
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]!.valid).toBe(true);
    expect(report.signatures[0]!.total).toBe(true);
    expect(await mutoolVerify(file)).toContain('The document is unchanged since signing');
    const verified = await verifyPdf(sealed, {
      trustAnchors: [await readFile(identity.files!.rootCertificate, 'utf8')],
    });
    expect(verified.signatures).toHaveLength(1);
    expect(verified.signatures[0]).toMatchObject({
      coversWholeDocument: true,
      digestMatches: true,
      signatureValid: true,
      signingCertificateV2: true,
      valid: true,
    });
  }, 120_000);

  it("a submission for a field that is not the signer's, or without a required signature, is a typed error and changes nothing", async () => {
    const merged = packet.merged!;
    const client = packet.plan.signers.find((s) => s.signerId === 'client')!.signer;
    const foreign = await applySignerInputs(
      merged.pdf,
      { signature: { type: 'typed', text: 'Ada' } },
      { writer, signer: client, fields: merged.fields, submitted: ['agentSig'] },
    ).catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(ValidationError);
    expect((foreign as ValidationError).fields).toEqual([
      { property: 'fields[0]', message: 'Field "agentSig" is not this signer\'s to fill' },
    ]);
    const missing = await applySignerInputs(merged.pdf, {}, { writer, signer: client, fields: merged.fields }).catch(
      (e: unknown) => e,
    );
    expect((missing as ValidationError).fields.map((f) => f.property)).toEqual(['signature']);
    const notImage = await applySignerInputs(
      merged.pdf,
      { signature: { type: 'image', image: new TextEncoder().encode('not a png') } },
      { writer, signer: client, fields: merged.fields },
    ).catch((e: unknown) => e);
    expect(notImage).toBeInstanceOf(ValidationError);
  }, 60_000);
});
