/**
 * Long-term validation: the local CA publishes a CRL and names it in the certificates it
 * issues; a seal with a timestamp embeds a DSS (every certificate and CRL of every signature) as its
 * own update (PAdES B-LT); verifyPdf reads revocation from that DSS. The TSA is `openssl ts` behind
 * a fetch function made here (no network); pdfsig, openssl and qpdf check what castpress wrote.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SigningError, ValidationError } from '../src/errors/index.js';
import { appendValidationData, readDss } from '../src/pdf/index.js';
import {
  createSigningIdentity,
  embedValidationData,
  LocalCaRevocation,
  sealPdf,
  verifyPdf,
  type SigningIdentity,
  type TimestampOptions,
} from '../src/signing/index.js';
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
let identity: SigningIdentity;
let root: string;
let timestamp: TimestampOptions;
let tsaCalls = 0;
const BASE_URL = 'https://sign.example.org/';

async function ok(cmd: string, args: string[]): Promise<void> {
  const r = await tool(cmd, args, { cwd: dir });
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
}

/** A TSA: `openssl ts -reply` with a certificate for timeStamping, answered through a fetch function. */
async function openSslTsa(): Promise<TimestampOptions> {
  await ok('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'tsa-root.key',
    '-out',
    'tsa-root.pem',
    '-subj',
    '/CN=LTV Test TSA Root',
    '-days',
    '30',
  ]);
  await ok('openssl', [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'tsa.key',
    '-out',
    'tsa.csr',
    '-subj',
    '/CN=LTV Test TSA',
  ]);
  await writeFile(
    path.join(dir, 'tsa-ext.cnf'),
    'extendedKeyUsage=critical,timeStamping\nkeyUsage=critical,digitalSignature\n',
  );
  await ok('openssl', [
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'tsa-root.pem',
    '-CAkey',
    'tsa-root.key',
    '-CAcreateserial',
    '-out',
    'tsa.crt',
    '-days',
    '30',
    '-extfile',
    'tsa-ext.cnf',
  ]);
  await writeFile(path.join(dir, 'tsaserial'), '01\n');
  const config = [
    '[ tsa ]',
    'default_tsa = tsa1',
    '[ tsa1 ]',
    `serial = ${path.join(dir, 'tsaserial')}`,
    'signer_digest = sha256',
    'default_policy = 1.2.3.4.1',
    'digests = sha256',
    'ess_cert_id_alg = sha256',
    '',
  ];
  await writeFile(path.join(dir, 'tsa.cnf'), config.join('\n'));
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const n = ++tsaCalls;
    const query = path.join(dir, `q${n}.tsq`);
    const reply = path.join(dir, `r${n}.tsr`);
    await writeFile(query, new Uint8Array(init!.body as ArrayBuffer | Uint8Array));
    await ok('openssl', [
      'ts',
      '-reply',
      '-config',
      path.join(dir, 'tsa.cnf'),
      '-queryfile',
      query,
      '-signer',
      path.join(dir, 'tsa.crt'),
      '-inkey',
      path.join(dir, 'tsa.key'),
      '-out',
      reply,
    ]);
    return new Response(new Uint8Array(await readFile(reply)), {
      status: 200,
      headers: { 'Content-Type': 'application/timestamp-reply' },
    });
  };
  return { url: 'http://tsa.invalid/tsr', fetch: fetch as typeof globalThis.fetch };
}

beforeAll(async () => {
  ({ dir, remove } = await tempDir('castpress-ltv-'));
  identity = await createSigningIdentity({ dataDir: path.join(dir, 'data'), crlBaseUrl: BASE_URL });
  root = await readFile(identity.files!.rootCertificate, 'utf8');
  timestamp = await openSslTsa();
});

afterAll(async () => {
  await remove();
});

