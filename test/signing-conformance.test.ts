/**
 * PAdES baseline conformance of a seal (no CMS signing-time attribute:
 * ETSI EN 319 142-1 puts the time in the signature dictionary's /M; ESS signing-certificate-v2
 * kept), checked with `openssl cms -cmsout -print`; and signatures of a file qpdf rewrote are
 * listed by verifyPdf, saying they no longer cover the file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigningIdentity, sealPdf, verifyPdf, type SigningIdentity } from '../src/signing/index.js';
import { extractSignatures, makePdf, opensslCmsVerify, tempDir, tool } from './helpers/signing.js';

let dir: string;
let remove: () => Promise<void>;
let identity: SigningIdentity;
let root: string;
let sealed: Uint8Array;
const SIGNED_AT = new Date('2026-11-27T10:20:30Z');

beforeAll(async () => {
  ({ dir, remove } = await tempDir());
  identity = await createSigningIdentity({
    dataDir: path.join(dir, 'ca'),
    clock: () => new Date('2026-01-01T00:00:00Z'),
  });
  root = await readFile(identity.files!.rootCertificate, 'utf8');
  sealed = await sealPdf(await makePdf(), identity, { signingTime: SIGNED_AT });
});
afterAll(async () => remove());

describe('PAdES baseline conformance', () => {
  it('the CMS has no signing-time attribute, keeps signing-certificate-v2, and /M carries the pinned time', async () => {
    const [sig] = extractSignatures(sealed);
    const der = path.join(dir, 'seal.der');
    await writeFile(der, sig!.der);
    const printed = await tool('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', der]);
    expect(printed.code, printed.stderr).toBe(0);
    const signedAttrs = printed.stdout.slice(
      printed.stdout.indexOf('signedAttrs:'),
      printed.stdout.indexOf('signatureAlgorithm:', printed.stdout.indexOf('signedAttrs:')),
    );
    // openssl prints each signed attribute as "object: <name> (<oid>)":
    //   contentType (1.2.840.113549.1.9.3), undefined (1.2.840.113549.1.9.52),
    //   messageDigest (1.2.840.113549.1.9.4), id-smime-aa-signingCertificateV2 (1.2.840.113549.1.9.16.2.47)
    const objects = [...signedAttrs.matchAll(/object: .*\((\S+)\)/g)].map((m) => m[1]);
    expect(objects).toEqual([
      '1.2.840.113549.1.9.3',
      '1.2.840.113549.1.9.52',
      '1.2.840.113549.1.9.4',
      '1.2.840.113549.1.9.16.2.47',
    ]);
    expect(printed.stdout).not.toContain('signingTime');
    // The signature is over exactly these attributes: openssl verifies it against the root.
    const rootFile = identity.files!.rootCertificate;
    const v = await opensslCmsVerify(sig!, rootFile, dir);
    expect(v.code, v.stderr).toBe(0);
    expect(Buffer.from(sealed).toString('latin1')).toMatch(/\/M \(D:20261127102030Z?'?/);
    const result = await verifyPdf(sealed, { trustAnchors: [root] });
    expect(result.valid).toBe(true);
    expect(result.signatures[0]).toMatchObject({
      signingTime: SIGNED_AT,
      signingCertificateV2: true,
      // /M is reported as the signing time, but only a claim: the certificate is judged now.
      validityPeriod: { timeSource: 'now' },
    });
  });
});

describe('files rewritten by qpdf', () => {
  for (const args of [[], ['--object-streams=generate']]) {
    it(`verifyPdf lists the signature of a file qpdf ${args.join(' ') || 'rewrote'}, and says it no longer covers the file`, async () => {
      const input = path.join(dir, 'sealed.pdf');
      const output = path.join(dir, `rewritten${args.length}.pdf`);
      await writeFile(input, sealed);
      const q = await tool('qpdf', [...args, input, output]);
      expect(q.code, q.stderr).toBe(0);
      const result = await verifyPdf(new Uint8Array(await readFile(output)), { trustAnchors: [root] });
      expect(result.signatures).toHaveLength(1);
      const [sig] = result.signatures;
      expect(sig).toMatchObject({
        fieldName: 'Signature',
        valid: false,
        coversWholeDocument: false,
        integrity: { intact: false },
      });
      expect(sig!.problems[0]).toMatch(/^The file was rewritten after signing/);
      expect(sig!.signer?.commonName).toMatch(/^castpress local signer /);
      expect(result.valid).toBe(false);
    });
  }
});
