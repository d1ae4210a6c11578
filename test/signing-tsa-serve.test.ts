/**
 * Signing options of the server: `--signing-p12` (the operator's identity seals, checked at start),
 * `--tsa local` (the built-in TSA timestamps the seals and answers `POST /tsa`), and the local CA's
 * CRL served at the URL its signing certificate names.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { ValidationError } from '../src/errors/index.js';
import { openPacketBackend } from '../src/server/graphql/index.js';
import { RenderPool } from '../src/server/pool/render-pool.js';
import { startServer } from '../src/server/index.js';
import { serve } from '../src/cli/serve.js';
import { createSigningIdentity, verifyPdf } from '../src/signing/index.js';
import { pdfsig, selfSigned, tempDir, tool } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

let dir: string;
let remove: () => Promise<void>;

async function ok(args: string[]): Promise<string> {
  const r = await tool('openssl', args, { cwd: dir });
  if (r.code !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout + r.stderr;
}

beforeAll(async () => {
  ({ dir, remove } = await tempDir('castpress-tsa-serve-'));
});
afterAll(async () => remove());

describe('the operator identity and the built-in TSA in the workflow the server runs', () => {
  it('seals with the PKCS#12 identity, timestamped by the local TSA, on worker threads', async () => {
    const operator = await selfSigned(dir, 'Operator Seal', [
      'keyUsage=critical,digitalSignature,nonRepudiation',
      'extendedKeyUsage=emailProtection',
    ]);
    const dataDir = path.join(dir, 'op');
    const engine = createEngine();
    const pool = new RenderPool({ engine: {}, threads: 1 });
    const backend = await openPacketBackend({
      dataDir,
      engine,
      baseUrl: 'http://127.0.0.1:1',
      deliver: false,
      threads: pool,
      signingP12: { pkcs12: new Uint8Array(await readFile(operator.p12)), passphrase: 'x' },
      tsa: 'local',
    });
    try {
      const created = await backend.service.createEtchPacket({
        name: 'Operator',
        files: [
          {
            id: 'm',
            filename: 'm.pdf',
            title: 'Markdown',
            fields: [
              { content: 'Agreed.' },
              { id: 's', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 30 } },
            ],
          },
        ],
        signers: [
          {
            id: 'a',
            name: 'Ada',
            email: 'ada@example.com',
            signerType: 'embedded',
            fields: [{ fileId: 'm', fieldId: 's' }],
          },
        ],
      });
      const signer = created.documentGroup.signers[0]!;
      const url = await backend.service.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'u-1' });
      await backend.service.submitSigning({ ...tokenOf(url), inputs: { signature: { type: 'typed', text: 'Ada' } } });
      const [doc] = await backend.service.groupDocuments(created.documentGroup.eid);
      const file = path.join(dir, 'operator.pdf');
      await writeFile(file, doc!.pdf);
      const ps = await pdfsig(file);
      expect(ps.signatures).toHaveLength(1);
      expect(ps.signatures[0]!.text).toContain('Signer full Distinguished Name: O=Example,CN=Operator Seal');
      expect(ps.signatures[0]!.valid).toBe(true);
      // B-T: a PKCS#12 identity has no revocation source yet, so no DSS; the token is the local TSA's.
      const report = await verifyPdf(doc!.pdf, { trustAnchors: [await readFile(operator.cert, 'utf8')] });
      expect(report.signatures[0]).toMatchObject({ valid: true, padesLevel: 'B-T' });
      expect(report.signatures[0]!.signer!.subject).toContain('CN=Operator Seal');
      expect(report.signatures[0]!.timestamp?.tsa).toContain('castpress local timestamp authority');
    } finally {
      await backend.close();
      await pool.close();
      await engine.close();
    }
  }, 300_000);
});

describe('castpress serve refuses an operator certificate that cannot sign documents, at start', () => {
  it('a TLS-only certificate and an expired one are typed start errors (library and CLI flags)', async () => {
    const tls = await selfSigned(dir, 'tls', [
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
    ]);
    // Expired: a local CA made in 2005 (10-year signer), exported as PKCS#12.
    const old = await createSigningIdentity({
      dataDir: path.join(dir, 'old'),
      clock: () => new Date('2005-06-01T00:00:00Z'),
    });
    const expired = path.join(dir, 'expired.p12');
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
      expired,
    ]);
    for (const [p12, message] of [
      [tls.p12, /serverAuth/],
      [expired, /had expired at/],
    ] as const) {
      const refused = await startServer({
        noAuth: true,
        port: 0,
        renderPool: false,
        packets: {
          dataDir: path.join(dir, 'refused'),
          signingP12: { pkcs12: new Uint8Array(await readFile(p12)), passphrase: 'x' },
        },
      }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).fields[0]?.property).toBe('identity.certificate');
      expect((refused as ValidationError).message).toMatch(message);
      // The CLI's flags: the passphrase from an environment variable or a file, the same typed error.
      process.env.CASTPRESS_TEST_P12_PASS = 'x';
      const viaEnv = await serve([
        '--no-auth',
        '--port',
        '0',
        '--data',
        path.join(dir, 'refused'),
        '--signing-p12',
        p12,
        '--signing-p12-passphrase-env',
        'CASTPRESS_TEST_P12_PASS',
      ]).catch((e: unknown) => e);
      // The file shares its thread with others (vitest.config.ts SHARED_FILES): leave the environment as found.
      delete process.env.CASTPRESS_TEST_P12_PASS;
      expect(viaEnv).toBeInstanceOf(ValidationError);
      expect((viaEnv as ValidationError).message).toMatch(message);
    }
    await writeFile(path.join(dir, 'pass.txt'), 'wrong\n');
    const wrong = await serve([
      '--no-auth',
      '--port',
      '0',
      '--data',
      path.join(dir, 'refused'),
      '--signing-p12',
      tls.p12,
      '--signing-p12-passphrase-file',
      path.join(dir, 'pass.txt'),
    ]).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ValidationError);
    expect((wrong as ValidationError).fields[0]?.property).toBe('passphrase');
    // No passphrase source, or both: a usage error before anything is read.
    await expect(serve(['--no-auth', '--signing-p12', tls.p12])).rejects.toThrow(/exactly one of/);
    // A TSA URL is taken (test/signing-certify.test.ts); what is not one is a typed start error.
    await expect(serve(['--no-auth', '--tsa', 'ftp://tsa.example'])).rejects.toThrow(
      /--tsa takes "local" or an http\(s\) URL/,
    );
  }, 120_000);
});

describe('the local CA in castpress serve', () => {
  it('serves its CRL at the URL the signing certificate names, and the built-in TSA at POST /tsa', async () => {
    const dataDir = path.join(dir, 'served');
    const server = await startServer({
      noAuth: true,
      port: 0,
      renderPool: false,
      packets: { dataDir, tsa: 'local', deliver: false },
    });
    try {
      // Nothing made the CA yet: no CRL to publish.
      expect((await fetch(`${server.url}/signing/crl/0123456789abcdef.crl`)).status).toBe(404);
      // A timestamp request (openssl ts -query) makes the packet backend, whose local CA names this server.
      await writeFile(path.join(dir, 'data.txt'), 'served\n');
      await ok(['ts', '-query', '-data', 'data.txt', '-sha256', '-cert', '-out', 'served.tsq']);
      const query = await readFile(path.join(dir, 'served.tsq'));
      const refusedType = await fetch(`${server.url}/tsa`, {
        method: 'POST',
        body: query,
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(refusedType.status).toBe(415);
      const reply = await fetch(`${server.url}/tsa`, {
        method: 'POST',
        body: query,
        headers: { 'content-type': 'application/timestamp-query' },
      });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/timestamp-reply');
      await writeFile(path.join(dir, 'served.tsr'), new Uint8Array(await reply.arrayBuffer()));
      const root = path.join(dataDir, 'signing', 'root-ca.pem');
      expect(await ok(['ts', '-verify', '-data', 'data.txt', '-in', 'served.tsr', '-CAfile', root])).toContain(
        'Verification: OK',
      );

      // The signing certificate's CRL distribution point: this server's CRL path.
      const signer = await ok(['x509', '-in', path.join(dataDir, 'signing', 'signer.pem'), '-noout', '-text']);
      const crlUrl = /URI:(\S+\.crl)/.exec(signer)?.[1];
      expect(crlUrl).toBeDefined();
      expect(crlUrl!.startsWith(`${server.url}/signing/crl/`)).toBe(true);
      const crl = await fetch(crlUrl!);
      expect(crl.status).toBe(200);
      expect(crl.headers.get('content-type')).toBe('application/pkix-crl');
      await writeFile(path.join(dir, 'served.crl'), new Uint8Array(await crl.arrayBuffer()));
      const text = await ok(['crl', '-inform', 'DER', '-in', 'served.crl', '-CAfile', root, '-noout', '-text']);
      expect(text).toContain('verify OK');
      expect(text).toContain('No Revoked Certificates');
      // Another install's id: not found.
      expect((await fetch(`${server.url}/signing/crl/0123456789abcdef.crl`)).status).toBe(404);
    } finally {
      await server.close();
    }
  }, 120_000);
});
