/**
 * Templates by reference (`duplicateCasts`), as a user meets it: `castpress serve
 * --templates DIR` started here, the unmodified `@anvilco/anvil` client, a new template version
 * published by writing `v2.json` (naming a new PDF) into the template's folder.
 * - By default a packet refers to its template: a version published after creation and before
 *   anyone signed is what the signing page serves; `duplicateCasts: true` keeps the version of
 *   creation.
 * - After the first signature a new version changes nothing, for the signers still to sign and
 *   in the completed documents.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageText } from './helpers/pdf.js';
import { startServe, type ServeProcess } from './helpers/serve.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

const Anvil = anvilModule.default;
const KEY = 'prod-byref-key-0123456789';
const CAST = 'termsByReference';
/** A second template, for the unseen-version case (its versions move independently of CAST's). */
const UNSEEN = 'termsUnseen';

let tmp: { dir: string; remove: () => Promise<void> };
let serve: ServeProcess;
let base = '';
type Client = InstanceType<typeof Anvil>;
let client: Client;

/** The template's PDF for `version`: its text names the version; one signature tag per signer. */
async function terms(version: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText(`Terms, version ${version}`, { x: 72, y: 720, size: 14, font });
  page.drawText('Ada: {{ signature ::: ada }}', { x: 72, y: 500, size: 12, font });
  page.drawText('Bob: {{ signature ::: bob }}', { x: 72, y: 400, size: 12, font });
  return doc.save();
}

/** Publishes version `n` of the template: its PDF and `v<n>.json`, as an operator adds a version. */
async function publish(n: number, version: string, cast = CAST): Promise<void> {
  const folder = path.join(tmp.dir, 'templates', cast);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, `terms-v${n}.pdf`), await terms(version));
  await writeFile(
    path.join(folder, `v${n}.json`),
    JSON.stringify({ title: 'Terms', pdf: `terms-v${n}.pdf`, fields: [] }),
  );
}

beforeAll(async () => {
  tmp = await tempDir('castpress-byref-');
  await publish(1, 'ONE');
  await publish(1, 'ONE', UNSEEN);
  await writeFile(path.join(tmp.dir, 'keys.json'), JSON.stringify({ keys: [{ key: KEY, kind: 'production' }] }));
  serve = startServe([
    '--port',
    '0',
    '--keys',
    path.join(tmp.dir, 'keys.json'),
    '--data',
    path.join(tmp.dir, 'data'),
    '--templates',
    path.join(tmp.dir, 'templates'),
  ]);
  base = await serve.url;
  client = new Anvil({ apiKey: KEY, baseURL: base });
}, 120_000);

afterAll(async () => {
  if (serve && serve.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  await tmp?.remove();
}, 60_000);

interface Created {
  eid: string;
  documentGroup: { eid: string; signers: Array<{ eid: string; aliasId: string }> };
}
type Answer = { statusCode: number; data?: { data?: Record<string, unknown> }; errors?: unknown[] };

const ok = (r: unknown): Record<string, unknown> => {
  const a = r as Answer;
  expect(a.errors, JSON.stringify(a.errors)).toBeUndefined();
  expect(a.statusCode).toBe(200);
  return a.data!.data!;
};

/** A sent packet of the template for two embedded signers, Ada then Bob. */
async function packet(name: string, extra: Record<string, unknown>): Promise<Created> {
  const signer = (id: string, who: string, routingOrder: number) => ({
    id,
    name: who,
    email: `${id}@example.com`,
    signerType: 'embedded',
    routingOrder,
    fields: [],
  });
  return ok(
    await client.createEtchPacket({
      variables: {
        name,
        isDraft: false,
        isTest: true,
        files: [{ id: 'terms', castEid: CAST }],
        signers: [signer('ada', 'Ada Lovelace', 1), signer('bob', 'Bob Babbage', 2)],
        ...extra,
      },
    }),
  ).createEtchPacket as Created;
}

const signerEid = (p: Created, alias: string) => p.documentGroup.signers.find((s) => s.aliasId === alias)!.eid;

async function signUrl(eid: string): Promise<{ signerEid: string; token: string }> {
  const r = await client.generateEtchSignUrl({ variables: { signerEid: eid, clientUserId: `user-${eid}` } });
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return tokenOf(r.url!);
}

/** Opens the signing page as a browser does, then reads the document it serves: its first page's text. */
async function shown(link: { signerEid: string; token: string }): Promise<string> {
  const page = await fetch(`${base}/sign/${link.signerEid}?token=${link.token}`);
  expect(page.status, await page.clone().text()).toBe(200);
  const doc = await fetch(`${base}/sign/${link.signerEid}/documents/0?token=${link.token}`);
  expect(doc.status).toBe(200);
  return (await pageText(new Uint8Array(await doc.arrayBuffer())))[0]!;
}

/** The signer finishes as the signing page does: a typed signature, their box accepted. */
async function sign(
  link: { signerEid: string; token: string },
  fieldId: string,
  name: string,
  documentsVersion?: string,
  status = 200,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}/sign/${link.signerEid}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({
      token: link.token,
      signature: { type: 'typed', text: name },
      accepted: [{ document: 0, fieldId }],
      ...(documentsVersion ? { documentsVersion } : {}),
    }),
  });
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as Record<string, unknown>;
}

