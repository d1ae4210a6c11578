/**
 * `verifyPdf` is valid only for an intact signature by a certificate
 * that chains to a given trust anchor, was valid at the signing time and may sign documents; each
 * install's local CA has its own names; supplied certificates unfit to sign are refused up front.
 * Certificates are made here with openssl and the local CA; signatures the sealing code would
 * refuse are made by @libpdf/core's own sign(), as another tool would make them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../src/errors/index.js';
import {
  addDocumentTimestamp,
  AppearanceWriter,
  createSigningIdentity,
  embedValidationData,
  LocalCaRevocation,
  LocalTimestampAuthority,
  sealPdf,
  verifyPdf,
  type SigningIdentity,
} from '../src/signing/index.js';
import { makePdf, pdfsig, selfSigned as selfSignedIn, signedByLibpdf, tempDir, tool } from './helpers/signing.js';

let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => {
  ({ dir, remove } = await tempDir());
});
afterAll(async () => remove());

async function ok(args: string[]): Promise<void> {
  const r = await tool('openssl', args, { cwd: dir });
  if (r.code !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
}

/** A self-signed certificate and key made by openssl with the given extensions; its PKCS#12 too. */
async function selfSigned(
  name: string,
  extensions: string[],
  days = 3650,
): Promise<{ key: string; cert: string; p12: string }> {
  return selfSignedIn(dir, name, extensions, days);
}

async function rejection(p: Promise<unknown>): Promise<ValidationError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ValidationError);
  return e as ValidationError;
}

describe('two installs', () => {
  let first: SigningIdentity;
  let second: SigningIdentity;
  let firstRoot: string;
  beforeAll(async () => {
    first = await createSigningIdentity({ dataDir: path.join(dir, 'install-1') });
    second = await createSigningIdentity({ dataDir: path.join(dir, 'install-2') });
    firstRoot = await readFile(first.files!.rootCertificate, 'utf8');
  });

  it('name their CAs apart', () => {
    expect(first.installId).not.toBe(second.installId);
    expect(first.subject).not.toBe(second.subject);
    expect(first.subject).toContain(`OU=install ${first.installId}`);
  });

  it('a document whose content was changed and re-sealed by the other install is not valid for the first root', async () => {
    const original = await sealPdf(await makePdf(1, 'Pay 100 EUR'), first, { name: 'Ada' });
    const good = await verifyPdf(original, { trustAnchors: [firstRoot] });
    expect(good.valid).toBe(true);

    // Seal stripped, content changed, sealed again by the second install.
    const forged = await sealPdf(await makePdf(1, 'Pay 900 EUR'), second, { name: 'Ada' });
    const stripped = await verifyPdf(forged, { trustAnchors: [firstRoot] });
    expect(stripped.valid).toBe(false);
    const [sig] = stripped.signatures;
    expect(sig).toMatchObject({
      valid: false,
      integrity: { intact: true },
      trust: { trusted: false },
      validityPeriod: { ok: true },
      keyUsage: { ok: true },
    });
    expect(sig!.trust.reason).toContain(
      `The chain O=castpress, OU=install ${second.installId}, CN=castpress local signer ${second.installId}`,
    );
    expect(sig!.trust.reason).toMatch(/ends at a root that is not a trust anchor/);
    expect(sig!.problems).toContain(sig!.trust.reason);

    // Kept, with a page-content change appended and sealed over by the second install.
    const changed = await new AppearanceWriter().apply(original, [
      { page: 0, rect: { x: 72, y: 100, width: 200, height: 20 }, input: { type: 'text', text: 'Pay 900 EUR' } },
    ]);
    const resealed = await sealPdf(changed, second, { name: 'Seal' });
    const appended = await verifyPdf(resealed, { trustAnchors: [firstRoot] });
    expect(appended.valid).toBe(false);
    // The first signature is intact and trusted, but the page content changed after it (difference analysis).
    expect(appended.signatures.map((s) => [s.integrity.intact, s.trust.trusted, s.modifications.ok, s.valid])).toEqual([
      [true, true, false, false],
      [true, false, true, false],
    ]);
    expect(appended.signatures[0]!.modifications.revisions.map((r) => r.classification)).toEqual(['other', 'other']);
    expect(appended.problems).toContain('Not valid: Signature of Ada, Signature of Seal');
  });

  it('without trust anchors nothing is valid, and the report says why', async () => {
    const sealed = await sealPdf(await makePdf(), first);
    const result = await verifyPdf(sealed);
    expect(result.valid).toBe(false);
    expect(result.signatures[0]).toMatchObject({
      valid: false,
      integrity: { intact: true },
      trust: { trusted: false },
    });
    expect(result.signatures[0]!.trust.reason).toMatch(/^No trust anchor given/);
    expect(result.problems[0]).toMatch(/^No trust anchor given/);
  });
});

