/**
 * The CRL address follows the server's public URL. The local CA is made on the first
 * start; certificates issued afterwards (each signer's, the certification's) and the CA's own
 * signing certificate (the final seal) name `<base URL>/signing/crl/<install id>.crl` of the
 * server that signs now, not of the first start: `castpress serve` started twice on one data
 * folder, the second time on another port with `--public-url`. Every certificate of the second
 * packet names the second address, and the CRL is served there (openssl verifies it with the root).
 */
import { createServer } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  downloadedDocuments,
  ok,
  signaturePacketVariables,
  signUrlOf,
  startPacketServe,
  submitTyped,
  type PacketServe,
} from './helpers/packet-serve.js';
import { extractSignatures, tempDir, tool } from './helpers/signing.js';

let tmp: { dir: string; remove: () => Promise<void> };
let served: PacketServe | undefined;

beforeAll(async () => {
  tmp = await tempDir('castpress-serve-crl-url-');
});
afterAll(async () => {
  await served?.close();
  await tmp?.remove();
}, 60_000);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A one-signer packet completed through the server; its document and certificate of completion. */
async function completedPacket(s: PacketServe, name: string): Promise<Uint8Array[]> {
  const created = ok(
    await s.client.createEtchPacket({
      variables: signaturePacketVariables(name, 'Terms.', [
        { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
      ]),
    }),
  ).createEtchPacket as { documentGroup: { eid: string; signers: Array<{ eid: string }> } };
  const url = await signUrlOf(s.client, created.documentGroup.signers[0]!.eid, 'u-1');
  const res = await submitTyped(s, url, 'Ada Lovelace');
  expect(res.status, res.body).toBe(200);
  return Object.values(await downloadedDocuments(s.client, created.documentGroup.eid));
}

let n = 0;
/** The CRL distribution point each certificate in the document's signatures names, by subject CN (openssl's reading). */
async function crlUrlsOf(pdf: Uint8Array): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  for (const sig of extractSignatures(pdf)) {
    const file = path.join(tmp.dir, `cms-${++n}.der`);
    await writeFile(file, sig.der);
    const printed = await tool('openssl', ['pkcs7', '-inform', 'DER', '-in', file, '-print_certs', '-text', '-noout']);
    expect(printed.code, printed.stderr).toBe(0);
    for (const block of printed.stdout.split(/^Certificate:$/m).slice(1)) {
      const cn = /Subject:.*CN ?= ?([^,\n]+)/.exec(block)?.[1]?.trim();
      if (!cn || cn.startsWith('castpress local root CA')) continue;
      out.set(cn, /X509v3 CRL Distribution Points:[\s\S]*?URI:(\S+)/.exec(block)?.[1]);
    }
  }
  return out;
}

describe('the CRL address of castpress serve', () => {
  it('follows the public URL: certificates issued after a restart on another address name the new one, which serves the CRL', async () => {
    served = await startPacketServe(tmp.dir, ['--signatures', 'per-signer']);
    const first = await completedPacket(served, 'First start');
    const installId = (await readFile(path.join(served.dataDir, 'signing', 'install-id'), 'utf8')).trim();
    const firstUrl = `${served.base}/signing/crl/${installId}.crl`;
    const firstNames = await crlUrlsOf(first[0]!);
    expect([...firstNames.keys()].sort()).toEqual(
      ['Ada Lovelace', 'castpress certification', `castpress local signer ${installId}`].sort(),
    );
    for (const [cn, url] of firstNames) expect(url, cn).toBe(firstUrl);
    await served.close();

    // Another port, and a public URL spelled differently from the address listened on.
    const port = await freePort();
    const publicUrl = `http://localhost:${port}`;
    served = await startPacketServe(tmp.dir, [
      '--signatures',
      'per-signer',
      '--port',
      String(port),
      '--public-url',
      publicUrl,
      // Visible signatures on the worker threads too (test/signing-visible.test.ts has the details).
      '--signature-details',
    ]);
    const second = await completedPacket(served, 'Second start');
    const secondUrl = `${publicUrl}/signing/crl/${installId}.crl`;
    expect(secondUrl).not.toBe(firstUrl);
    for (const pdf of second) {
      const names = await crlUrlsOf(pdf);
      expect(names.size).toBeGreaterThan(0);
      for (const [cn, url] of names) expect(url, cn).toBe(secondUrl);
    }
    const shown = path.join(tmp.dir, 'second.pdf');
    await writeFile(shown, second[0]!);
    const drawn = await tool('mutool', ['draw', '-F', 'txt', '-o', '-', shown]);
    expect(drawn.stdout.replace(/\s+/g, ' ')).toContain('Digitally signed by Ada Lovelace');
    // The address is served: the CRL, signed by the root.
    const crl = await fetch(secondUrl);
    expect(crl.status).toBe(200);
    await writeFile(path.join(tmp.dir, 'second.crl'), new Uint8Array(await crl.arrayBuffer()));
    const root = path.join(served.dataDir, 'signing', 'root-ca.pem');
    const text = await tool('openssl', [
      'crl',
      '-inform',
      'DER',
      '-in',
      path.join(tmp.dir, 'second.crl'),
      '-CAfile',
      root,
      '-noout',
    ]);
    expect(text.stdout + text.stderr).toContain('verify OK');
  }, 300_000);
});
