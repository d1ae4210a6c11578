/**
 * Per-signer signing without per-signature setup: a `SignerCertificateIssuer` reads the
 * local CA once (root certificate parsed, key imported) and then issues one certificate per
 * signature with a fresh key. Shown by taking the root key away after opening it: the open issuer
 * still issues (nothing is read per signature), while a call that opens the CA again
 * (`signerIdentityFor`) falls back to the operator's own certificate. Each issued certificate
 * names its signer, chains to the root, has a key of its own, and signs a W-9 revision that
 * verifies with the root as anchor. Closed, it issues nothing; a PKCS#12 identity cannot open one.
 */
import { X509Certificate } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAsSigner, type PlannedField } from '../src/packets/index.js';
import type { Signer } from '../src/packets/request/request.js';
import {
  AppearanceWriter,
  createSigningIdentity,
  SignerCertificateIssuer,
  signerIdentityFor,
  verifyPdf,
  type SigningIdentity,
} from '../src/signing/index.js';
import { w9Pdf } from './fixtures/fill/corpus.js';
import { selfSigned, tempDir } from './helpers/signing.js';

const AT = new Date('2026-03-02T09:00:00Z');
let tmp: { dir: string; remove: () => Promise<void> };
let identity: SigningIdentity;
let rootPem: string;

beforeAll(async () => {
  tmp = await tempDir('castpress-revision-issuer-');
  identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'data'), clock: () => AT });
  rootPem = await readFile(identity.files!.rootCertificate, 'utf8');
});
afterAll(async () => {
  await tmp.remove();
});

describe('SignerCertificateIssuer', () => {
  it('issues per signature from what it read once, each certificate its own key, naming its signer', async () => {
    const issuer = await SignerCertificateIssuer.open(identity);
    expect(issuer).toBeDefined();
    // The root key is gone from the disk (e.g. moved offline): an open issuer never reads it again.
    await rename(identity.files!.rootKey, `${identity.files!.rootKey}.offline`);
    try {
      expect(await signerIdentityFor(identity, { name: 'Ada Lovelace', now: AT })).toBe(identity);
      const ada = await issuer!.issue({ name: 'Ada Lovelace', email: 'ada@example.com', now: AT });
      const bob = await issuer!.issue({ name: 'Bob Babbage', now: AT });
      expect(issuer!.issued).toBe(2);
      const root = new X509Certificate(rootPem);
      const certs = [ada, bob].map((i) => new X509Certificate(i.certificate));
      expect(certs.map((c) => c.subject.split('\n').at(-1))).toEqual(['CN=Ada Lovelace', 'CN=Bob Babbage']);
      expect(certs[0]!.subjectAltName).toBe('email:ada@example.com');
      for (const c of certs) {
        expect(c.verify(root.publicKey)).toBe(true);
        expect(c.checkIssued(root)).toBe(true);
      }
      const keys = certs.map((c) => c.publicKey.export({ type: 'spki', format: 'der' }).toString('hex'));
      expect(new Set([...keys, root.publicKey.export({ type: 'spki', format: 'der' }).toString('hex')]).size).toBe(3);

      // A signer's revision through signAsSigner with the open issuer: valid with the root as anchor.
      const field: PlannedField = {
        fileId: 'w9',
        fieldId: 'sig',
        type: 'signature',
        pageNum: 0,
        rect: { x: 60, y: 560, width: 220, height: 24 },
        source: 'request',
        signerId: 'cy',
      };
      const signer = { id: 'cy', name: 'Cy Ritter', email: 'cy@example.com', routingOrder: 1 } as unknown as Signer;
      const signed = await signAsSigner(
        w9Pdf(),
        { signature: { type: 'typed', text: 'Cy Ritter' }, signedAt: AT },
        { writer: new AppearanceWriter(), signer, fields: [field] },
        { identity, packetEid: 'pkt', signerEid: 'sgn', issuer: issuer! },
      );
      expect(issuer!.issued).toBe(3);
      const report = await verifyPdf(signed, { trustAnchors: [rootPem] });
      expect(report.valid).toBe(true);
      expect(report.signatures.map((s) => s.signer?.commonName)).toEqual(['Cy Ritter']);
      expect(report.signatures[0]!.reason).toBe('Signed by Cy Ritter <cy@example.com> as signer sgn of packet pkt');

      issuer!.close();
      await expect(issuer!.issue({ name: 'Dee', now: AT })).rejects.toThrow(/closed/);
    } finally {
      await rename(`${identity.files!.rootKey}.offline`, identity.files!.rootKey);
    }
  });

  it('cannot be opened on an identity that is not a local CA (a PKCS#12 certificate)', async () => {
    const { p12 } = await selfSigned(tmp.dir, 'Operator', ['keyUsage=critical,digitalSignature']);
    const own = await createSigningIdentity({ pkcs12: new Uint8Array(await readFile(p12)), passphrase: 'x' });
    expect(await SignerCertificateIssuer.open(own)).toBeUndefined();
  });
});
