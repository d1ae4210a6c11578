import { readFile, stat, writeFile } from 'node:fs/promises';
import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SigningError, ValidationError } from '../src/errors/index.js';
import { createSigningIdentity, sealPdf, verifyPdf } from '../src/signing/index.js';
import { extractSignatures, makePdf, opensslCmsVerify, tempDir, tool } from './helpers/signing.js';
import { expectLinearTime } from './helpers/scaling.js';

const CLOCK = () => new Date('2026-06-01T09:00:00Z');

let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => {
  ({ dir, remove } = await tempDir());
});
afterAll(async () => remove());

async function rejectsWith<E extends Error>(p: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(type);
    return e as E;
  }
  throw new Error('expected a rejection');
}

describe('generated local CA', () => {
  it('is generated on first use, kept in the data folder with private keys 0600, and reused', async () => {
    const dataDir = path.join(dir, 'data');
    const warnings: string[] = [];
    const first = await createSigningIdentity({ dataDir, clock: CLOCK, logger: { warn: (m) => warnings.push(m) } });
    expect(first.kind).toBe('generated');
    expect(first.selfSigned).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/self-signed/);
    expect(first.warnings).toEqual(warnings);
    const files = first.files!;
    for (const key of [files.key, files.rootKey]) expect((await stat(key)).mode & 0o777).toBe(0o600);
    expect((await stat(files.dir)).mode & 0o077).toBe(0);

    const leaf = new X509Certificate(Buffer.from(first.certificate));
    const root = new X509Certificate(await readFile(files.rootCertificate));
    // Both names carry this install's random id.
    expect(first.installId).toMatch(/^[0-9a-f]{16}$/);
    expect(leaf.subject.split('\n')).toEqual([
      'O=castpress',
      `OU=install ${first.installId}`,
      `CN=castpress local signer ${first.installId}`,
    ]);
    expect(root.subject.split('\n')).toEqual([
      'O=castpress',
      `OU=install ${first.installId}`,
      `CN=castpress local root CA ${first.installId} (self-signed)`,
    ]);
    expect((await readFile(files.installId, 'utf8')).trim()).toBe(first.installId);
    expect(leaf.checkIssued(root) && leaf.verify(root.publicKey)).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(root.ca).toBe(true);
    expect(new Date(leaf.validFrom).getTime()).toBeLessThan(CLOCK().getTime());
    expect(first.chain.map((c) => Buffer.from(c).equals(root.raw))).toEqual([true]);
    // OpenSSL agrees the chain is sound.
    const check = await tool('openssl', [
      'verify',
      '-CAfile',
      files.rootCertificate,
      '-purpose',
      'any',
      files.certificate,
    ]);
    expect(check.stdout).toContain(': OK');

    const again = await createSigningIdentity({ dataDir, clock: () => new Date('2030-01-01T00:00:00Z') });
    expect(Buffer.from(again.certificate).equals(Buffer.from(first.certificate))).toBe(true);
    expect(again.installId).toBe(first.installId);
  });

  it('two identities created at once on a fresh folder end up with the same certificate', async () => {
    const dataDir = path.join(dir, 'race');
    const [a, b] = await Promise.all([
      createSigningIdentity({ dataDir, clock: CLOCK }),
      createSigningIdentity({ dataDir, clock: CLOCK }),
    ]);
    expect(Buffer.from(a.certificate).equals(Buffer.from(b.certificate))).toBe(true);
  });

  it('damaged key files are a SigningError naming dataDir', async () => {
    const dataDir = path.join(dir, 'damaged');
    const id = await createSigningIdentity({ dataDir, clock: CLOCK });
    await writeFile(id.files!.key, 'not a key');
    const e = await rejectsWith(createSigningIdentity({ dataDir }), SigningError);
    expect(e.fields[0]?.property).toBe('dataDir');
  });
});

