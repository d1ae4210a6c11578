/**
 * `castpress verify FILE [--trust root.pem] [--json]` through the real command line:
 * exit 0 only when every signature is valid (integrity, trust, validity, key usage, difference
 * analysis), 1 otherwise, 2 for usage errors. The good document is what a packet's completion
 * does with the local CA (marks drawn, then one seal over the whole file); each tamper case is
 * one the issue lists.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppearanceWriter, createSigningIdentity, sealPdf, type SigningIdentity } from '../src/signing/index.js';
import { runCastpress } from './helpers/cli.js';
import { makePdf, selfSigned, signedByLibpdf, tempDir, tool } from './helpers/signing.js';

let dir: string;
let remove: () => Promise<void>;
let install: SigningIdentity;
let other: SigningIdentity;
let rootFile: string;
let good: Uint8Array;

async function save(name: string, bytes: Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

const verify = (file: string, ...args: string[]) => runCastpress(['verify', file, ...args], dir);

/** A packet document as completion makes it: a typed mark drawn, then the install's seal over the whole file. */
async function sealedDocument(identity: SigningIdentity, text: string): Promise<Uint8Array> {
  const marked = await new AppearanceWriter().apply(await makePdf(2, text), [
    { page: 1, rect: { x: 72, y: 600, width: 200, height: 40 }, input: { type: 'typed', text: 'Ada Lovelace' } },
  ]);
  return sealPdf(marked, identity, { name: 'castpress', reason: 'Completed' });
}

beforeAll(async () => {
  ({ dir, remove } = await tempDir('castpress-cli-verify-'));
  install = await createSigningIdentity({ dataDir: path.join(dir, 'install-1') });
  other = await createSigningIdentity({ dataDir: path.join(dir, 'install-2') });
  rootFile = install.files!.rootCertificate;
  good = await sealedDocument(install, 'Pay 100 EUR');
});
afterAll(async () => remove());

// Each run starts a castpress process (from the sources through tsx when the bundle is stale): slow on a loaded machine.
describe('castpress verify', { timeout: 300_000 }, () => {
  it('a good sealed document with --trust: exit 0 and a readable report; --json gives the same verdict', async () => {
    const file = await save('good.pdf', good);
    const r = await verify(file, '--trust', rootFile);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${file}: VALID (1 signature)`);
    expect(r.stdout).toContain('Signature 1 "Signature of castpress": VALID');
    expect(r.stdout).toMatch(/integrity +intact/);
    expect(r.stdout).toMatch(/trust +trusted \(anchor O=castpress, OU=install /);
    expect(r.stdout).toMatch(/PAdES level +B-B/);
    expect(r.stdout).toMatch(/changes after it +none; allowed: form filling and signing/);
    const json = await verify(file, '--trust', rootFile, '--json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as {
      valid: boolean;
      signatures: Array<{ padesLevel: string; modifications: { ok: boolean } }>;
    };
    expect(report.valid).toBe(true);
    expect(report.signatures[0]).toMatchObject({ padesLevel: 'B-B', modifications: { ok: true } });
  });

  it('without --trust nothing is valid: exit 1', async () => {
    const r = await verify(await save('untrusted.pdf', good));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('No trust anchor given');
  });

  it('a byte flipped inside the signed range: exit 1, digest mismatch', async () => {
    const bad = Uint8Array.from(good);
    const at = Buffer.from(bad).indexOf('/MediaBox');
    expect(at).toBeGreaterThan(0);
    bad[at + 1] = 0x4e; // "/NediaBox": inside the first signed range
    const r = await verify(await save('flipped.pdf', bad), '--trust', rootFile);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Digest mismatch: the covered bytes changed after signing');
  });

  it('content changed and re-sealed by another install: exit 1 (changed after the first seal; the second seal untrusted)', async () => {
    const changed = await new AppearanceWriter().apply(good, [
      { page: 0, rect: { x: 72, y: 100, width: 200, height: 20 }, input: { type: 'text', text: 'Pay 900 EUR' } },
    ]);
    const r = await verify(
      await save('resealed.pdf', await sealPdf(changed, other, { name: 'castpress' })),
      '--trust',
      rootFile,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Signature 1 "Signature of castpress": NOT VALID');
    expect(r.stdout).toMatch(
      /revision ending at byte \d+: other changes — \d+ 0 page \/Resources changed; page \/Contents changed/,
    );
    expect(r.stdout).toMatch(/difference check +NO: Changed after signing/);
    expect(r.stdout).toContain('Signature 2 "Signature of castpress 2": NOT VALID');
    expect(r.stdout).toMatch(/ends at a root that is not a trust anchor/);
  });

  it('seal stripped and the changed content sealed by another install: exit 1', async () => {
    const r = await verify(await save('stripped.pdf', await sealedDocument(other, 'Pay 900 EUR')), '--trust', rootFile);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/trust +NO: The chain O=castpress, OU=install /);
  });

  it('a signer certificate expired at the signing time: exit 1', async () => {
    const old = await createSigningIdentity({
      dataDir: path.join(dir, 'old'),
      clock: () => new Date('2000-01-01T00:00:00Z'),
    });
    const p12 = path.join(dir, 'old.p12');
    const e = await tool('openssl', [
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
    expect(e.code, e.stderr).toBe(0);
    const signed = await signedByLibpdf(await makePdf(), p12, new Date('2015-01-01T00:00:00Z'));
    const r = await verify(await save('expired.pdf', signed), '--trust', old.files!.rootCertificate);
    expect(r.code).toBe(1);
    // Judged now: /M (2015) is the signer's claim.
    expect(r.stdout).toMatch(/signing time +2015-01-01T00:00:00.000Z \(claimed by the signer\)/);
    expect(r.stdout).toMatch(/validity period +NO: .* had expired at .*valid until 2009/);
  });

  it('a certificate with only serverAuth: exit 1 even when it is the trust anchor', async () => {
    const tls = await selfSigned(dir, 'tls.example', [
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
    ]);
    const signed = await signedByLibpdf(await makePdf(), tls.p12, new Date());
    const r = await verify(await save('tls.pdf', signed), '--trust', tls.cert);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/trust +trusted/);
    expect(r.stdout).toMatch(/key usage +NO: .*\(serverAuth\) is not for signing documents/);
  });

  it('usage errors: exit 2', async () => {
    expect((await runCastpress(['verify'], dir)).code).toBe(2);
    const missing = await verify(path.join(dir, 'nope.pdf'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or not readable');
    const notPdf = await verify(await save('text.pdf', new TextEncoder().encode('hello')));
    expect(notPdf.code).toBe(2);
  });
});
