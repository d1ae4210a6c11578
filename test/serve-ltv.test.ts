/**
 * Long-term validation reached end to end. `castpress serve --signatures per-signer --tsa
 * local`: the certification at send and each signer's signature carry a signature timestamp of the
 * built-in TSA (B-T); completion adds one DSS whose CRL was issued after the last signature's
 * timestamp (B-LT) and then a document timestamp (B-LTA). verifyPdf, offline, with the local root
 * and revocation checking required, says every signature of every file is valid at B-LTA; pdfsig
 * (NSS trusting the root) validates every CAdES signature; openssl reads the DSS's CRL.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDss } from '../src/pdf/index.js';
import { verifyPdf } from '../src/signing/index.js';
import {
  downloadedDocuments,
  ok,
  signaturePacketVariables,
  signUrlOf,
  startPacketServe,
  submitTyped,
  type PacketServe,
} from './helpers/packet-serve.js';
import { nssDbTrusting, pdfsig, tempDir, tool } from './helpers/signing.js';

let tmp: { dir: string; remove: () => Promise<void> };
let served: PacketServe;

beforeAll(async () => {
  tmp = await tempDir('castpress-serve-ltv-');
  served = await startPacketServe(tmp.dir, ['--signatures', 'per-signer', '--tsa', 'local']);
}, 120_000);
afterAll(async () => {
  await served?.close();
  await tmp?.remove();
}, 60_000);

describe('castpress serve --signatures per-signer --tsa local', () => {
  it('reaches PAdES B-LTA for every signature, the DSS gathered after the last one', async () => {
    const created = ok(
      await served.client.createEtchPacket({
        variables: signaturePacketVariables('Long-term', 'Kept for years.', [
          { id: 'ada', name: 'Ada Archive', email: 'ada@example.com' },
          { id: 'bo', name: 'Bo Archive', email: 'bo@example.com' },
        ]),
      }),
    ).createEtchPacket as { documentGroup: { eid: string; signers: Array<{ eid: string }> } };
    const [ada, bo] = created.documentGroup.signers;
    for (const [signer, text] of [
      [ada!, 'Ada Archive'],
      [bo!, 'Bo Archive'],
    ] as const) {
      const r = await submitTyped(served, await signUrlOf(served.client, signer.eid, `${text}-1`), text);
      expect(r.status, r.body).toBe(200);
    }

    const entries = await downloadedDocuments(served.client, created.documentGroup.eid);
    expect(Object.keys(entries)).toHaveLength(2);
    const rootFile = path.join(served.dataDir, 'signing', 'root-ca.pem');
    const root = await readFile(rootFile, 'utf8');
    const nss = await nssDbTrusting(tmp.dir, rootFile);
    for (const [name, bytes] of Object.entries(entries)) {
      const report = await verifyPdf(bytes, { trustAnchors: [root], requireRevocation: true });
      expect(report.valid, `${name}: ${report.problems.join('; ')}`).toBe(true);
      const signatures = report.signatures.filter((s) => s.kind === 'signature');
      const names = signatures.map((s) => s.signer?.commonName);
      if (/terms/.test(name))
        expect(names).toEqual([
          'castpress certification',
          'Ada Archive',
          'Bo Archive',
          expect.stringMatching(/^castpress local signer/),
        ]);
      else expect(names).toEqual([expect.stringMatching(/^castpress local signer/)]);
      expect(report.signatures.at(-1)!.kind, name).toBe('documentTimestamp');
      for (const s of signatures) {
        const who = `${name}: ${s.signer?.commonName}`;
        expect(s.padesLevel, who).toBe('B-LTA');
        expect(s.timestamp, who).toMatchObject({ trusted: true, imprintMatches: true, signatureValid: true });
        expect(s.validityPeriod.timeSource, who).toBe('timestamp');
        expect(s.revocation?.status, who).toBe('good');
      }
      // One DSS, after the last signature: its CRL was issued at or after every signature timestamp.
      const lastSigned = Math.max(...signatures.map((s) => s.timestamp!.time.getTime()));
      const dss = await readDss(bytes);
      expect(dss.crls.length, name).toBeGreaterThan(0);
      for (const der of dss.crls) {
        const crl = pkijs.CertificateRevocationList.fromBER(new Uint8Array(der));
        expect(crl.thisUpdate.value.getTime(), name).toBeGreaterThanOrEqual(lastSigned);
        const file = path.join(tmp.dir, `dss-${path.basename(name)}.crl`);
        await writeFile(file, der);
        const read = await tool('openssl', ['crl', '-inform', 'DER', '-in', file, '-CAfile', rootFile, '-noout']);
        expect(read.stdout + read.stderr).toContain('verify OK');
      }
      const stampsAfter = report.signatures.filter((s) => s.kind === 'documentTimestamp');
      expect(stampsAfter.every((s) => s.valid)).toBe(true);
      const file = path.join(tmp.dir, path.basename(name));
      await writeFile(file, bytes);
      const sig = await pdfsig(file, nss);
      const cades = sig.signatures.filter((x) => x.text.includes('Signature Type: ETSI.CAdES.detached'));
      expect(cades.length, sig.text).toBe(signatures.length);
      for (const x of cades) expect(x.valid && x.trusted, sig.text).toBe(true);
    }
  }, 300_000);
});
