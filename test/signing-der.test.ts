/**
 * Every ASN.1 structure castpress signs or stamps is DER, not merely BER. Readers that
 * parse strictly (pyHanko's asn1crypto for a token's TSTInfo, and any verifier that re-encodes
 * before hashing) refuse a constructed OCTET STRING, an indefinite length or an unsorted SET. Checked
 * with a strict DER reader written for the tests (test/helpers/der.ts) and, independently, by
 * OpenSSL: `openssl cms -cmsout` reads the structure and writes it again as DER, which must give
 * the same bytes. Over: the built-in TSA's tokens and replies (library and `castpress serve --tsa
 * local`'s POST /tsa), and each kind of CMS castpress writes in a PDF — a signer's revision
 * (per-signer), a certification, a seal with its signature timestamp, a document timestamp.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/server/index.js';
import {
  createSigningIdentity,
  issueSignerIdentity,
  LocalTimestampAuthority,
  sealPdf,
  sealRevision,
  verifyPdf,
  type SigningIdentity,
} from '../src/signing/index.js';
import { derProblem } from './helpers/der.js';
import { extractSignatures, makePdf, tempDir, tool } from './helpers/signing.js';

let dir: string;
let remove: () => Promise<void>;
let dataDir: string;
let identity: SigningIdentity;
let root: string;
let tsa: LocalTimestampAuthority;

beforeAll(async () => {
  ({ dir, remove } = await tempDir('castpress-der-'));
  dataDir = path.join(dir, 'data');
  identity = await createSigningIdentity({ dataDir });
  root = await readFile(identity.files!.rootCertificate, 'utf8');
  tsa = await LocalTimestampAuthority.open({ dataDir });
  await writeFile(path.join(dir, 'data.txt'), 'der\n');
  const query = await tool('openssl', ['ts', '-query', '-data', 'data.txt', '-sha256', '-cert', '-out', 'req.tsq'], {
    cwd: dir,
  });
  if (query.code !== 0) throw new Error(query.stderr);
});
afterAll(async () => remove());

let n = 0;
/** OpenSSL reads `der` as CMS and writes it out again as DER: the same bytes when it was DER. */
async function opensslRewrites(der: Uint8Array): Promise<Buffer> {
  const input = path.join(dir, `in-${++n}.der`);
  const output = path.join(dir, `out-${n}.der`);
  await writeFile(input, der);
  const r = await tool('openssl', [
    'cms',
    '-cmsout',
    '-inform',
    'DER',
    '-outform',
    'DER',
    '-in',
    input,
    '-out',
    output,
  ]);
  expect(r.code, r.stderr).toBe(0);
  return readFile(output);
}

/** The token's TSTInfo: its eContent, read without PKI.js's help (the bytes as the token holds them). */
function eContentOf(token: Uint8Array): Uint8Array {
  const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(new Uint8Array(token)).result });
  const signed = new pkijs.SignedData({ schema: info.content });
  const eContent = signed.encapContentInfo.eContent!;
  expect(eContent.idBlock.isConstructed, 'eContent is a primitive OCTET STRING').toBe(false);
  return new Uint8Array(eContent.valueBlock.valueHexView);
}

async function expectDer(der: Uint8Array, what: string): Promise<void> {
  expect(derProblem(der), what).toBeUndefined();
  expect(
    Buffer.from(await opensslRewrites(der)).equals(Buffer.from(der)),
    `${what}: openssl re-encodes it unchanged`,
  ).toBe(true);
}

describe('DER everywhere castpress signs', () => {
  it("the built-in TSA's tokens, replies and rejections are DER", async () => {
    const token = await tsa.timestamp(new Uint8Array(32).fill(7), 'SHA-256');
    await expectDer(token, 'token');
    expect(derProblem(eContentOf(token)), 'TSTInfo').toBeUndefined();

    const reply = await tsa.respond(await readFile(path.join(dir, 'req.tsq')));
    expect(derProblem(reply), 'reply').toBeUndefined();
    const resp = pkijs.TimeStampResp.fromBER(new Uint8Array(reply));
    const replyToken = new Uint8Array(resp.timeStampToken!.toSchema().toBER(false));
    await expectDer(replyToken, 'token of a reply');
    expect(derProblem(eContentOf(replyToken)), 'TSTInfo of a reply').toBeUndefined();
    expect(derProblem(await tsa.respond(new Uint8Array([1, 2, 3]))), 'rejection').toBeUndefined();
  });

  it('the CMS of a certification, a signer revision, a timestamped seal and a document timestamp are DER', async () => {
    const signingTime = new Date();
    const certifier = await issueSignerIdentity(identity, { name: 'Certifier', now: signingTime });
    let pdf = await sealPdf(await makePdf(), certifier, { certify: 2, name: 'Certifier', signingTime });
    const ada = await issueSignerIdentity(identity, { name: 'Ada Lovelace', email: 'ada@example.com' });
    pdf = await sealRevision(pdf, ada, { name: 'Ada Lovelace' });
    pdf = await sealPdf(pdf, identity, { timestamp: { local: tsa }, name: 'Seal' });
    const report = await verifyPdf(pdf, { trustAnchors: [root] });
    expect(report.signatures.map((s) => s.kind)).toEqual(['signature', 'signature', 'signature', 'documentTimestamp']);
    expect(report.signatures[2]!.timestamp).toBeDefined();
    const cms = extractSignatures(pdf);
    expect(cms).toHaveLength(4);
    for (const [i, sig] of cms.entries()) await expectDer(sig.der, `signature #${i}`);
    expect(derProblem(eContentOf(cms[3]!.der)), 'TSTInfo of the document timestamp').toBeUndefined();
  });

  it('the tokens `castpress serve --tsa local` answers at POST /tsa are DER', async () => {
    const server = await startServer({
      noAuth: true,
      port: 0,
      renderPool: false,
      packets: { dataDir: path.join(dir, 'served'), tsa: 'local', deliver: false },
    });
    try {
      const reply = await fetch(`${server.url}/tsa`, {
        method: 'POST',
        body: await readFile(path.join(dir, 'req.tsq')),
        headers: { 'content-type': 'application/timestamp-query' },
      });
      expect(reply.status).toBe(200);
      const bytes = new Uint8Array(await reply.arrayBuffer());
      expect(derProblem(bytes), 'reply').toBeUndefined();
      const token = new Uint8Array(pkijs.TimeStampResp.fromBER(bytes).timeStampToken!.toSchema().toBER(false));
      await expectDer(token, 'served token');
      expect(derProblem(eContentOf(token)), 'served TSTInfo').toBeUndefined();
    } finally {
      await server.close();
    }
  }, 120_000);
});
