/**
 * Uploads encrypted with an empty user password (an owner password only: every viewer opens them)
 * through `castpress serve` in both signature modes: the packet takes them, its signer
 * submits as the signing page does, the packet completes and every signature of its documents
 * verifies (verifyPdf with the server's local root, and pdfsig with NSS trusting it). The packet
 * signs the decrypted document. One upload carries the signer's field, the other none (a document
 * only sealed). An upload that needs a password to open is refused at creation on `files[i].file`, and
 * one signed elsewhere (decrypting it would break that signature) on `files[i]`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigningIdentity, sealPdf, verifyPdf } from '../src/signing/index.js';
import {
  Anvil,
  downloadedDocuments,
  ok,
  signUrlOf,
  startPacketServe,
  type PacketServe,
} from './helpers/packet-serve.js';
import { makePdf, nssDbTrusting, pdfsig, tempDir, tool } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

let tmp: { dir: string; remove: () => Promise<void> };
let ownerOnly: Uint8Array;
let userPassword: Uint8Array;
let signedElsewhere: Uint8Array;

/** qpdf's AES-256 encryption of `pdf` with these user and owner passwords. */
async function encrypted(pdf: Uint8Array, user: string, name: string): Promise<Uint8Array> {
  const plain = path.join(tmp.dir, `${name}-plain.pdf`);
  const out = path.join(tmp.dir, `${name}.pdf`);
  await writeFile(plain, pdf);
  const r = await tool('qpdf', ['--encrypt', user, 'owner-secret', '256', '--', plain, out]);
  expect(r.code, r.stderr).toBe(0);
  const bytes = new Uint8Array(await readFile(out));
  // Really encrypted: qpdf reports it, and the page's text is not in the bytes.
  expect((await tool('qpdf', ['--show-encryption', out])).stdout).toMatch(/R = 6/);
  expect(Buffer.from(bytes).includes('Encrypted contract')).toBe(false);
  return bytes;
}

beforeAll(async () => {
  tmp = await tempDir('castpress-serve-encrypted-');
  ownerOnly = await encrypted(await makePdf(1, 'Encrypted contract'), '', 'owner-only');
  userPassword = await encrypted(await makePdf(1, 'Encrypted contract'), 'user-secret', 'user-password');
  const other = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'other-party') });
  const sealed = await sealPdf(await makePdf(1, 'Encrypted contract'), other, { name: 'Other party' });
  signedElsewhere = await encrypted(sealed, '', 'signed-elsewhere');
}, 60_000);

afterAll(async () => {
  await tmp?.remove();
}, 60_000);

const upload = (id: string, pdf: Uint8Array, fields: unknown[]) => ({
  id,
  title: id,
  file: Anvil.prepareGraphQLFile(Buffer.from(pdf), { filename: `${id}.pdf`, mimetype: 'application/pdf' }),
  fields,
});

