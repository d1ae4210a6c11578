/**
 * Uploads signed elsewhere that the packet would change at assembly: merged with another
 * file (mergePDFs: a new file), fields to fill on it (a request field or a fill-type text tag: the fill
 * engine draws them as page content and rewrites the form, dropping the signature field), active
 * content to remove (a rewrite). Each is a 400 ValidationError on `files[i]` of the signed upload (here
 * the second file, not files[0]) at creation, in both signature modes (at assembly, before any record
 * is made). Before, both modes took them and the foreign signature no longer held (per-signer mode even
 * certified the filled file: the signature field was gone, so it looked unsigned). An upload certified
 * P=1 elsewhere (refused when the packet is sent) names its own index too; one that only gets
 * signature fields is taken, its signature intact.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { createPacketWorkflow, openSqliteStore, type PacketStore, type PacketWorkflow } from '../src/packets/index.js';
import { createSigningIdentity, sealPdf, verifyPdf, type SigningIdentity } from '../src/signing/index.js';
import { activeContentPdf } from './helpers/active-pdf.js';
import { makePdf, tempDir } from './helpers/signing.js';

let tmp: { dir: string; remove: () => Promise<void> };
let engine: Engine;
let store: PacketStore;
let other: SigningIdentity;
const flows: Record<'per-signer' | 'seal', PacketWorkflow> = {} as Record<'per-signer' | 'seal', PacketWorkflow>;

beforeAll(async () => {
  tmp = await tempDir('castpress-signed-uploads-');
  await mkdir(path.join(tmp.dir, 'templates'), { recursive: true });
  engine = createEngine({ templates: path.join(tmp.dir, 'templates') });
  store = await openSqliteStore({ dir: path.join(tmp.dir, 'store') });
  const identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'ours') });
  other = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'theirs') });
  for (const signatures of ['per-signer', 'seal'] as const)
    flows[signatures] = createPacketWorkflow({
      store,
      engine,
      identity,
      baseUrl: 'http://castpress.test',
      mailDir: path.join(tmp.dir, 'mail'),
      deliver: false,
      signatures,
    });
}, 120_000);

afterAll(async () => {
  for (const f of Object.values(flows)) await f.close();
  await store?.close();
  await engine?.close();
  await tmp?.remove();
}, 60_000);

/** A one-page PDF with a text tag of a fill type (the signer's company, filled at assembly). */
async function taggedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Contract signed by the other party', { x: 72, y: 720, size: 12, font });
  page.drawText('Company: {{ shortText : Company : company }}', { x: 72, y: 600, size: 12, font });
  return doc.save({ useObjectStreams: false });
}

const signedBy = async (pdf: Uint8Array, certify?: 1) =>
  sealPdf(pdf, other, { name: 'Other party', ...(certify ? { certify } : {}) });

const cover = { id: 'cover', filename: 'cover.pdf', title: 'Cover', fields: [{ content: 'Cover letter.' }] };
const upload = (pdf: Uint8Array, fields: unknown[] = []) => ({
  id: 'contract',
  title: 'Contract',
  file: { data: Buffer.from(pdf).toString('base64'), filename: 'contract.pdf', mimetype: 'application/pdf' },
  fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 500, width: 200, height: 30 } }, ...fields],
});
const signers = [
  {
    id: 'ada',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    signerType: 'embedded',
    fields: [{ fileId: 'contract', fieldId: 'sig' }],
  },
];

describe('an upload signed elsewhere that assembly would change', () => {
  it.each(['per-signer', 'seal'] as const)(
    'is a 400 on files[1], the signed upload (%s mode)',
    async (mode) => {
      const s = flows[mode].service;
      const plain = await signedBy(await makePdf(1, 'Contract signed by the other party'));
      const company = { id: 'company', type: 'shortText', pageNum: 0, rect: { x: 72, y: 560, width: 200, height: 20 } };
      const cases: Array<[string, Record<string, unknown>, RegExp]> = [
        ['merged', { files: [cover, upload(plain)], mergePDFs: true }, /merged with the other files/],
        [
          'a fill field',
          {
            files: [cover, upload(plain, [company])],
            data: { payloads: { contract: { data: { company: 'Example Ltd' } } } },
          },
          /fields to fill on it/,
        ],
        ['a fill-type text tag', { files: [cover, upload(await signedBy(await taggedPdf()))] }, /fields to fill on it/],
        ['active content', { files: [cover, upload(await signedBy(await activeContentPdf()))] }, /active content/],
      ];
      for (const [what, body, message] of cases) {
        const refused = await s
          .createEtchPacket({ name: `Refused: ${what}`, signers, ...body })
          .catch((e: unknown) => e);
        expect(refused, what).toMatchObject({
          name: 'ValidationError',
          status: 400,
          fields: [{ property: 'files[1]', message: expect.stringMatching(message) }],
        });
      }
    },
    300_000,
  );

  it('certified P=1 elsewhere: refused when the packet is sent, naming files[1]', async () => {
    const locked = await signedBy(await makePdf(1, 'No changes allowed'), 1);
    await expect(
      flows['per-signer'].service.createEtchPacket({ name: 'Locked', files: [cover, upload(locked)], signers }),
    ).rejects.toMatchObject({
      name: 'ValidationError',
      fields: [{ property: 'files[1]', message: expect.stringMatching(/signature that signing it here would break/) }],
    });
  }, 120_000);

  it('an upload that only gets signature fields is taken, its signature intact', async () => {
    const theirs = await signedBy(await makePdf(1, 'Contract signed by the other party'));
    const created = await flows['per-signer'].service.createEtchPacket({
      name: 'Taken',
      files: [cover, upload(theirs)],
      signers,
    });
    const docs = await flows['per-signer'].service.groupDocuments(created.documentGroup.eid);
    const contract = docs.find((d) => d.filename === 'contract.pdf')!;
    const report = await verifyPdf(contract.pdf);
    expect(report.signatures[0]!.signer?.commonName).toMatch(/^castpress local signer/);
    expect(report.signatures[0]!.integrity.intact).toBe(true);
    expect(report.signatures[0]!.modifications.ok, report.signatures[0]!.modifications.reason).toBe(true);
  }, 120_000);
});