describe('key usage', () => {
  it('a TLS server certificate, or one without a signing key usage, cannot become an identity (PEM or PKCS#12)', async () => {
    const tls = await selfSigned('tls.example', [
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth,clientAuth',
    ]);
    const encipher = await selfSigned('encipher', ['keyUsage=critical,keyEncipherment']);
    for (const c of [tls, encipher]) {
      const pem = await rejection(
        createSigningIdentity({
          privateKey: await readFile(c.key, 'utf8'),
          certificates: await readFile(c.cert, 'utf8'),
        }),
      );
      expect(pem.fields[0]?.property).toBe('identity.certificate');
      const p12 = await rejection(createSigningIdentity({ pkcs12: c.p12, passphrase: 'x' }));
      expect(p12.fields[0]?.property).toBe('identity.certificate');
    }
    const e = await rejection(createSigningIdentity({ pkcs12: tls.p12, passphrase: 'x' }));
    expect(e.message).toMatch(/extended key usage \(serverAuth, clientAuth\) is not for signing documents/);
    const k = await rejection(createSigningIdentity({ pkcs12: encipher.p12, passphrase: 'x' }));
    expect(k.message).toMatch(/key usage \(keyEncipherment\) allows neither digitalSignature nor nonRepudiation/);
    // A signing certificate that also names TLS purposes, or names no purposes at all, is fine.
    const mixed = await selfSigned('mixed', [
      'keyUsage=critical,nonRepudiation',
      'extendedKeyUsage=clientAuth,emailProtection',
    ]);
    await expect(createSigningIdentity({ pkcs12: mixed.p12, passphrase: 'x' })).resolves.toMatchObject({
      kind: 'pkcs12',
    });
  });

  it('a signature made anyway with a TLS certificate is intact and trusted but not valid', async () => {
    const tls = await selfSigned('tls2.example', [
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
    ]);
    const signed = await signedByLibpdf(await makePdf(), tls.p12, new Date());
    const result = await verifyPdf(signed, { trustAnchors: [await readFile(tls.cert, 'utf8')] });
    expect(result.valid).toBe(false);
    expect(result.signatures[0]).toMatchObject({
      valid: false,
      integrity: { intact: true },
      trust: { trusted: true },
      validityPeriod: { ok: true },
      keyUsage: { ok: false, keyUsage: ['digitalSignature', 'keyEncipherment'], extendedKeyUsage: ['serverAuth'] },
    });
    // pdfsig sees an intact signature: only the key-usage check tells it apart.
    const file = path.join(dir, 'tls-signed.pdf');
    await writeFile(file, signed);
    expect((await pdfsig(file)).signatures[0]!.digestMismatch).toBe(false);
  });
});