describe.each(['seal', 'per-signer'] as const)('castpress serve --signatures %s, an encrypted upload', (mode) => {
  let served: PacketServe;
  beforeAll(async () => {
    served = await startPacketServe(path.join(tmp.dir), ['--signatures', mode, '--data', path.join(tmp.dir, mode)]);
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  }, 60_000);

  it('is signed decrypted: the packet completes and every signature verifies', async () => {
    const created = ok(
      await served.client.createEtchPacket({
        variables: {
          name: `Encrypted (${mode})`,
          isDraft: false,
          isTest: true,
          files: [
            upload('contract', ownerOnly, [
              { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 500, width: 200, height: 30 } },
            ]),
            upload('annex', ownerOnly, []),
          ],
          signers: [
            {
              id: 'ada',
              name: 'Ada Lovelace',
              email: 'ada@example.com',
              signerType: 'embedded',
              acceptEachField: false,
              fields: [{ fileId: 'contract', fieldId: 'sig' }],
            },
          ],
        },
      }),
    ).createEtchPacket as { documentGroup: { eid: string; signers: Array<{ eid: string }> } };
    const { signerEid, token } = tokenOf(
      await signUrlOf(served.client, created.documentGroup.signers[0]!.eid, 'ada-1'),
    );
    const res = await fetch(`${served.base}/sign/${encodeURIComponent(signerEid)}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: served.base },
      body: JSON.stringify({ token, signature: { type: 'typed', text: 'Ada Lovelace' }, accepted: [] }),
    });
    const body = await res.text();
    expect(res.status, body).toBe(200);
    expect(JSON.parse(body).event.documentGroupStatus).toBe('completed');

    const signing = path.join(tmp.dir, mode, 'signing');
    const rootPem = await readFile(path.join(signing, 'root-ca.pem'), 'utf8');
    const nss = await nssDbTrusting(path.join(tmp.dir, mode), path.join(signing, 'root-ca.pem'));
    const entries = await downloadedDocuments(served.client, created.documentGroup.eid);
    const names = Object.keys(entries);
    expect(names.filter((n) => /contract|annex/.test(n))).toHaveLength(2);
    for (const [name, bytes] of Object.entries(entries)) {
      const report = await verifyPdf(bytes, { trustAnchors: [rootPem] });
      expect(report.signatures.length, name).toBeGreaterThan(0);
      expect(report.problems, name).toEqual([]);
      expect(report.valid, name).toBe(true);
      expect(report.signatures.at(-1)!.coversWholeDocument, name).toBe(true);
      if (mode === 'per-signer' && name.includes('contract'))
        expect(report.signatures.map((s) => s.signer?.commonName)).toContain('Ada Lovelace');
      const file = path.join(tmp.dir, mode, `out-${name.replace(/[^a-z0-9.]/gi, '_')}`);
      await writeFile(file, bytes);
      const sig = await pdfsig(file, nss);
      expect(sig.signatures.length, sig.text).toBe(report.signatures.length);
      for (const s of sig.signatures) expect([s.valid, s.trusted], sig.text).toEqual([true, true]);
      // The signed document is the decrypted one: no encryption dictionary, the page's text readable.
      expect((await tool('qpdf', ['--show-encryption', file])).stdout, name).toMatch(/not encrypted/);
    }
  }, 300_000);

  it('refuses an upload that needs a password to open, naming files[1].file', async () => {
    const answer = (await served.client.createEtchPacket({
      variables: {
        name: 'Locked',
        isDraft: false,
        isTest: true,
        files: [upload('cover', await makePdf(1, 'Cover'), []), upload('locked', userPassword, [])],
        signers: [
          {
            id: 'ada',
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            signerType: 'embedded',
            fields: [],
          },
        ],
      },
    })) as { statusCode: number; errors?: unknown[] };
    expect(answer.statusCode, JSON.stringify(answer.errors)).toBe(422);
    expect(answer.errors?.[0]).toMatchObject({
      extensions: {
        name: 'InvalidPdfError',
        fields: [{ property: 'files[1].file', message: expect.stringMatching(/password/) }],
      },
    });
  }, 60_000);

  it('refuses an encrypted upload signed elsewhere, naming files[1]: decrypting it would break that signature', async () => {
    const answer = (await served.client.createEtchPacket({
      variables: {
        name: 'Signed elsewhere',
        isDraft: false,
        isTest: true,
        files: [upload('cover', await makePdf(1, 'Cover'), []), upload('signed', signedElsewhere, [])],
        signers: [{ id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com', signerType: 'embedded', fields: [] }],
      },
    })) as { statusCode: number; errors?: unknown[] };
    expect(answer.statusCode, JSON.stringify(answer.errors)).toBe(400);
    expect(answer.errors?.[0]).toMatchObject({
      extensions: {
        name: 'ValidationError',
        fields: [{ property: 'files[1]', message: expect.stringMatching(/encryption to remove/) }],
      },
    });
  }, 60_000);
});
