import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidPdfError, SigningError, ValidationError } from '../src/errors/index.js';
import {
  AppearanceWriter,
  createSigningIdentity,
  sealPdf,
  sealRevision,
  signInTurn,
  verifyPdf,
  type SigningIdentity,
} from '../src/signing/index.js';
import {
  extractSignatures,
  makePdf,
  mutoolVerify,
  nssDbTrusting,
  opensslCmsVerify,
  pdfsig,
  tempDir,
  tool,
} from './helpers/signing.js';

// Certificates are made "now" so validators checking validity against the current time agree;
// signing times are pinned a little later than their notBefore (one day before now).
const SIGNED_AT = new Date(Date.now() - 3_600_000);
SIGNED_AT.setUTCMilliseconds(0);

let dir: string;
let remove: () => Promise<void>;
let identity: SigningIdentity;
let rootPem: string;

beforeAll(async () => {
  ({ dir, remove } = await tempDir());
  identity = await createSigningIdentity({ dataDir: path.join(dir, 'data') });
  rootPem = identity.files!.rootCertificate;
});
afterAll(async () => remove());

async function save(name: string, bytes: Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

function isPrefix(prefix: Uint8Array, of: Uint8Array): boolean {
  return of.length > prefix.length && Buffer.from(of.subarray(0, prefix.length)).equals(Buffer.from(prefix));
}

describe('sealPdf', () => {
  it('appends a PAdES B-B signature over the whole document that pdfsig, mutool and openssl accept', async () => {
    const input = await makePdf(2);
    const sealed = await sealPdf(input, identity, {
      reason: 'Completed',
      location: 'Lisbon',
      name: 'Ada Lovelace',
      signingTime: SIGNED_AT,
    });
    expect(isPrefix(input, sealed)).toBe(true);
    const file = await save('sealed.pdf', sealed);

    const ps = await pdfsig(file);
    expect(ps.signatures).toHaveLength(1);
    expect(ps.signatures[0]!.valid).toBe(true);
    expect(ps.signatures[0]!.total).toBe(true);
    expect(ps.text).toContain('Signature Type: ETSI.CAdES.detached');
    expect(ps.text).toContain('Signature Field Name: Signature of Ada Lovelace');
    expect(await mutoolVerify(file)).toContain('The document is unchanged since signing');

    const [sig] = extractSignatures(sealed);
    expect(sig!.byteRange[0]).toBe(0);
    expect(sig!.byteRange[2] + sig!.byteRange[3]).toBe(sealed.length);
    const cms = await opensslCmsVerify(sig!, rootPem, dir);
    expect(cms.code, cms.stderr).toBe(0);
    expect(cms.stderr).toContain('Verification successful');
    // PAdES baseline: signing-certificate-v2 among the signed attributes, no signing time claimed inside the CMS is wrong.
    const dump = await tool('openssl', [
      'cms',
      '-cmsout',
      '-print',
      '-inform',
      'DER',
      '-in',
      path.join(dir, 'sig.der'),
    ]);
    expect(dump.stdout).toContain('id-smime-aa-signingCertificateV2');
    expect(dump.stdout).toContain('messageDigest');

    const result = await verifyPdf(sealed, { trustAnchors: [await readFile(rootPem, 'utf8')] });
    expect(result.valid).toBe(true);
    expect(result.wholeDocumentSigned).toBe(true);
    const [v] = result.signatures;
    expect(v).toMatchObject({
      fieldName: 'Signature of Ada Lovelace',
      reason: 'Completed',
      location: 'Lisbon',
      subFilter: 'ETSI.CAdES.detached',
      coversWholeDocument: true,
      digestMatches: true,
      signatureValid: true,
      signingCertificateV2: true,
      valid: true,
      problems: [],
    });
    expect(v!.signer?.commonName).toBe(`castpress local signer ${identity.installId}`);
    expect(v!.signingTime?.toISOString()).toBe(SIGNED_AT.toISOString());
    expect(v!.coveredRanges).toEqual([
      [0, sig!.byteRange[1]],
      [sig!.byteRange[2], sealed.length],
    ]);
    const id = identity.installId!;
    expect(v!.chain).toEqual({
      subjects: [
        `O=castpress, OU=install ${id}, CN=castpress local signer ${id}`,
        `O=castpress, OU=install ${id}, CN=castpress local root CA ${id} (self-signed)`,
      ],
      trusted: true,
    });
    expect(v).toMatchObject({
      integrity: { intact: true },
      trust: { trusted: true, anchor: v!.chain.subjects[1] },
      // /M is the signer's claim: without a timestamp the certificate is judged at the validation time.
      validityPeriod: { ok: true, timeSource: 'now' },
      keyUsage: { ok: true },
    });
    expect(v!.keyUsage.keyUsage).toEqual(['digitalSignature', 'nonRepudiation']);
    // Without trust anchors the signature is intact but not valid: nothing says who made it.
    const untrusted = await verifyPdf(sealed);
    expect(untrusted.valid).toBe(false);
    expect(untrusted.signatures[0]).toMatchObject({
      valid: false,
      integrity: { intact: true },
      trust: { trusted: false },
      validityPeriod: { ok: true },
      keyUsage: { ok: true },
    });
    expect(untrusted.signatures[0]!.trust.reason).toMatch(/No trust anchor given/);
    expect(untrusted.problems[0]).toMatch(/No trust anchor given/);
  });

  it('pdfsig with the generated root in its NSS database reports the certificate trusted', async () => {
    const sealed = await sealPdf(await makePdf(), identity, { signingTime: SIGNED_AT });
    const file = await save('trusted.pdf', sealed);
    const untrusted = await pdfsig(file);
    expect(untrusted.signatures[0]!.trusted).toBe(false);
    const db = await nssDbTrusting(dir, rootPem);
    const trusted = await pdfsig(file, db);
    expect(trusted.signatures[0]!.valid).toBe(true);
    expect(trusted.signatures[0]!.trusted, trusted.text).toBe(true);
  });

  it('signs once per signer, each signature keeping the earlier ones valid, the last covering the whole file', async () => {
    const input = await makePdf(1);
    const other = await createSigningIdentity({ dataDir: path.join(dir, 'second'), commonName: 'Second Signer' });
    const signed = await signInTurn(input, [
      { identity, name: 'First', reason: 'Signer 1', signingTime: SIGNED_AT },
      { identity: other, name: 'Second', reason: 'Signer 2', signingTime: SIGNED_AT },
      { identity, reason: 'Seal', signingTime: SIGNED_AT },
    ]);
    expect(isPrefix(input, signed)).toBe(true);
    const file = await save('three.pdf', signed);

    const ps = await pdfsig(file);
    expect(ps.signatures).toHaveLength(3);
    // Poppler 22.12 may report a later signature by an already-seen certificate as "Unknown issue";
    // openssl below checks every one of them regardless.
    expect(ps.signatures[0]!.valid).toBe(true);
    expect(ps.signatures[1]!.valid).toBe(true);
    expect(ps.signatures.map((s) => s.digestMismatch)).toEqual([false, false, false]);
    expect(ps.signatures.map((s) => s.total)).toEqual([false, false, true]);
    const mu = await mutoolVerify(file);
    expect(mu.match(/The signature is valid but there have been edits since signing/g)?.length).toBe(2);
    expect(mu).toContain('The document is unchanged since signing');

    const sigs = extractSignatures(signed);
    expect(sigs).toHaveLength(3);
    const caFile = await save(
      'both-roots.pem',
      Buffer.concat([await readFile(rootPem), await readFile(other.files!.rootCertificate)]),
    );
    for (const [i, sig] of sigs.entries()) {
      const r = await opensslCmsVerify(sig, caFile, dir, `turn${i}`);
      expect(r.code, r.stderr).toBe(0);
    }

    // Trusting only the first CA: the second signer's signature is intact but not valid.
    const result = await verifyPdf(signed, { trustAnchors: [await readFile(rootPem, 'utf8')] });
    expect(result.valid).toBe(false);
    expect(
      result.signatures.map((s) => [
        s.fieldName,
        s.reason,
        s.integrity.intact,
        s.valid,
        s.coversWholeDocument,
        s.chain.trusted,
      ]),
    ).toEqual([
      ['Signature of First', 'Signer 1', true, true, false, true],
      ['Signature of Second', 'Signer 2', true, false, false, false],
      ['Signature', 'Seal', true, true, true, true],
    ]);
    expect(result.signatures[1]!.signer?.commonName).toBe('Second Signer');
    expect(result.signatures[1]!.trust.reason).toMatch(/ends at a root that is not a trust anchor/);
    const both = await verifyPdf(signed, {
      trustAnchors: [await readFile(rootPem, 'utf8'), await readFile(other.files!.rootCertificate, 'utf8')],
    });
    expect(both.valid).toBe(true);
  });

  it('a one-byte change anywhere makes verifyPdf invalid and pdfsig report a digest mismatch', async () => {
    const sealed = await sealPdf(await makePdf(), identity, { signingTime: SIGNED_AT });
    const [sig] = extractSignatures(sealed);
    const [, len1, start2] = sig!.byteRange;
    const gapHex = len1 + 10; // a hex digit of the signature value itself
    // Bytes of the document body and of the update after the signature value: a digest mismatch.
    // A byte of the signature dictionary just before /Contents: pdfsig cannot read it at all.
    const mismatches = [20, Math.floor(len1 / 2), start2 + 3, sealed.length - 10];
    const unreadable = len1 - 5;
    for (const at of [...mismatches, unreadable, gapHex]) {
      const bad = Uint8Array.from(sealed);
      bad[at] = bad[at] === 0x30 ? 0x31 : 0x30; // '0' <-> '1' keeps hex digits hex
      const result = await verifyPdf(bad);
      expect(result.valid, `byte ${at}`).toBe(false);
      const ps = await pdfsig(await save(`tampered-${at}.pdf`, bad));
      expect(ps.text, `byte ${at}`).not.toContain('Signature is Valid');
      if (mismatches.includes(at)) {
        expect(result.signatures[0]?.digestMatches, `byte ${at}`).toBe(false);
        expect(result.signatures[0]?.problems, `byte ${at}`).toContain(
          'Digest mismatch: the covered bytes changed after signing',
        );
        expect(ps.text, `byte ${at}`).toContain('Digest Mismatch');
      } else if (at === gapHex) {
        expect(result.signatures[0]?.signatureValid).toBe(false);
      }
    }
  });

  it('leaves an existing unsigned signature field of a real form alone and signs a linearized file as an update', async () => {
    const form = new Uint8Array(
      await readFile(path.join(import.meta.dirname, 'fixtures/signing/pdflib_sample_form_signature.pdf')),
    );
    const sealed = await sealPdf(form, identity, { signingTime: SIGNED_AT });
    expect(isPrefix(form, sealed)).toBe(true);
    const ps = await pdfsig(await save('form.pdf', sealed));
    expect(ps.text).toContain('Signature Field Name: EMPLOYEE SIGNATURE');
    expect(ps.text).toContain('The signature form field is not signed.');
    expect(ps.signatures.filter((s) => s.valid && s.total)).toHaveLength(1);

    const plain = await save('plain.pdf', await makePdf(3));
    const lin = path.join(dir, 'linearized.pdf');
    const q = await tool('qpdf', ['--linearize', plain, lin]);
    expect(q.code, q.stderr).toBe(0);
    const linBytes = new Uint8Array(await readFile(lin));
    expect((await tool('qpdf', ['--check-linearization', lin])).stdout).toContain('no linearization errors');
    const linSealed = await sealPdf(linBytes, identity, { signingTime: SIGNED_AT });
    expect(isPrefix(linBytes, linSealed)).toBe(true);
    const lps = await pdfsig(await save('linearized-sealed.pdf', linSealed));
    expect(lps.signatures[0]!.valid && lps.signatures[0]!.total).toBe(true);
    expect((await tool('qpdf', ['--check', path.join(dir, 'linearized-sealed.pdf')])).code).toBe(0);
  });

  it('same input, identity and signing time: the same bytes (a file without /ID gets one from its content)', async () => {
    const input = await makePdf();
    expect(Buffer.from(input).toString('latin1')).not.toContain('/ID');
    const a = await sealPdf(input, identity, { signingTime: SIGNED_AT, reason: 'r' });
    const b = await sealPdf(Uint8Array.from(input), identity, { signingTime: SIGNED_AT, reason: 'r' });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const c = await sealPdf(input, identity, { signingTime: new Date(SIGNED_AT.getTime() + 1000), reason: 'r' });
    expect(Buffer.from(a).equals(Buffer.from(c))).toBe(false);
    expect((await pdfsig(await save('with-id.pdf', a))).signatures[0]!.valid).toBe(true);
  });

  it("one writer and one CMS: sealPdf and a signer's revision give the same bytes for the same request, no signing-time in the CMS", async () => {
    const input = await makePdf(2);
    const request = { name: 'Ada Lovelace', reason: 'Approve (v2)', location: 'Zürich', signingTime: SIGNED_AT };
    const sealed = await sealPdf(input, identity, request);
    const revision = await sealRevision(input, identity, request);
    expect(isPrefix(input, sealed)).toBe(true);
    expect(Buffer.from(revision).equals(Buffer.from(sealed))).toBe(true);
    // Both read by the validators as the one signature they are.
    const file = await save('one-writer.pdf', sealed);
    const ps = await pdfsig(file);
    expect(ps.signatures.map((s) => [s.valid, s.total])).toEqual([[true, true]]);
    expect(await mutoolVerify(file)).toContain('The document is unchanged since signing');
    const [sig] = extractSignatures(sealed);
    const cms = await opensslCmsVerify(sig!, rootPem, dir, 'one-writer');
    expect(cms.code, cms.stderr).toBe(0);
    const dump = await tool('openssl', [
      'cms',
      '-cmsout',
      '-print',
      '-inform',
      'DER',
      '-in',
      path.join(dir, 'one-writer.der'),
    ]);
    expect(dump.stdout).toContain('id-smime-aa-signingCertificateV2');
    // PAdES baseline: the time is /M only, never a signing-time attribute in the CMS.
    expect(dump.stdout).not.toContain('signingTime');
  });

  it('reasons and locations keep parentheses, backslashes, line breaks and any script', async () => {
    const reason = 'Approve (v2) \\ done';
    const location = 'Zürich – 東京\nline 2 (x)';
    const sealed = await sealPdf(await makePdf(), identity, { reason, location, signingTime: SIGNED_AT });
    const [v] = (await verifyPdf(sealed, { trustAnchors: [await readFile(rootPem, 'utf8')] })).signatures;
    expect([v!.reason, v!.location]).toEqual([reason, location]);
    // Read independently: the literal string as written, escaped once.
    expect(Buffer.from(sealed).toString('latin1')).toContain('/Reason (Approve \\(v2\\) \\\\ done)');
    expect((await pdfsig(await save('reason.pdf', sealed))).signatures[0]!.valid).toBe(true);
  });

  it('bad input: typed errors, nothing written', async () => {
    const input = await makePdf();
    await expect(sealPdf(new TextEncoder().encode('not a pdf'), identity)).rejects.toBeInstanceOf(InvalidPdfError);
    const e = await sealPdf(input, identity, { reason: 5 } as never).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).fields[0]?.property).toBe('reason');
    await expect(sealPdf(input, { ...identity })).rejects.toBeInstanceOf(ValidationError);
    await expect(verifyPdf(new TextEncoder().encode('garbage'))).rejects.toBeInstanceOf(InvalidPdfError);
    // Encrypted documents (owner password only) are refused: libpdf would add an update after the seal.
    const plain = await save('to-encrypt.pdf', input);
    const encrypted = path.join(dir, 'encrypted.pdf');
    expect((await tool('qpdf', ['--encrypt', '', 'owner', '256', '--', plain, encrypted])).code).toBe(0);
    const encBytes = new Uint8Array(await readFile(encrypted));
    const enc = await sealPdf(encBytes, identity).catch((x: unknown) => x);
    expect(enc).toBeInstanceOf(SigningError);
    expect((enc as SigningError).message).toMatch(/Encrypted/);
    const marks = await new AppearanceWriter()
      .apply(encBytes, [{ page: 0, rect: { x: 10, y: 10, width: 50, height: 20 }, input: { type: 'text', text: 'x' } }])
      .catch((x: unknown) => x);
    expect(marks).toBeInstanceOf(SigningError);
    const unsigned = await verifyPdf(input);
    expect(unsigned).toEqual({
      signatures: [],
      valid: false,
      wholeDocumentSigned: false,
      problems: ['The document has no signatures'],
    });
  });
});