/** The `documentsVersion` the signing page's settings carry (what its script sends with the submission). */
async function pageDocumentsVersion(link: { signerEid: string; token: string }): Promise<string> {
  const html = await (await fetch(`${base}/sign/${link.signerEid}?token=${link.token}`)).text();
  const found = /"documentsVersion":"([0-9a-f]+)"/.exec(html);
  expect(found, 'the page settings name the documents version').not.toBeNull();
  return found![1]!;
}

describe('templates by reference (duplicateCasts)', () => {
  it('a version published before anyone signed changes a by-reference packet, not a duplicateCasts one; after the first signature nothing changes', async () => {
    const byRef = await packet('By reference', {});
    const frozen = await packet('Frozen', { duplicateCasts: true });
    const adaRef = await signUrl(signerEid(byRef, 'ada'));
    const adaFrozen = await signUrl(signerEid(frozen, 'ada'));
    expect(await shown(adaRef)).toContain('Terms, version ONE');
    expect(await shown(adaFrozen)).toContain('Terms, version ONE');

    // Version 2 published after creation, before anyone signed.
    await publish(2, 'TWO');
    expect(await shown(adaRef)).toContain('Terms, version TWO');
    const frozenText = await shown(adaFrozen);
    expect(frozenText).toContain('Terms, version ONE');
    expect(frozenText).not.toContain('TWO');

    // The same link still works (tokens and states kept), and Ada signs version 2.
    await sign(adaRef, 'signature1', 'Ada Lovelace');
    const status = ok(
      await client.getEtchPacket({
        variables: { eid: byRef.eid },
        responseQuery: '{ eid status documentGroup { signers { aliasId status } } }',
      }),
    ).etchPacket as { status: string; documentGroup: { signers: Array<{ aliasId: string; status: string }> } };
    expect(status.status).toBe('partial');
    expect(status.documentGroup.signers.map((s) => [s.aliasId, s.status])).toEqual([
      ['ada', 'completed'],
      ['bob', 'sent'],
    ]);

    // Version 3 after the first signature: Bob still sees (and signs) what Ada signed.
    await publish(3, 'THREE');
    const bob = await signUrl(signerEid(byRef, 'bob'));
    const bobText = await shown(bob);
    expect(bobText).toContain('Terms, version TWO');
    expect(bobText).not.toContain('THREE');
    await sign(bob, 'signature2', 'Bob Babbage');

    // The completed documents are version 2; the frozen packet still shows version 1.
    const zip = await fetch(`${base}/api/document-group/${byRef.documentGroup.eid}.zip`, {
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}` },
    });
    expect(zip.status).toBe(200);
    const entries = Object.values(unzipSync(new Uint8Array(await zip.arrayBuffer())));
    expect(entries).toHaveLength(1);
    const signedText = (await pageText(entries[0]!))[0]!;
    expect(signedText).toContain('Terms, version TWO');
    expect(signedText).not.toContain('THREE');
    expect(await shown(adaFrozen)).toContain('Terms, version ONE');
  }, 240_000);

  it('a page opened before a newer version was taken cannot sign it unseen: 409 on documentsVersion, then signs after a reload', async () => {
    const p = await packet('Unseen', { files: [{ id: 'terms', castEid: UNSEEN }] });
    const ada = await signUrl(signerEid(p, 'ada'));
    const opened = await pageDocumentsVersion(ada);
    expect(await shown(ada)).toContain('Terms, version ONE');
    // Version 2 published while Ada's page is open; the caller's read takes it.
    await publish(2, 'TWO', UNSEEN);
    ok(await client.getEtchPacket({ variables: { eid: p.eid }, responseQuery: '{ eid status }' }));
    const refused = await sign(ada, 'signature1', 'Ada Lovelace', opened, 409);
    expect(JSON.stringify(refused)).toContain('reload the page');
    // Nothing was signed; after a reload the page shows version 2 and signing goes through.
    const reloaded = await pageDocumentsVersion(ada);
    expect(reloaded).not.toBe(opened);
    expect(await shown(ada)).toContain('Terms, version TWO');
    await sign(ada, 'signature1', 'Ada Lovelace', reloaded);
  }, 240_000);
});
