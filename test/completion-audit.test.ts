/**
 * Issue #31, certificate of completion as an audit trail: the last signer's token id was always
 * "—" (their token is marked signed only when the completing step commits). Read back with pdfjs.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import {
  createPacketWorkflow,
  CERTIFICATE_FILENAME,
  openSqliteStore,
  sha256Of,
  type PacketStore,
  type PacketWorkflow,
} from '../src/packets/index.js';
import { createSigningIdentity, type SigningIdentity } from '../src/signing/index.js';
import { readText } from './helpers/pdf.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

const engine = createEngine();
let tmp: { dir: string; remove: () => Promise<void> };
let store: PacketStore;
let flow: PacketWorkflow;
let identity: SigningIdentity;

beforeAll(async () => {
  tmp = await tempDir('castpress-audit-');
  store = await openSqliteStore({ dir: path.join(tmp.dir, 'packets') });
  flow = createPacketWorkflow({
    store,
    engine,
    identity: (identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'id') })),
    baseUrl: 'http://castpress.test',
    mailDir: path.join(tmp.dir, 'mail'),
    deliver: false,
  });
}, 60_000);
afterAll(async () => {
  await flow?.close();
  await store?.close();
  await engine.close();
  await tmp?.remove();
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