describe('PKCS#12 and PEM identities', () => {
  let p12: string;
  let keyPem: string;
  let certPem: string;
  let encryptedKeyPem: string;
  beforeAll(async () => {
    keyPem = path.join(dir, 'user.key');
    certPem = path.join(dir, 'user.crt');
    p12 = path.join(dir, 'user.p12');
    encryptedKeyPem = path.join(dir, 'user-enc.key');
    const req = await tool('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyPem,
      '-out',
      certPem,
      '-days',
      '3650',
      '-subj',
      '/CN=Test User/O=Example',
      '-addext',
      'keyUsage=critical,digitalSignature,nonRepudiation',
    ]);
    expect(req.code, req.stderr).toBe(0);
    const exp = await tool('openssl', [
      'pkcs12',
      '-export',
      '-inkey',
      keyPem,
      '-in',
      certPem,
      '-passout',
      'pass:s3cret',
      '-out',
      p12,
    ]);
    expect(exp.code, exp.stderr).toBe(0);
    const enc = await tool('openssl', [
      'pkey',
      '-in',
      keyPem,
      '-aes256',
      '-passout',
      'pass:keypass',
      '-out',
      encryptedKeyPem,
    ]);
    expect(enc.code, enc.stderr).toBe(0);
  });

  it('opens an OpenSSL 3 PKCS#12 from a path and from bytes, and signs with it', async () => {
    const fromPath = await createSigningIdentity({ pkcs12: p12, passphrase: 's3cret' });
    const fromBytes = await createSigningIdentity({
      pkcs12: new Uint8Array(await readFile(p12)),
      passphrase: 's3cret',
    });
    expect(fromPath.kind).toBe('pkcs12');
    expect(fromPath.selfSigned).toBe(false);
    expect(fromPath.subject).toContain('CN=Test User');
    expect(Buffer.from(fromBytes.certificate).equals(Buffer.from(fromPath.certificate))).toBe(true);
    const signed = await sealPdf(await makePdf(), fromBytes, { signingTime: new Date() });
    const result = await verifyPdf(signed, { trustAnchors: [await readFile(certPem, 'utf8')] });
    expect(result.valid).toBe(true);
    expect(result.signatures[0]?.signer?.commonName).toBe('Test User');
    expect(result.signatures[0]?.chain.trusted).toBe(true);
  });

  it('a wrong passphrase, a missing file and garbage bytes are ValidationErrors', async () => {
    const wrong = await rejectsWith(createSigningIdentity({ pkcs12: p12, passphrase: 'nope' }), ValidationError);
    expect(wrong.fields[0]?.property).toBe('passphrase');
    expect(wrong.status).toBe(400);
    const missing = await rejectsWith(
      createSigningIdentity({ pkcs12: path.join(dir, 'absent.p12'), passphrase: 'x' }),
      ValidationError,
    );
    expect(missing.fields[0]?.property).toBe('pkcs12');
    await rejectsWith(createSigningIdentity({ pkcs12: new Uint8Array([1, 2, 3]), passphrase: 'x' }), ValidationError);
    const shape = await rejectsWith(createSigningIdentity({ pkcs12: p12 } as never), ValidationError);
    expect(shape.fields.map((f) => f.property)).toEqual(['passphrase']);
  });

  it('takes a PEM key and chain, encrypted keys with their passphrase', async () => {
    const certs = await readFile(certPem, 'utf8');
    const plain = await createSigningIdentity({ privateKey: await readFile(keyPem, 'utf8'), certificates: certs });
    expect(plain.kind).toBe('pem');
    const enc = await createSigningIdentity({
      privateKey: await readFile(encryptedKeyPem, 'utf8'),
      passphrase: 'keypass',
      certificates: [certs],
    });
    expect(Buffer.from(enc.certificate).equals(Buffer.from(plain.certificate))).toBe(true);
    const signed = await sealPdf(await makePdf(), enc);
    expect((await verifyPdf(signed, { trustAnchors: [certs] })).valid).toBe(true);

    const wrong = await rejectsWith(
      createSigningIdentity({
        privateKey: await readFile(encryptedKeyPem, 'utf8'),
        passphrase: 'bad',
        certificates: certs,
      }),
      ValidationError,
    );
    expect(wrong.fields[0]?.property).toBe('passphrase');
    const local = await createSigningIdentity({ dataDir: path.join(dir, 'data'), clock: CLOCK });
    const mismatch = await rejectsWith(
      createSigningIdentity({
        privateKey: await readFile(keyPem, 'utf8'),
        certificates: await readFile(local.files!.certificate, 'utf8'),
      }),
      ValidationError,
    );
    expect(mismatch.fields[0]?.property).toBe('certificates');
    const noCert = await rejectsWith(
      createSigningIdentity({ privateKey: await readFile(keyPem, 'utf8'), certificates: 'hello' }),
      ValidationError,
    );
    expect(noCert.fields[0]?.property).toBe('certificates');
  });

  it('unclosed BEGIN CERTIFICATE lines are read in linear time (a megabyte took 20 s)', async () => {
    const junk = (n: number) => '-----BEGIN CERTIFICATE-----\n'.repeat(n);
    const certs = await readFile(certPem, 'utf8');
    const privateKey = await readFile(keyPem, 'utf8');
    // 8x the lines cost under 22.6x (quadratic: 64x).
    const identity = await expectLinearTime(
      'certificates',
      (n) => createSigningIdentity({ privateKey, certificates: certs + junk(n) }),
      1_500,
      12_000,
    );
    expect(identity.kind).toBe('pem');
    const pdf = await makePdf();
    // Sizes past the CPU caches at both ends (42 KB fit in them, 336 KB did not: x28 on a linear scan).
    const bad = await expectLinearTime(
      'trustAnchors',
      (n) => rejectsWith(verifyPdf(pdf, { trustAnchors: [junk(n)] }), ValidationError),
      12_000,
      96_000,
    );
    expect(bad.fields[0]?.property).toBe('trustAnchors[0]');
  });

  it('an ECDSA P-256 key signs as well (openssl and pdfsig agree)', async () => {
    const key = path.join(dir, 'ec.key');
    const crt = path.join(dir, 'ec.crt');
    const req = await tool('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      key,
      '-out',
      crt,
      '-days',
      '30',
      '-subj',
      '/CN=EC Signer',
    ]);
    expect(req.code, req.stderr).toBe(0);
    const ec = await createSigningIdentity({
      privateKey: await readFile(key, 'utf8'),
      certificates: await readFile(crt, 'utf8'),
    });
    const signed = await sealPdf(await makePdf(), ec);
    const result = await verifyPdf(signed, { trustAnchors: [await readFile(crt, 'utf8')] });
    expect(result.signatures[0]).toMatchObject({
      digestMatches: true,
      signatureValid: true,
      valid: true,
      chain: { trusted: true },
    });
    const file = path.join(dir, 'ec.pdf');
    await writeFile(file, signed);
    expect((await tool('pdfsig', [file])).stdout).toContain('Signature is Valid');
    const [sig] = extractSignatures(signed);
    expect((await opensslCmsVerify(sig!, crt, dir, 'ec')).code).toBe(0);
  });

  it('a PKCS#12 holding a chain (the local CA exported by openssl) signs with a chain that reaches the root', async () => {
    const local = await createSigningIdentity({ dataDir: path.join(dir, 'data'), clock: CLOCK });
    const p12chain = path.join(dir, 'chain.p12');
    const exp = await tool('openssl', [
      'pkcs12',
      '-export',
      '-inkey',
      local.files!.key,
      '-in',
      local.files!.certificate,
      '-passout',
      'pass:x',
      '-out',
      p12chain,
    ]);
    expect(exp.code, exp.stderr).toBe(0);
    const fromP12 = await createSigningIdentity({ pkcs12: p12chain, passphrase: 'x' });
    expect(fromP12.chain).toHaveLength(1);
    const signed = await sealPdf(await makePdf(), fromP12, { signingTime: new Date('2026-06-02T00:00:00Z') });
    const result = await verifyPdf(signed, { trustAnchors: [await readFile(local.files!.rootCertificate, 'utf8')] });
    const id = local.installId!;
    expect(result.signatures[0]!.chain).toEqual({
      subjects: [
        `O=castpress, OU=install ${id}, CN=castpress local signer ${id}`,
        `O=castpress, OU=install ${id}, CN=castpress local root CA ${id} (self-signed)`,
      ],
      trusted: true,
    });
    // A signing time before the certificate was valid is refused before anything is written.
    const early = await rejectsWith(
      sealPdf(await makePdf(), fromP12, { signingTime: new Date('2020-01-01T00:00:00Z') }),
      ValidationError,
    );
    expect(early.fields[0]?.property).toBe('identity.certificate');
    expect(early.message).toMatch(/not yet valid/);
  });
});
