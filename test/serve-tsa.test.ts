/**
 * `castpress serve --tsa URL` end to end: the server (started as a user runs it, per-signer
 * signatures) timestamps its completion seals with an RFC 3161 TSA this test runs on loopback (the
 * built-in TSA of another install's local CA, answering over HTTP), allow-listed with `--allow-host`.
 * - A completed packet's seals carry that TSA's signature timestamp: verifyPdf reports the token
 *   (imprint matching, signed by that TSA) and a level of B-T or above; pdfsig reads every signature.
 * - The TSA down when the last signer finishes: their submit is a 502 (a SigningError on `timestamp`), nothing is
 *   stored (the signer is still to sign, the packet not complete); the same submit once the TSA is
 *   back completes the packet. See docs/reference/signatures.md, "A timestamp authority that is down".
 */
import { X509Certificate } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigningIdentity, LocalTimestampAuthority, verifyPdf } from '../src/signing/index.js';
import { closeServer } from './helpers/close.js';
import {
  downloadedDocuments,
  ok,
  signaturePacketVariables,
  signUrlOf,
  startPacketServe,
  submitTyped,
  type PacketServe,
} from './helpers/packet-serve.js';
import { pdfsig, tempDir } from './helpers/signing.js';

let tmp: { dir: string; remove: () => Promise<void> };
let served: PacketServe;
let tsaServer: http.Server;
let tsaRoot: string;
/** The TSA's install id (its certificates name it): not the server's own built-in TSA. */
let tsaInstall: string;
/** How the TSA answers: a timestamp, a 503, or the connection dropped. */
let mode: 'up' | '503' | 'drop' = 'up';
let requests = 0;

beforeAll(async () => {
  tmp = await tempDir('castpress-serve-tsa-');
  const tsaDir = path.join(tmp.dir, 'tsa');
  // Another install's local CA (the TSA's root is not the server's).
  const other = await createSigningIdentity({ dataDir: tsaDir });
  tsaRoot = await readFile(other.files!.rootCertificate, 'utf8');
  tsaInstall = /OU=install (\w+)/.exec(new X509Certificate(tsaRoot).subject)![1]!;
  const tsa = await LocalTimestampAuthority.open({ dataDir: tsaDir });
  tsaServer = http.createServer((req, res) => {
    requests++;
    if (mode === 'drop') {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (mode === '503') {
        res.writeHead(503).end('down for maintenance');
        return;
      }
      void tsa.respond(new Uint8Array(Buffer.concat(chunks))).then((answer) => {
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' });
        res.end(Buffer.from(answer));
      });
    });
  });
  await new Promise<void>((resolve) => tsaServer.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(tsaServer.address() as AddressInfo).port}`;
  served = await startPacketServe(tmp.dir, [
    '--signatures',
    'per-signer',
    '--tsa',
    `http://${host}/tsr`,
    '--allow-host',
    host,
  ]);
}, 120_000);

afterAll(async () => {
  await served?.close();
  await closeServer(tsaServer);
  await tmp?.remove();
}, 60_000);

