/**
 * Certificate of completion as an audit trail: the last signer's token id is shown, not "—",
 * although their token is marked signed only when the completing step commits. Read back with pdfjs.
 * And the rest of the audit trail (per-signer mode): every opening of the signing page with its
 * IP and user agent, each box accepted, the time zone the page reported (checked as an IANA name),
 * and per signer and document the SHA-256 of the certificate their signature was made with (read
 * here from the signed file with openssl, not with castpress).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { CERTIFICATE_FILENAME, sha256Of, type PacketStore, type PacketWorkflow } from '../src/packets/index.js';
import type { SigningIdentity } from '../src/signing/index.js';
import {
  openTestWorkflow,
  signerCertificateSha256,
  squash,
  squashedText,
  type TestWorkflow,
} from './helpers/packet-serve.js';
import { readText } from './helpers/pdf.js';
import { extractSignatures } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

const engine = createEngine();
let setup: TestWorkflow;
let store: PacketStore;
let flow: PacketWorkflow;
let identity: SigningIdentity;

beforeAll(async () => {
  setup = await openTestWorkflow('castpress-audit-', engine);
  ({ store, flow, identity } = setup);
}, 60_000);
afterAll(async () => {
  await setup?.close();
  await engine.close();
});

const box = (id: string, y: number) => ({
  id,
  type: 'signature',
  pageNum: 0,
  rect: { x: 72, y, width: 200, height: 30 },
});

describe('the certificate of completion', () => {
  it("names every signer's token, the last signer's included", async () => {
    const s = flow.service;
    const created = await s.createEtchPacket({
      name: 'Audit',
      files: [
        { id: 'm', filename: 'm.pdf', title: 'Terms', fields: [{ content: 'Agreed.' }, box('a', 300), box('b', 360)] },
      ],
      signers: [
        {
          id: 'a',
          name: 'Ada First',
          email: 'ada@example.com',
          signerType: 'embedded',
          routingOrder: 1,
          fields: [{ fileId: 'm', fieldId: 'a' }],
        },
        {
          id: 'b',
          name: 'Bo Last',
          email: 'bo@example.com',
          signerType: 'embedded',
          routingOrder: 2,
          fields: [{ fileId: 'm', fieldId: 'b' }],
        },
      ],
    });
    const [first, last] = created.documentGroup.signers;
    for (const [signer, text] of [
      [first!, 'Ada First'],
      [last!, 'Bo Last'],
    ] as const) {
      const url = await s.generateEtchSignURL({ signerEid: signer.eid, clientUserId: signer.eid });
      await s.submitSigning({
        ...tokenOf(url),
        inputs: { signature: { type: 'typed', text } },
        ip: '127.0.0.7',
        userAgent: 'audit-test',
      });
    }
    // Per-signer signatures (the workflow's default): the certificate of completion is a sealed file
    // of its own, the group's last document (with `signatures: 'seal'` it is appended to each document).
    const docs = await s.groupDocuments(created.documentGroup.eid);
    expect(docs.at(-1)!.filename).toBe(CERTIFICATE_FILENAME);
    const pages = await readText(docs.at(-1)!.pdf);
    const certificate = pages.map((p) => p.items.map((i) => i.str).join(' ')).join('\n');
    expect(certificate).toContain('Certificate of completion');
    for (const signer of [first!, last!]) {
      const tokens = await store.tokens(signer.eid);
      const used = tokens.find((t) => t.signedAt !== null);
      expect(used).toBeDefined();
      expect(certificate).toContain(used!.eid);
    }
    expect(certificate).not.toMatch(/Token\s+—/);
    // The sealing certificate named, with its fingerprint.
    expect(certificate).toContain('Sealed by');
    expect(certificate.replace(/\s+/g, '')).toContain(sha256Of(identity.certificate));
  }, 180_000);
});

describe('the audit trail of the certificate of completion (per-signer)', () => {
  it('lists every view with IP and user agent, each box accepted, the reported time zone and each signature certificate', async () => {
    const s = flow.service;
    const created = await s.createEtchPacket({
      name: 'Trail',
      files: [
        { id: 'm', filename: 'm.pdf', title: 'Terms', fields: [{ content: 'Agreed.' }, box('a', 300), box('b', 360)] },
        { id: 'n', filename: 'n.pdf', title: 'Annex', fields: [{ content: 'Annex.' }, box('a2', 300)] },
      ],
      signers: [
        {
          id: 'a',
          name: 'Ada Trail',
          email: 'ada@example.com',
          signerType: 'embedded',
          routingOrder: 1,
          fields: [
            { fileId: 'm', fieldId: 'a' },
            { fileId: 'n', fieldId: 'a2' },
          ],
        },
        {
          id: 'b',
          name: 'Bo Trail',
          email: 'bo@example.com',
          signerType: 'embedded',
          routingOrder: 2,
          fields: [{ fileId: 'm', fieldId: 'b' }],
        },
      ],
    });
    const [ada, bo] = created.documentGroup.signers;
    const who = [
      {
        signer: ada!,
        name: 'Ada Trail',
        zone: 'Europe/Paris',
        views: ['10.0.0.1', '10.0.0.2'],
        boxes: [
          [0, 'a'],
          [1, 'a2'],
        ],
      },
      { signer: bo!, name: 'Bo Trail', zone: 'America/New_York', views: ['10.0.0.3'], boxes: [[0, 'b']] },
    ] as const;
    for (const w of who) {
      const url = await s.generateEtchSignURL({ signerEid: w.signer.eid, clientUserId: w.signer.eid });
      for (const [i, ip] of w.views.entries())
        await s.openSigning(tokenOf(url), { ip, userAgent: `viewer-${i}-${w.name.split(' ')[0]}` });
      // A zone that is not an IANA name: a 400 on timeZone, nothing signed.
      await expect(
        s.submitSigning({
          ...tokenOf(url),
          inputs: { signature: { type: 'typed', text: w.name } },
          timeZone: 'Mars/Olympus Mons; drop table',
        }),
      ).rejects.toMatchObject({ status: 400, fields: [{ property: 'timeZone' }] });
      await s.submitSigning({
        ...tokenOf(url),
        inputs: { signature: { type: 'typed', text: w.name } },
        accepted: w.boxes.map(([document, fieldId]) => ({ document, fieldId })),
        timeZone: w.zone,
        ip: '127.0.0.5',
        userAgent: `submit-${w.name.split(' ')[0]}`,
      });
    }
    const docs = await s.groupDocuments(created.documentGroup.eid);
    expect(docs.at(-1)!.filename).toBe(CERTIFICATE_FILENAME);
    const certificate = await squashedText(docs.at(-1)!.pdf);
    for (const w of who) {
      const first = w.name.split(' ')[0]!;
      // Each opening: its own row with the request's IP and user agent.
      for (const [i, ip] of w.views.entries())
        expect(certificate).toMatch(
          new RegExp(`viewed\\d{4}-[\\d\\-T:.]+Z${ip.replace(/\./g, '\\.')}viewer-${i}-${first}`),
        );
      // Each box accepted, then the signing, with the submit's IP, user agent and the reported zone.
      for (const [document, fieldId] of w.boxes)
        expect(certificate).toContain(squash(`accepted (${document === 0 ? 'Terms' : 'Annex'}: ${fieldId})`));
      expect(certificate).toMatch(new RegExp(`signed\\d{4}-[\\d\\-T:.]+Z127\\.0\\.0\\.5submit-${first}${w.zone}`));
    }
    expect(certificate).not.toContain('Mars');
    // Per signer and document, the certificate their signature was made with (openssl's reading of the signed files).
    const signedDocs = docs.slice(0, -1);
    const fingerprints = new Set<string>();
    for (const [d, name] of [
      [0, 'Ada Trail'],
      [0, 'Bo Trail'],
      [1, 'Ada Trail'],
    ] as const) {
      const sigs = extractSignatures(signedDocs[d]!.pdf);
      const hashes: Array<string | undefined> = [];
      for (const sig of sigs)
        hashes.push(await signerCertificateSha256(sig.der, name, setup.tmp.dir).catch(() => undefined));
      const sha = hashes.find((h) => h !== undefined);
      expect(sha, `${name} on document ${d}`).toBeDefined();
      expect(certificate).toContain(sha!);
      fingerprints.add(sha!);
    }
    // A certificate per signer per document: three different ones.
    expect(fingerprints.size).toBe(3);
  }, 240_000);
});
