/**
 * PAdES B-T: an RFC 3161 timestamp from `openssl ts` acting as the TSA behind a loopback
 * HTTP server started here; checked by verifyPdf, pdfsig and `openssl ts -verify`.
 */
import { createServer, type Server } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTimestampAuthority, PDF } from '@libpdf/core';
import { SigningError } from '../src/errors/index.js';
import { createSigningIdentity, sealPdf, verifyPdf, type SigningIdentity } from '../src/signing/index.js';
import { extractSignatures, makePdf, opensslCmsVerify, pdfsig, tempDir, tool } from './helpers/signing.js';

let dir: string;
let remove: () => Promise<void>;
let identity: SigningIdentity;
let server: Server;
let url: string;
let requests = 0;

async function ok(cmd: string, args: string[]): Promise<void> {
  const r = await tool(cmd, args, { cwd: dir });
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
}

beforeAll(async () => {
  ({ dir, remove } = await tempDir());
  identity = await createSigningIdentity({ dataDir: path.join(dir, 'data') });
  // A TSA root and a TSA certificate with the critical timeStamping purpose RFC 3161 requires.
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
    '/CN=Test TSA Root',
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
    '/CN=Test TSA',
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
  await writeFile(
    path.join(dir, 'tsa.cnf'),
    [
      '[ tsa ]',
      'default_tsa = tsa1',
      '[ tsa1 ]',
      `serial = ${path.join(dir, 'tsaserial')}`,
      'crypto_device = builtin',
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = yes',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const n = ++requests;
        if (req.url === '/fail') {
          res.writeHead(500).end('down');
          return;
        }
        const query = path.join(dir, `q${n}.tsq`);
        const reply = path.join(dir, `r${n}.tsr`);
        await writeFile(query, Buffer.concat(chunks));
        const r = await tool('openssl', [
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
        if (r.code !== 0) {
          res.writeHead(500).end(r.stderr);
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/timestamp-reply' }).end(await readFile(reply));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsr`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await remove();
});

interface Element {
  offset: number;
  hl: number;
  len: number;
}

/** Elements of an `openssl asn1parse` listing, in order, with their text. */
function elements(listing: string): Array<Element & { line: string }> {
  return listing
    .split('\n')
    .map((line) => ({ line, m: /^\s*(\d+):d=\d+\s+hl=(\d+)\s+l=\s*(\d+)/.exec(line) }))
    .filter((e) => e.m)
    .map(({ line, m }) => ({ line, offset: Number(m![1]), hl: Number(m![2]), len: Number(m![3]) }));
}

/**
 * The signer's signature value and its timestamp token: the token is the SEQUENCE after the
 * id-smime-aa-timeStampToken OID; the signature value is the OCTET STRING after the last
 * signature algorithm before it (earlier ones belong to the certificates).
 */
function signatureAndToken(listing: string): { signature: Element; token: Element } {
  const all = elements(listing);
  const tokenAt = all.findIndex((e) => e.line.includes(':id-smime-aa-timeStampToken'));
  expect(tokenAt).toBeGreaterThan(0);
  const token = all.slice(tokenAt + 1).find((e) => e.line.includes('cons: SEQUENCE'))!;
  let algAt = tokenAt;
  while (algAt > 0 && !/:(rsaEncryption|sha256WithRSAEncryption)\s*$/.test(all[algAt]!.line)) algAt--;
  const signature = all.slice(algAt + 1, tokenAt).find((e) => e.line.includes('prim: OCTET STRING'))!;
  return { signature, token };
}

describe('PAdES B-T through a caller-given fetch', () => {
  it('embeds a timestamp token over the signature value that openssl ts -verify accepts', async () => {
    const input = await makePdf();
    const before = requests;
    const asked = Date.now();
    // B-T asked for: the default with the local CA would be B-LT, a DSS update after the signature (test/signing-ltv.test.ts).
    const sealed = await sealPdf(input, identity, {
      reason: 'Timestamped',
      level: 'B-T',
      timestamp: { url, fetch: globalThis.fetch },
    });
    const answered = Date.now();
    expect(requests).toBe(before + 1);
    expect(Buffer.from(sealed.subarray(0, input.length)).equals(Buffer.from(input))).toBe(true);

    const result = await verifyPdf(sealed, {
      trustAnchors: [
        await readFile(identity.files!.rootCertificate, 'utf8'),
        await readFile(path.join(dir, 'tsa-root.pem'), 'utf8'),
      ],
    });
    expect(result.valid).toBe(true);
    // The certificate's validity is judged at the token's time (its TSA trusted), not the signer's claim.
    expect(result.signatures[0]!.validityPeriod).toMatchObject({
      ok: true,
      timeSource: 'timestamp',
      time: result.signatures[0]!.timestamp!.time,
    });
    const ts = result.signatures[0]!.timestamp!;
    expect(ts).toMatchObject({ imprintMatches: true, signatureValid: true, tsa: 'CN=Test TSA' });
    // The test TSA stamps the current time: inside the call, to the second (genTime may drop the fraction).
    expect(ts.time.getTime()).toBeGreaterThanOrEqual(Math.floor(asked / 1000) * 1000);
    expect(ts.time.getTime()).toBeLessThanOrEqual(answered);

    const file = path.join(dir, 'bt.pdf');
    await writeFile(file, sealed);
    const ps = await pdfsig(file);
    expect(ps.signatures[0]!.valid && ps.signatures[0]!.total).toBe(true);
    const [sig] = extractSignatures(sealed);
    expect((await opensslCmsVerify(sig!, identity.files!.rootCertificate, dir, 'bt')).code).toBe(0);

    // The token sits in the unsigned attributes; it timestamps the signer's signature value.
    const cmsFile = path.join(dir, 'bt.der');
    const listing = (await tool('openssl', ['asn1parse', '-inform', 'DER', '-in', cmsFile])).stdout;
    const { signature: sigValue, token } = signatureAndToken(listing);
    expect(sigValue.len).toBe(256); // RSA 2048
    const der = await readFile(cmsFile);
    await writeFile(
      path.join(dir, 'sigvalue.bin'),
      der.subarray(sigValue.offset + sigValue.hl, sigValue.offset + sigValue.hl + sigValue.len),
    );
    await writeFile(path.join(dir, 'token.der'), der.subarray(token.offset, token.offset + token.hl + token.len));
    const verify = await tool('openssl', [
      'ts',
      '-verify',
      '-data',
      path.join(dir, 'sigvalue.bin'),
      '-in',
      path.join(dir, 'token.der'),
      '-token_in',
      '-CAfile',
      path.join(dir, 'tsa-root.pem'),
      '-untrusted',
      path.join(dir, 'tsa.crt'),
    ]);
    expect(verify.stdout + verify.stderr).toContain('Verification: OK');
    // The same check against other data fails: the test can tell a wrong token.
    const wrong = await tool('openssl', [
      'ts',
      '-verify',
      '-data',
      path.join(dir, 'bt-ranges.bin'),
      '-in',
      path.join(dir, 'token.der'),
      '-token_in',
      '-CAfile',
      path.join(dir, 'tsa-root.pem'),
      '-untrusted',
      path.join(dir, 'tsa.crt'),
    ]);
    expect(wrong.stdout + wrong.stderr).not.toContain('Verification: OK');
  });

  it('verifyPdf checks a document timestamp (/DocTimeStamp) added after the seal', async () => {
    const sealed = await sealPdf(await makePdf(), identity, { reason: 'Sealed' });
    const pdf = await PDF.load(sealed);
    const { bytes } = await pdf.addTimestamp({ timestampAuthority: new HttpTimestampAuthority(url) });
    expect(Buffer.from(bytes.subarray(0, sealed.length)).equals(Buffer.from(sealed))).toBe(true);
    const result = await verifyPdf(bytes, {
      trustAnchors: [
        await readFile(path.join(dir, 'tsa-root.pem'), 'utf8'),
        await readFile(identity.files!.rootCertificate, 'utf8'),
      ],
    });
    expect(result.valid).toBe(true);
    expect(result.signatures[1]!.keyUsage).toMatchObject({ ok: true, extendedKeyUsage: ['timeStamping'] });
    expect(result.signatures.map((s) => [s.kind, s.valid, s.coversWholeDocument])).toEqual([
      ['signature', true, false],
      ['documentTimestamp', true, true],
    ]);
    const docTs = result.signatures[1]!;
    expect(docTs.signer?.commonName).toBe('Test TSA');
    expect(docTs.chain.trusted).toBe(true);
    // openssl agrees: the token in /Contents timestamps the covered ranges.
    const token = extractSignatures(bytes)[1]!;
    await writeFile(path.join(dir, 'docts.der'), token.der);
    await writeFile(path.join(dir, 'docts-ranges.bin'), token.signedBytes);
    const v = await tool('openssl', [
      'ts',
      '-verify',
      '-data',
      path.join(dir, 'docts-ranges.bin'),
      '-in',
      path.join(dir, 'docts.der'),
      '-token_in',
      '-CAfile',
      path.join(dir, 'tsa-root.pem'),
      '-untrusted',
      path.join(dir, 'tsa.crt'),
    ]);
    expect(v.stdout + v.stderr).toContain('Verification: OK');
    // One changed byte in the first revision: the timestamp's imprint no longer matches.
    const bad = Uint8Array.from(bytes);
    bad[30] = bad[30] === 0x30 ? 0x31 : 0x30;
    const tampered = await verifyPdf(bad);
    expect(tampered.valid).toBe(false);
    expect(tampered.signatures.map((s) => s.digestMatches)).toEqual([false, false]);
  });

  it('a failing TSA or fetch is a SigningError and nothing is returned', async () => {
    const input = await makePdf();
    const down = await sealPdf(input, identity, {
      timestamp: { url: url.replace('/tsr', '/fail'), fetch: globalThis.fetch },
    }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(SigningError);
    expect((down as SigningError).fields[0]?.property).toBe('timestamp');
    const offline = await sealPdf(input, identity, {
      timestamp: {
        url: 'http://tsa.invalid/',
        fetch: async () => {
          throw new Error('no network');
        },
      },
    }).catch((e: unknown) => e);
    expect(offline).toBeInstanceOf(SigningError);
  });
});