describe('validity period', () => {
  // An install whose CA was made on 2000-01-01: its signer certificate runs until the end of 2009.
  const MADE = new Date('2000-01-01T00:00:00Z');
  let old: SigningIdentity;
  let root: string;
  let p12: string;
  beforeAll(async () => {
    old = await createSigningIdentity({ dataDir: path.join(dir, 'old'), clock: () => MADE });
    root = await readFile(old.files!.rootCertificate, 'utf8');
    p12 = path.join(dir, 'old.p12');
    await ok([
      'pkcs12',
      '-export',
      '-inkey',
      old.files!.key,
      '-in',
      old.files!.certificate,
      '-passout',
      'pass:x',
      '-out',
      p12,
    ]);
  });

  // /M is the signer's claim. Sealed with the seal's clock pinned inside the validity
  // period (what an install whose clock was set back, or a signer with an old key, writes).
  const IN_2005 = new Date('2005-06-01T00:00:00Z');
  const LATER = new Date('2026-01-01T00:00:00Z');

  it('an expired certificate with a backdated /M is not valid: indeterminate without a trusted time', async () => {
    const signed = await sealPdf(await makePdf(), old, { clock: () => IN_2005 });
    const result = await verifyPdf(signed, { trustAnchors: [root], at: LATER });
    expect(result.valid).toBe(false);
    const [sig] = result.signatures;
    expect(sig).toMatchObject({
      valid: false,
      signingTime: IN_2005,
      integrity: { intact: true },
      validityPeriod: { ok: false, timeSource: 'at', time: LATER },
    });
    expect(sig!.validityPeriod.reason).toMatch(/had expired at 2026-01-01.*indeterminate, no trusted time/);
    expect(sig!.validityPeriod.reason).toMatch(/claimed signing time 2005-06-01T00:00:00.000Z is the signer's word/);
    expect(sig!.validityPeriod.notAfter!.getUTCFullYear()).toBe(2009);
    // Without `at`: judged now, the same verdict.
    const now = await verifyPdf(signed, { trustAnchors: [root] });
    expect(now.signatures[0]!.validityPeriod).toMatchObject({ ok: false, timeSource: 'now' });
  });

  it('a signature timestamp from before the expiry keeps it valid; an untrusted TSA does not', async () => {
    const tsa = await LocalTimestampAuthority.open({ dataDir: path.join(dir, 'old'), clock: () => IN_2005 });
    const signed = await sealPdf(await makePdf(), old, {
      clock: () => IN_2005,
      timestamp: { local: tsa },
      level: 'B-T',
    });
    const result = await verifyPdf(signed, { trustAnchors: [root], at: LATER });
    expect(result.valid, result.problems.join('; ')).toBe(true);
    expect(result.signatures[0]).toMatchObject({
      padesLevel: 'B-T',
      timestamp: { trusted: true, time: IN_2005 },
      validityPeriod: { ok: true, timeSource: 'timestamp', time: IN_2005 },
    });
    // A TSA under a root the caller does not trust proves no time: judged at the validation time.
    const foreign = await createSigningIdentity({ dataDir: path.join(dir, 'foreign-tsa'), clock: () => MADE });
    const foreignTsa = await LocalTimestampAuthority.open({
      dataDir: path.join(dir, 'foreign-tsa'),
      clock: () => IN_2005,
    });
    expect(foreign.installId).toBeDefined();
    const untrusted = await sealPdf(await makePdf(), old, {
      clock: () => IN_2005,
      timestamp: { local: foreignTsa },
      level: 'B-T',
    });
    const judged = await verifyPdf(untrusted, { trustAnchors: [root], at: LATER });
    expect(judged.valid).toBe(false);
    expect(judged.signatures[0]).toMatchObject({
      timestamp: { trusted: false, imprintMatches: true, signatureValid: true },
      validityPeriod: { ok: false, timeSource: 'at' },
    });
    expect(judged.signatures[0]!.timestamp!.untrustedReason).toMatch(/not trusted/);
  });

  it('a document timestamp from before the expiry, after a DSS saying good, keeps a B-B signature valid', async () => {
    const dataDir = path.join(dir, 'old');
    const signed = await sealPdf(await makePdf(), old, { clock: () => IN_2005 });
    const crls = await LocalCaRevocation.open({ dataDir, clock: () => IN_2005 });
    const tsa = await LocalTimestampAuthority.open({ dataDir, clock: () => IN_2005 });
    const withDss = await embedValidationData(signed, { revocation: crls });
    const stamped = await addDocumentTimestamp(withDss, { timestamp: { local: tsa } });
    const result = await verifyPdf(stamped, { trustAnchors: [root], at: LATER });
    expect(result.valid, result.problems.join('; ')).toBe(true);
    expect(result.signatures[0]).toMatchObject({
      validityPeriod: { ok: true, timeSource: 'documentTimestamp', time: IN_2005 },
      revocation: { status: 'good' },
    });
    // The document timestamp alone, without revocation data before it, proves no validity.
    const bare = await addDocumentTimestamp(signed, { timestamp: { local: tsa } });
    const judged = await verifyPdf(bare, { trustAnchors: [root], at: LATER });
    expect(judged.signatures[0]).toMatchObject({ valid: false, validityPeriod: { ok: false, timeSource: 'at' } });
  });

  it('sealPdf refuses a certificate expired by its clock, whatever the signing time claims', async () => {
    const input = await makePdf();
    const e = await rejection(sealPdf(input, old, { signingTime: IN_2005 }));
    expect(e.fields[0]?.property).toBe('identity.certificate');
    expect(e.message).toMatch(/had expired at/);
    expect(e.message).not.toMatch(/2005/);
  });

  it('sealing with a certificate already expired at the signing time is refused, nothing written', async () => {
    const input = await makePdf();
    const copy = Uint8Array.from(input);
    const e = await rejection(sealPdf(input, old, { signingTime: new Date('2015-01-01T00:00:00Z') }));
    expect(e.fields[0]?.property).toBe('identity.certificate');
    expect(e.message).toMatch(/had expired at 2015-01-01T00:00:00.000Z/);
    expect(Buffer.from(input).equals(Buffer.from(copy))).toBe(true);
    // A supplied certificate outside its validity at the identity's clock is refused when made.
    const late = await rejection(
      createSigningIdentity({ pkcs12: p12, passphrase: 'x', clock: () => new Date('2015-01-01T00:00:00Z') }),
    );
    expect(late.fields[0]?.property).toBe('identity.certificate');
  });

  it('a signature made anyway by an expired certificate is intact but not valid', async () => {
    const signed = await signedByLibpdf(await makePdf(), p12, new Date('2015-01-01T00:00:00Z'));
    const result = await verifyPdf(signed, { trustAnchors: [root] });
    expect(result.valid).toBe(false);
    const [sig] = result.signatures;
    expect(sig).toMatchObject({
      valid: false,
      integrity: { intact: true },
      keyUsage: { ok: true },
      validityPeriod: { ok: false, timeSource: 'now' },
    });
    // Judged now (/M is only a claim, and here one after the expiry too).
    expect(sig!.validityPeriod.reason).toMatch(/had expired at .*valid until 2009/);
  });
});