describe('castpress serve --tsa URL', () => {
  it('timestamps the completion seals with that TSA; a TSA that is down refuses the last submit and keeps nothing', async () => {
    const created = ok(
      await served.client.createEtchPacket({
        variables: signaturePacketVariables('Timestamped', 'Timestamped terms.', [
          { id: 'ada', name: 'Ada Stamp', email: 'ada@example.com' },
          { id: 'bo', name: 'Bo Stamp', email: 'bo@example.com' },
        ]),
      }),
    ).createEtchPacket as { eid: string; documentGroup: { eid: string; signers: Array<{ eid: string }> } };
    const [ada, bo] = created.documentGroup.signers;
    const a = await submitTyped(served, await signUrlOf(served.client, ada!.eid, 'a-1'), 'Ada Stamp');
    expect(a.status, a.body).toBe(200);
    const boUrl = await signUrlOf(served.client, bo!.eid, 'b-1');

    // The TSA down (an HTTP 503, then the connection dropped): the completing submit is refused, typed.
    for (const down of ['503', 'drop'] as const) {
      mode = down;
      const before = requests;
      const refused = await submitTyped(served, boUrl, 'Bo Stamp');
      expect(refused.status, refused.body).toBe(502);
      // The page's answer: a signerError event with the typed error's name and message (no internal error).
      const { event } = JSON.parse(refused.body) as { event: { action: string; error: string; message: string } };
      expect(event, refused.body).toMatchObject({ action: 'signerError', error: 'SigningError' });
      expect(event.message, refused.body).toMatch(/timestamp/i);
      expect(requests, down).toBeGreaterThan(before);
      // Nothing stored: Bo is still to sign, the packet is not complete.
      const state = ok(
        await served.client.requestGraphQL({
          query: `query($eid: String!) { etchPacket(eid: $eid) { status documentGroup { signers { eid status } } } }`,
          variables: { eid: created.eid },
        }),
      ).etchPacket as { status: string; documentGroup: { signers: Array<{ eid: string; status: string }> } };
      expect(state.status).not.toBe('complete');
      expect(state.documentGroup.signers.find((s) => s.eid === bo!.eid)!.status).not.toBe('completed');
    }

    // The TSA back: the same submit completes the packet.
    mode = 'up';
    const b = await submitTyped(served, boUrl, 'Bo Stamp');
    expect(b.status, b.body).toBe(200);
    expect(JSON.parse(b.body).event.documentGroupStatus).toBe('completed');

    const entries = await downloadedDocuments(served.client, created.documentGroup.eid);
    const root = await readFile(path.join(served.dataDir, 'signing', 'root-ca.pem'), 'utf8');
    expect(Object.keys(entries)).toHaveLength(2);
    for (const [name, bytes] of Object.entries(entries)) {
      const report = await verifyPdf(bytes, { trustAnchors: [root, tsaRoot] });
      // The seal (the last signature; with the local CA's revocation data a document timestamp of the
      // same TSA may follow it, B-LTA): its signature timestamp is that TSA's.
      const seal = report.signatures.filter((x) => x.kind === 'signature').at(-1)!;
      expect(seal.signer?.commonName, name).toMatch(/^castpress local signer/);
      expect(seal.timestamp, name).toMatchObject({ imprintMatches: true, signatureValid: true });
      expect(seal.timestamp!.tsa, name).toContain(`castpress local timestamp authority ${tsaInstall}`);
      expect(['B-T', 'B-LT', 'B-LTA'], name).toContain(seal.padesLevel);
      for (const t of report.signatures.filter((x) => x.kind === 'documentTimestamp'))
        expect(t.signer?.subject, name).toContain(`castpress local timestamp authority ${tsaInstall}`);
      console.log(
        `${name}: ${report.signatures.map((x) => `${x.kind} ${x.signer?.commonName} ${x.padesLevel ?? ''}`).join(' | ')}`,
      );
      expect(report.wholeDocumentSigned || report.signatures.at(-1)!.kind === 'documentTimestamp', name).toBe(true);
      expect(report.valid, `${name}: ${report.problems.join('; ')}`).toBe(true);
      const file = path.join(tmp.dir, path.basename(name));
      await writeFile(file, bytes);
      const sig = await pdfsig(file);
      // pdfsig validates the CAdES signatures (the seal among them) and lists the document timestamp with
      // that TSA's certificate, whose RFC 3161 signature type it does not validate ("Unable to validate").
      const cades = sig.signatures.filter((x) => x.text.includes('Signature Type: ETSI.CAdES.detached'));
      expect(cades.length, sig.text).toBe(report.signatures.filter((x) => x.kind === 'signature').length);
      for (const x of cades) expect(x.valid, sig.text).toBe(true);
      const stamps = report.signatures.filter((x) => x.kind === 'documentTimestamp');
      if (stamps.length > 0) {
        expect(sig.signatures.at(-1)!.text, sig.text).toContain('Document timestamp');
        expect(sig.signatures.at(-1)!.text, sig.text).toContain(`Common Name: ${stamps.at(-1)!.signer!.commonName}`);
      }
    }
  }, 400_000);
});
