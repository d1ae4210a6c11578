/**
 * The built-in RFC 3161 timestamp authority of the local CA (tokens checked by
 * `openssl ts -verify`, requests made by `openssl ts -query`), and PAdES B-LTA (a document
 * timestamp after the DSS) that pdfsig and verifyPdf accept.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSigningIdentity,
  LocalTimestampAuthority,
  LOCAL_TSA_POLICY,
  sealPdf,
  verifyPdf,
  type SigningIdentity,
} from '../src/signing/index.js';
import { readDss } from '../src/pdf/index.js';
import {
  extractSignatures,
  makePdf,
  nssDbTrusting,
  opensslCmsVerify,
  pdfsig,
  tempDir,
  tool,
} from './helpers/signing.js';

let dir: string;
let remove: () => Promise<void>;
let dataDir: string;
let identity: SigningIdentity;
let root: string;
let tsa: LocalTimestampAuthority;

async function ok(args: string[]): Promise<string> {
  const r = await tool('openssl', args, { cwd: dir });
  if (r.code !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout + r.stderr;
}

beforeAll(async () => {
  ({ dir, remove } = await tempDir('castpress-tsa-'));
  dataDir = path.join(dir, 'data');
  identity = await createSigningIdentity({ dataDir });
  root = await readFile(identity.files!.rootCertificate, 'utf8');
  tsa = await LocalTimestampAuthority.open({ dataDir });
});
afterAll(async () => remove());

describe('the built-in timestamp authority', () => {
  it('answers openssl ts requests with tokens openssl ts -verify accepts against the local root', async () => {
    await writeFile(path.join(dir, 'data.txt'), 'what was there at that time\n');
    await ok(['ts', '-query', '-data', 'data.txt', '-sha256', '-cert', '-out', 'req.tsq']);
    const reply = await tsa.respond(await readFile(path.join(dir, 'req.tsq')));
    await writeFile(path.join(dir, 'reply.tsr'), reply);
    const text = await ok(['ts', '-reply', '-in', 'reply.tsr', '-text']);
    expect(text).toContain('Status: Granted.');
    expect(text).toContain(`Policy OID: ${LOCAL_TSA_POLICY}`);
    expect(text).toMatch(/Nonce: 0x[0-9A-F]+/);
    expect(
      await ok(['ts', '-verify', '-data', 'data.txt', '-in', 'reply.tsr', '-CAfile', identity.files!.rootCertificate]),
    ).toContain('Verification: OK');
    // Other data: the imprint does not match.
    await writeFile(path.join(dir, 'other.txt'), 'something else\n');
    const other = await tool(
      'openssl',
      ['ts', '-verify', '-data', 'other.txt', '-in', 'reply.tsr', '-CAfile', identity.files!.rootCertificate],
      { cwd: dir },
    );
    expect(other.code).not.toBe(0);
    // Without -cert the token carries no certificates; openssl then needs the TSA's own.
    await ok(['ts', '-query', '-data', 'data.txt', '-sha512', '-out', 'req2.tsq']);
    await writeFile(path.join(dir, 'reply2.tsr'), await tsa.respond(await readFile(path.join(dir, 'req2.tsq'))));
    await writeFile(path.join(dir, 'tsa.pem'), await readFile(path.join(dataDir, 'signing', 'tsa', 'tsa.pem')));
    expect(
      await ok([
        'ts',
        '-verify',
        '-data',
        'data.txt',
        '-in',
        'reply2.tsr',
        '-CAfile',
        identity.files!.rootCertificate,
        '-untrusted',
        'tsa.pem',
      ]),
    ).toContain('Verification: OK');
  });

  it('has a certificate from the local root for timestamping only (critical EKU), and rejects bad requests with a status', async () => {
    const cert = await ok(['x509', '-in', path.join(dataDir, 'signing', 'tsa', 'tsa.pem'), '-noout', '-text']);
    expect(cert).toMatch(/X509v3 Extended Key Usage: critical\s+Time Stamping\s/);
    expect(cert).toContain(`Issuer: O = castpress, OU = install ${identity.installId}`);
    expect(cert).toContain(`CN = castpress local timestamp authority ${identity.installId}`);
    // The same TSA certificate on a second open (kept in the data folder).
    const again = await LocalTimestampAuthority.open({ dataDir });
    expect(Buffer.from(again.certificate).equals(Buffer.from(tsa.certificate))).toBe(true);

    for (const [name, args, failure] of [
      ['sha1', ['-sha1'], 'unrecognized or unsupported algorithm identifier'],
      ['policy', ['-sha256', '-tspolicy', '1.2.3.4'], 'the requested TSA policy is not supported'],
    ] as const) {
      await ok(['ts', '-query', '-data', 'data.txt', ...args, '-out', `${name}.tsq`]);
      await writeFile(path.join(dir, `${name}.tsr`), await tsa.respond(await readFile(path.join(dir, `${name}.tsq`))));
      const text = await ok(['ts', '-reply', '-in', `${name}.tsr`, '-text']);
      expect(text).toContain('Status: Rejected.');
      expect(text).toContain(failure);
    }
    await writeFile(path.join(dir, 'junk.tsr'), await tsa.respond(new Uint8Array([0x30, 0x03, 1, 2, 3])));
    expect(await ok(['ts', '-reply', '-in', 'junk.tsr', '-text'])).toContain('the data submitted has the wrong format');
  });
});

describe('PAdES B-LTA', () => {
  it('is the default with a timestamp: signature, DSS, then a document timestamp that covers the whole file', async () => {
    const input = await makePdf();
    const signed = await sealPdf(input, identity, { timestamp: { local: tsa }, reason: 'archive' });
    expect(Buffer.from(signed.subarray(0, input.length)).equals(Buffer.from(input))).toBe(true);

    const [sig, docTs] = extractSignatures(signed);
    expect(docTs).toBeDefined();
    // The document timestamp is the last update, after the DSS the signature does not cover.
    expect(docTs!.byteRange[2] + docTs!.byteRange[3]).toBe(signed.length);
    expect(sig!.byteRange[2] + sig!.byteRange[3]).toBeLessThan(docTs!.byteRange[1]);
    const tail = Buffer.from(signed).toString('latin1', sig!.byteRange[2] + sig!.byteRange[3]);
    expect(tail).toMatch(/\/Type\s*\/DocTimeStamp/);
    expect(tail).toMatch(/\/SubFilter\s*\/ETSI\.RFC3161/);
    expect((await readDss(signed)).crls).toHaveLength(1);

    // verifyPdf: the signature B-LTA, the document timestamp valid and trusted through the local root.
    const report = await verifyPdf(signed, { trustAnchors: [root] });
    expect(report.problems).toEqual([]);
    expect(report.valid).toBe(true);
    expect(report.signatures).toHaveLength(2);
    expect(report.signatures[0]).toMatchObject({ kind: 'signature', valid: true, padesLevel: 'B-LTA' });
    expect(report.signatures[0]!.timestamp?.tsa).toContain('castpress local timestamp authority');
    expect(report.signatures[1]).toMatchObject({ kind: 'documentTimestamp', valid: true, trust: { trusted: true } });

    // pdfsig (local root trusted through NSS): the signature valid and trusted, the timestamp the whole document.
    const file = path.join(dir, 'blta.pdf');
    await writeFile(file, signed);
    const ps = await pdfsig(file, await nssDbTrusting(dir, identity.files!.rootCertificate));
    expect(ps.signatures).toHaveLength(2);
    expect(ps.signatures[0]).toMatchObject({ valid: true, trusted: true, total: false });
    expect(ps.signatures[1]!.text).toContain('castpress local timestamp authority');
    expect(ps.signatures[1]!.total).toBe(true);
    expect((await tool('qpdf', ['--check', file])).code).toBe(0);
    // The document timestamp's token, checked by openssl against the whole file before it.
    await writeFile(path.join(dir, 'docts.der'), docTs!.der);
    await writeFile(path.join(dir, 'docts.bin'), docTs!.signedBytes);
    expect(
      await ok([
        'ts',
        '-verify',
        '-data',
        'docts.bin',
        '-in',
        'docts.der',
        '-token_in',
        '-CAfile',
        identity.files!.rootCertificate,
      ]),
    ).toContain('Verification: OK');
    expect((await opensslCmsVerify(sig!, identity.files!.rootCertificate, dir, 'blta')).code).toBe(0);
  });

  it('each level can be asked for; B-LT stops before the document timestamp', async () => {
    const input = await makePdf();
    const timestamp = { local: tsa };
    const levels = await Promise.all(
      (['B-B', 'B-T', 'B-LT', 'B-LTA'] as const).map(async (level) => {
        const out = await sealPdf(input, identity, { timestamp, level });
        const report = await verifyPdf(out, { trustAnchors: [root] });
        return [level, report.valid, report.signatures.map((s) => `${s.kind}:${s.padesLevel ?? ''}`)];
      }),
    );
    expect(levels).toEqual([
      ['B-B', true, ['signature:B-B']],
      ['B-T', true, ['signature:B-T']],
      ['B-LT', true, ['signature:B-LT']],
      ['B-LTA', true, ['signature:B-LTA', 'documentTimestamp:']],
    ]);
    await expect(sealPdf(input, identity, { level: 'B-LTA' })).rejects.toMatchObject({
      fields: [{ property: 'timestamp' }],
    });
    await expect(
      sealPdf(input, identity, { level: 'B-LTA', timestamp, revocation: { crlFor: async () => null } }),
    ).rejects.toMatchObject({ fields: [{ property: 'revocation' }] });
  });
});