describe('the local CA publishes revocation data', () => {
  it('names its CRL in the signing certificate and signs a CRL with a pinned clock that openssl accepts', async () => {
    const ext = await tool('openssl', [
      'x509',
      '-in',
      identity.files!.certificate,
      '-noout',
      '-ext',
      'crlDistributionPoints',
    ]);
    expect(ext.stdout).toContain(`URI:https://sign.example.org/signing/crl/${identity.installId}.crl`);
    const rootExt = await tool('openssl', [
      'x509',
      '-in',
      identity.files!.rootCertificate,
      '-noout',
      '-ext',
      'crlDistributionPoints',
    ]);
    expect(rootExt.stdout).not.toContain('URI:');

    const at = new Date('2026-11-20T10:00:00Z');
    const ca = await LocalCaRevocation.open({ dataDir: path.join(dir, 'data'), clock: () => at });
    const crl = await ca.crl();
    expect(Buffer.from(await ca.crl()).equals(Buffer.from(crl))).toBe(true); // same clock, same bytes
    await writeFile(path.join(dir, 'ca.crl'), crl);
    const text = await tool('openssl', [
      'crl',
      '-inform',
      'DER',
      '-in',
      path.join(dir, 'ca.crl'),
      '-CAfile',
      identity.files!.rootCertificate,
      '-noout',
      '-text',
    ]);
    expect(text.stdout + text.stderr).toContain('verify OK');
    expect(text.stdout).toContain('Last Update: Nov 20 10:00:00 2026 GMT');
    expect(text.stdout).toContain('Next Update: Nov 27 10:00:00 2026 GMT');
    expect(text.stdout).toContain('No Revoked Certificates');
    // Only certificates this CA issued get its CRL; a stranger's certificate is refused for revocation.
    expect(await ca.crlFor(identity.chain[0]!)).toBeNull();
    await expect(ca.revoke(identity.chain[0]!)).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('PAdES B-LT at sealing', () => {
  it('embeds a DSS with the certificates and the CRL as its own update; validators still accept the signature', async () => {
    const input = await makePdf();
    const signingTime = new Date();
    // B-LT asked for: the default with a timestamp is now B-LTA (test/signing-tsa.test.ts).
    const signed = await sealPdf(input, identity, { reason: 'LTV', timestamp, signingTime, level: 'B-LT' });
    expect(Buffer.from(signed.subarray(0, input.length)).equals(Buffer.from(input))).toBe(true);

    // Two updates: the signature covers the first; the DSS follows it.
    const [sig] = extractSignatures(signed);
    expect(sig!.byteRange[2] + sig!.byteRange[3]).toBeLessThan(signed.length);
    const dss = await readDss(signed);
    const carried = dss.certificates.map((c) => Buffer.from(c).toString('hex'));
    expect(carried).toContain(Buffer.from(identity.certificate).toString('hex'));
    expect(carried).toContain(Buffer.from(identity.chain[0]!).toString('hex'));
    expect(dss.crls).toHaveLength(1);
    await writeFile(path.join(dir, 'dss.crl'), dss.crls[0]!);
    const crlText = await tool('openssl', [
      'crl',
      '-inform',
      'DER',
      '-in',
      path.join(dir, 'dss.crl'),
      '-CAfile',
      identity.files!.rootCertificate,
      '-noout',
      '-text',
    ]);
    expect(crlText.stdout + crlText.stderr).toContain('verify OK');

    // qpdf sees the same DSS, read from the file's own structure.
    const file = path.join(dir, 'blt.pdf');
    await writeFile(file, signed);
    expect((await tool('qpdf', ['--check', file])).code).toBe(0);
    const json = JSON.parse((await tool('qpdf', ['--json=2', file])).stdout) as {
      qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>];
    };
    const objects = json.qpdf[1];
    const catalog = Object.values(objects).find(
      (o) => o.value?.['/Type'] === '/Catalog' && o.value['/DSS'] !== undefined,
    );
    expect(catalog).toBeDefined();
    const dssRef = catalog!.value!['/DSS'] as string;
    const dssDict = objects[`obj:${dssRef}`]?.value as Record<string, unknown[]>;
    expect(dssDict['/CRLs']).toHaveLength(1);
    expect(dssDict['/Certs']!.length).toBeGreaterThanOrEqual(2);

    // pdfsig (trusting the local root through NSS) and openssl cms still accept the signature.
    const ps = await pdfsig(file, await nssDbTrusting(dir, identity.files!.rootCertificate));
    expect(ps.signatures).toHaveLength(1);
    expect(ps.signatures[0]!.valid).toBe(true);
    expect(ps.signatures[0]!.trusted).toBe(true);
    expect((await opensslCmsVerify(sig!, identity.files!.rootCertificate, dir, 'blt')).code).toBe(0);

    // verifyPdf: B-LT, revocation good, the DSS an allowed change, the document valid.
    const report = await verifyPdf(signed, { trustAnchors: [root] });
    const s = report.signatures[0]!;
    expect(s.padesLevel).toBe('B-LT');
    expect(s.revocation).toMatchObject({ status: 'good' });
    expect(s.modifications.ok).toBe(true);
    expect(s.modifications.revisions).toHaveLength(1);
    expect(s.modifications.revisions[0]!.changes.every((c) => c.ltv)).toBe(true);
    expect(s.modifications.revisions[0]!.changes.some((c) => c.what === 'DSS')).toBe(true);
    expect(report.wholeDocumentSigned).toBe(false);
    expect(report.problems).toEqual([]);
    expect(report.valid).toBe(true);
  });

  it('defaults to the highest level the configuration allows, and refuses one it cannot reach', async () => {
    const input = await makePdf();
    const bb = await sealPdf(input, identity, {});
    expect((await readDss(bb)).crls).toHaveLength(0);
    expect((await verifyPdf(bb, { trustAnchors: [root] })).signatures[0]!).toMatchObject({
      padesLevel: 'B-B',
      revocation: { status: 'unknown' },
    });
    const bt = await sealPdf(input, identity, { timestamp, level: 'B-T' });
    expect((await readDss(bt)).crls).toHaveLength(0);
    expect((await verifyPdf(bt, { trustAnchors: [root] })).signatures[0]!.padesLevel).toBe('B-T');

    await expect(sealPdf(input, identity, { level: 'B-LT' })).rejects.toMatchObject({
      fields: [{ property: 'timestamp' }],
    });
    await expect(sealPdf(input, identity, { level: 'B-LTA' })).rejects.toMatchObject({
      fields: [{ property: 'timestamp' }],
    });
    const noCrl = { crlFor: async () => null };
    await expect(sealPdf(input, identity, { level: 'B-LT', timestamp, revocation: noCrl })).rejects.toMatchObject({
      fields: [{ property: 'revocation' }],
    });
    // Default with a source that has nothing: B-T, no DSS.
    expect((await readDss(await sealPdf(input, identity, { timestamp, revocation: noCrl }))).crls).toHaveLength(0);
  });
});

describe('a revoked signing certificate', () => {
  it('is refused at sealing, and a signature whose DSS says revoked does not verify', async () => {
    const dataDir = path.join(dir, 'revoked');
    const revokedIdentity = await createSigningIdentity({ dataDir });
    const anchor = await readFile(revokedIdentity.files!.rootCertificate, 'utf8');
    const input = await makePdf();
    const signingTime = new Date();
    // B-T made while the certificate was good.
    const bt = await sealPdf(input, revokedIdentity, { timestamp, level: 'B-T', signingTime });

    const ca = await LocalCaRevocation.open({ dataDir });
    const entry = await ca.revoke(revokedIdentity.certificate, { at: new Date(signingTime.getTime() - 3_600_000) });
    expect((await ca.revoked()).map((e) => e.serialNumber)).toEqual([entry.serialNumber]);
    await writeFile(path.join(dir, 'revoked.crl'), await ca.crl());
    const listed = await tool('openssl', [
      'crl',
      '-inform',
      'DER',
      '-in',
      path.join(dir, 'revoked.crl'),
      '-noout',
      '-text',
    ]);
    expect(listed.stdout.replace(/:/g, '').toUpperCase()).toContain(entry.serialNumber);

    // Sealing again is refused: the seal would not verify.
    await expect(sealPdf(input, revokedIdentity, { timestamp, signingTime })).rejects.toMatchObject({
      fields: [{ property: 'identity.certificate' }],
    });

    // The revoked-before-signing certificate, with its CRL in the DSS: not valid.
    const withDss = await embedValidationData(bt, { revocation: ca });
    const report = await verifyPdf(withDss, { trustAnchors: [anchor] });
    const s = report.signatures[0]!;
    expect(s.integrity.intact).toBe(true);
    expect(s.trust.trusted).toBe(true);
    expect(s.revocation).toMatchObject({ status: 'revoked', revokedAt: entry.revokedAt });
    expect(s.valid).toBe(false);
    expect(report.valid).toBe(false);
    expect(s.problems.join(' ')).toContain('revoked');
    // The same signature before the DSS: no revocation data, still valid (unknown is reported, not held against it).
    const before = await verifyPdf(bt, { trustAnchors: [anchor] });
    expect(before.signatures[0]!.revocation).toMatchObject({ status: 'unknown' });
    expect(before.valid).toBe(true);
  });
});

describe('adding validation data makes no network call', () => {
  it('refuses a chain whose AIA @libpdf/core would fetch, and a default seal stays B-T', async () => {
    // A loopback server standing for the issuer's AIA address, counting what reaches it.
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      await ok('openssl', [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'aia-root.key',
        '-out',
        'aia-root.pem',
        '-subj',
        '/CN=AIA Test Root',
        '-days',
        '30',
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
      ]);
      await ok('openssl', [
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'aia-leaf.key',
        '-out',
        'aia-leaf.csr',
        '-subj',
        '/CN=AIA Test Signer',
      ]);
      await writeFile(
        path.join(dir, 'aia-ext.cnf'),
        `keyUsage=critical,digitalSignature,nonRepudiation\nauthorityInfoAccess=caIssuers;URI:http://127.0.0.1:${port}/root.crt\n`,
      );
      await ok('openssl', [
        'x509',
        '-req',
        '-in',
        'aia-leaf.csr',
        '-CA',
        'aia-root.pem',
        '-CAkey',
        'aia-root.key',
        '-CAcreateserial',
        '-out',
        'aia-leaf.pem',
        '-days',
        '30',
        '-extfile',
        'aia-ext.cnf',
      ]);
      // The chain stops at the leaf: libpdf would go looking for its issuer.
      const leafOnly = await createSigningIdentity({
        privateKey: await readFile(path.join(dir, 'aia-leaf.key'), 'utf8'),
        certificates: await readFile(path.join(dir, 'aia-leaf.pem'), 'utf8'),
      });
      const signed = await sealPdf(await makePdf(), leafOnly, {});
      const none = { crlFor: async () => null };
      // What libpdf does on its own: it fetches the issuer from the AIA address (here only loopback).
      await appendValidationData(signed, { getCRL: none.crlFor });
      expect(hits).toBeGreaterThan(0);
      // castpress refuses instead, before anything is fetched or written.
      hits = 0;
      await expect(embedValidationData(signed, { revocation: none })).rejects.toBeInstanceOf(SigningError);
      expect(hits).toBe(0);
      // Sealing without asking for B-LT stays B-T rather than going online (here: no DSS, no fetch).
      const bt = await sealPdf(await makePdf(), leafOnly, {
        timestamp,
        revocation: { crlFor: async () => new Uint8Array([0x30, 0]) },
      });
      expect(hits).toBe(0);
      expect((await readDss(bt)).crls).toHaveLength(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('reading a DSS', () => {
  it('bounds a hostile one: an inflation bomb is skipped, the other entries still read', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    const crl = await (await LocalCaRevocation.open({ dataDir: path.join(dir, 'data') })).crl();
    const ctx = doc.context;
    // 64 MB of zeros in about 64 KB: over the 8 MB an entry may inflate to.
    const bomb = ctx.register(
      PDFRawStream.of(ctx.obj({ Filter: 'FlateDecode' }), deflateSync(Buffer.alloc(64 * 1024 * 1024))),
    );
    const good = ctx.register(PDFRawStream.of(ctx.obj({ Filter: 'FlateDecode' }), deflateSync(crl)));
    const plain = ctx.register(PDFRawStream.of(ctx.obj({}), crl));
    doc.catalog.set(PDFName.of('DSS'), ctx.obj({ CRLs: [bomb, good, plain], Certs: [] }));
    const dss = await readDss(await doc.save({ useObjectStreams: false }));
    expect(dss.crls.map((c) => Buffer.from(c).equals(Buffer.from(crl)))).toEqual([true, true]);
  });
});
