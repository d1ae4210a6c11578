/**
 * A template's own signing fields in a packet that uses it by reference, as a user meets it:
 * `castpress serve` in both signature modes, per-signer and the server's default one seal
 * (started here, `--templates` in a temp folder whose Cast holds signature, initial and
 * signatureDate boxes beside a name to fill), the unmodified
 * `@anvilco/anvil` client creating a packet with `files: [{id, castEid}]` and signers who take the
 * template's boxes through `fields: [{fileId, fieldId}]` (fieldId = the template field's id), as
 * an upload's fields are taken. The signing page lists each signer's boxes at the template's
 * rects; the signers submit as the page does (one draws, one types). The signed document's
 * signatures verify (verifyPdf with the server's local root, pdfsig with NSS trusting it), each
 * signer's mark has ink inside the template field's rect (poppler's render; per signer, the mark
 * is a field with exactly that rect),
 * the signing date is printed inside its box in the template's format, and a box given to
 * nobody is left blank, with no empty signature field left over. Through the library: a payload
 * value never fills a signing box, and the template's boxes count toward a document's limit.
 */
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { assemblePacket } from '../src/packets/index.js';
import { verifyPdf } from '../src/signing/index.js';
import {
  Anvil,
  downloadedDocuments,
  ok,
  signUrlOf,
  startPacketServe,
  type PacketServe,
} from './helpers/packet-serve.js';
import { pageText, qpdfFields, readFields } from './helpers/pdf.js';
import { popplerInkIn } from './helpers/render.js';
import { nssDbTrusting, pdfsig, tempDir, tool } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

const CAST = 'contractWithBoxes';
const r = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
/** The template's fields: what the dashboard saves for a Cast with signing boxes. */
const FIELDS = [
  { id: 'clientNameField', alias: 'clientName', type: 'shortText', pageNum: 0, rect: r(72, 120, 250, 18) },
  { id: 'clientSig', type: 'signature', pageNum: 0, rect: r(72, 300, 220, 50) },
  { id: 'clientIni', type: 'initial', pageNum: 0, rect: r(320, 300, 60, 36) },
  { id: 'clientDate', type: 'signatureDate', pageNum: 0, rect: r(400, 310, 160, 20), format: 'MMMM D, YYYY' },
  { id: 'providerSig', type: 'signature', pageNum: 0, rect: r(72, 420, 220, 50) },
  { id: 'witnessSig', type: 'signature', pageNum: 0, rect: r(320, 420, 220, 50) },
] as const;
const rectOf = (id: string) => FIELDS.find((f) => f.id === id)!.rect;
/** A top-left rect as a widget's /Rect on the 612 × 792 page: [x1, y1, x2, y2]. */
const pdfRect = (rect: { x: number; y: number; width: number; height: number }) => [
  rect.x,
  792 - rect.y - rect.height,
  rect.x + rect.width,
  792 - rect.y,
];

let tmp: { dir: string; remove: () => Promise<void> };
const servers: PacketServe[] = [];

beforeAll(async () => {
  tmp = await tempDir('castpress-template-signature-');
  const folder = path.join(tmp.dir, 'templates', CAST);
  await mkdir(folder, { recursive: true });
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Service contract', { x: 72, y: 720, size: 14, font });
  await writeFile(path.join(folder, 'template.pdf'), await doc.save());
  await writeFile(path.join(folder, 'v1.json'), JSON.stringify({ title: 'Service contract', fields: FIELDS }));
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  await tmp?.remove();
}, 60_000);

/** A server of its own folder (`--data`) on the shared templates, in `mode`. */
async function serveIn(mode: 'per-signer' | 'seal'): Promise<PacketServe> {
  const dir = path.join(tmp.dir, mode);
  await mkdir(dir, { recursive: true });
  const served = await startPacketServe(dir, ['--templates', path.join(tmp.dir, 'templates'), '--signatures', mode]);
  servers.push(served);
  return served;
}

interface Box {
  document: number;
  fieldId: string;
  type: string;
  page: number;
  rect: { x: number; y: number; width: number; height: number };
}

/** The signing page as a browser opens it, and the boxes its settings place. */
async function pageBoxes(url: string): Promise<Box[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const html = await res.text();
  const cfg = /<script type="application\/json" id="cfg">([\s\S]*?)<\/script>/.exec(html);
  expect(cfg, 'the page carries its settings').not.toBeNull();
  return (JSON.parse(cfg![1]!) as { boxes: Box[] }).boxes;
}

/** The signer finishes as the signing page does: their signature, each signature and initials box accepted. */
async function submit(
  base: string,
  url: string,
  signature: unknown,
  accepted: string[],
): Promise<Record<string, unknown>> {
  const { signerEid, token } = tokenOf(url);
  const res = await fetch(`${base}/sign/${encodeURIComponent(signerEid)}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ token, signature, accepted: accepted.map((fieldId) => ({ document: 0, fieldId })) }),
  });
  const body = await res.text();
  expect(res.status, body).toBe(200);
  return JSON.parse(body) as Record<string, unknown>;
}

const drawn = {
  type: 'drawn',
  strokes: [
    [
      { x: 0, y: 0 },
      { x: 30, y: 14 },
      { x: 60, y: 2 },
      { x: 90, y: 16 },
      { x: 120, y: 4 },
    ],
  ],
};

describe.each(['per-signer', 'seal'] as const)("a template's signing fields in a packet by reference (%s)", (mode) => {
  it('signers take the template boxes by fieldId, sign them through the page, and each signature lands at its field', async () => {
    const served = await serveIn(mode);
    const { client, base } = served;
    const created = ok(
      await client.createEtchPacket({
        variables: {
          name: 'Contract with boxes',
          isDraft: false,
          isTest: true,
          files: [{ id: 'contract', castEid: CAST }],
          data: { payloads: { contract: { data: { clientName: 'Ada Lovelace' } } } },
          signers: [
            {
              id: 'client',
              name: 'Ada Lovelace',
              email: 'ada@example.com',
              signerType: 'embedded',
              routingOrder: 1,
              fields: [
                { fileId: 'contract', fieldId: 'clientSig' },
                { fileId: 'contract', fieldId: 'clientIni' },
                { fileId: 'contract', fieldId: 'clientDate' },
              ],
            },
            {
              id: 'provider',
              name: 'Boris Provider',
              email: 'boris@example.com',
              signerType: 'embedded',
              routingOrder: 2,
              signatureMode: 'text',
              fields: [{ fileId: 'contract', fieldId: 'providerSig' }],
            },
          ],
        },
      }),
    ).createEtchPacket as {
      eid: string;
      status: string;
      documentGroup: { eid: string; signers: Array<{ eid: string; aliasId: string }> };
    };
    expect(created.status).toBe('sent');
    const eidOf = (alias: string) => created.documentGroup.signers.find((s) => s.aliasId === alias)!.eid;

    // The signing page places each signer's boxes where the template has them.
    const clientUrl = await signUrlOf(client, eidOf('client'), 'u-ada');
    expect(clientUrl.startsWith(base)).toBe(true);
    expect(await pageBoxes(clientUrl)).toEqual([
      { document: 0, fieldId: 'clientSig', type: 'signature', page: 0, rect: rectOf('clientSig') },
      { document: 0, fieldId: 'clientIni', type: 'initial', page: 0, rect: rectOf('clientIni') },
      { document: 0, fieldId: 'clientDate', type: 'signatureDate', page: 0, rect: rectOf('clientDate') },
    ]);
    await submit(base, clientUrl, drawn, ['clientSig', 'clientIni']);
    const providerUrl = await signUrlOf(client, eidOf('provider'), 'u-boris');
    expect(await pageBoxes(providerUrl)).toEqual([
      { document: 0, fieldId: 'providerSig', type: 'signature', page: 0, rect: rectOf('providerSig') },
    ]);
    const done = await submit(base, providerUrl, { type: 'typed', text: 'Boris Provider' }, ['providerSig']);
    expect((done.event as { documentGroupStatus: string }).documentGroupStatus).toBe('completed');

    // Per signer: the document and its certificate of completion apart; one seal: the certificate appended.
    const entries = await downloadedDocuments(client, created.documentGroup.eid);
    expect(Object.keys(entries)).toHaveLength(mode === 'seal' ? 1 : 2);
    const pdf = entries[Object.keys(entries).find((n) => !/certificate/i.test(n))!]!;

    // Every signature holds: verifyPdf with the local root, pdfsig with NSS trusting it.
    const signing = path.join(served.dataDir, 'signing');
    const rootPem = await readFile(path.join(signing, 'root-ca.pem'), 'utf8');
    const report = await verifyPdf(pdf, { trustAnchors: [rootPem] });
    expect(report.problems).toEqual([]);
    expect(report.valid).toBe(true);
    const names = report.signatures.map((s) => s.signer?.commonName);
    if (mode === 'per-signer')
      expect(names.slice(0, 3)).toEqual(['castpress certification', 'Ada Lovelace', 'Boris Provider']);
    else expect(names).toHaveLength(1);
    for (const s of report.signatures) {
      expect(s.valid, `#${s.index}: ${s.problems.join('; ')}`).toBe(true);
      for (const rev of s.modifications.revisions)
        expect(['none', 'formFillingAndSigning'], JSON.stringify(rev.changes)).toContain(rev.classification);
    }
    expect(report.signatures.at(-1)!.coversWholeDocument).toBe(true);
    const file = path.join(tmp.dir, `signed-contract-${mode}.pdf`);
    await writeFile(file, pdf);
    const nss = await nssDbTrusting(path.join(tmp.dir, mode), path.join(signing, 'root-ca.pem'));
    const sig = await pdfsig(file, nss);
    expect(sig.signatures.length, sig.text).toBe(report.signatures.length);
    for (const s of sig.signatures) {
      expect(s.valid, sig.text).toBe(true);
      expect(s.trusted, sig.text).toBe(true);
      expect(s.total, sig.text).toBe(sig.signatures.at(-1) === s);
    }

    // Per signer, each mark is a field at its template field's rect (one seal draws them into the page).
    if (mode === 'per-signer') {
      const widgets = await readFields(pdf);
      for (const id of ['clientSig', 'clientIni', 'clientDate', 'providerSig']) {
        const mark = widgets.find((w) => w.name === `mark_${id}`);
        expect(mark, id).toBeDefined();
        expect(mark!.page).toBe(0);
        mark!.rect.forEach((v, i) => expect(v, id).toBeCloseTo(pdfRect(rectOf(id))[i]!, 3));
      }
    }
    // Ink inside each signed box; the box given to nobody stays blank, with no empty signature field left.
    expect(await popplerInkIn(file, rectOf('clientSig'))).toBeGreaterThan(50);
    expect(await popplerInkIn(file, rectOf('clientIni'))).toBeGreaterThan(20);
    expect(await popplerInkIn(file, rectOf('providerSig'))).toBeGreaterThan(50);
    expect(await popplerInkIn(file, rectOf('witnessSig'))).toBe(0);
    expect((await qpdfFields(pdf)).map((f) => f.fullname)).not.toContain('witnessSig');

    // The signing date inside its box, in the template's format; the filled name too.
    const d = rectOf('clientDate');
    const dated = await tool('pdftotext', [
      '-f',
      '1',
      '-l',
      '1',
      '-r',
      '72',
      '-x',
      String(d.x),
      '-y',
      String(d.y),
      '-W',
      String(d.width),
      '-H',
      String(d.height),
      file,
      '-',
    ]);
    expect(dated.stdout.trim()).toMatch(
      /^(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}$/,
    );
    expect((await pageText(pdf))[0]).toContain('Ada Lovelace');
  }, 300_000);
});

describe('assembly of a template file with signing fields (library)', () => {
  const signer = (id: string, fields: Array<{ fileId: string; fieldId: string }>) => ({
    id,
    name: `Signer ${id}`,
    email: `${id}@example.com`,
    fields,
  });
  const body = (signers: unknown[], data: Record<string, unknown> = {}) => ({
    name: 'Contract',
    files: [{ id: 'contract', castEid: CAST }],
    data: { payloads: { contract: { data: { clientName: 'Ada Lovelace', ...data } } } },
    signers,
  });
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine({ templates: path.join(tmp.dir, 'templates') });
  });
  afterAll(async () => engine?.close());

  it('a value in the payload never fills a signing box; signature and initial boxes are empty /Sig fields at the template rects', async () => {
    const packet = await assemblePacket(
      engine,
      body([signer('client', [{ fileId: 'contract', fieldId: 'clientSig' }])], {
        clientSig: 'FORGED SIGNATURE',
        clientDate: '2001-01-01',
      }),
    );
    const pdf = packet.files[0]!.pdf;
    const text = (await pageText(pdf))[0]!;
    expect(text).toContain('Ada Lovelace');
    expect(text).not.toContain('FORGED');
    expect(text).not.toContain('2001');
    expect(packet.plan.signers[0]!.fields.map((f) => [f.fieldId, f.source])).toEqual([['clientSig', 'template']]);
    const sigs = (await readFields(pdf)).filter((w) => w.type === 'Sig');
    expect(sigs.map((w) => w.name).sort()).toEqual(['clientIni', 'clientSig', 'providerSig', 'witnessSig']);
    for (const w of sigs) w.rect.forEach((v, i) => expect(v, w.name).toBeCloseTo(pdfRect(rectOf(w.name))[i]!, 3));
  });

  it("the template's signature boxes count toward a document's limit; a fill field or a missing id is refused for a signer", async () => {
    const over = await assemblePacket(engine, body([signer('client', [])]), {
      limits: { packetSignatureFields: 3 },
    }).catch((e: unknown) => e);
    expect(over).toMatchObject({
      status: 413,
      fields: [{ property: 'files[0]', message: expect.stringContaining('with its own fields') }],
    });
    const wrong = await assemblePacket(
      engine,
      body([
        signer('client', [
          { fileId: 'contract', fieldId: 'clientNameField' },
          { fileId: 'contract', fieldId: 'nowhere' },
        ]),
      ]),
    ).catch((e: unknown) => e);
    expect(wrong).toMatchObject({
      status: 400,
      fields: [
        { property: 'signers[0].fields[0].fieldId', message: expect.stringContaining('is a shortText field') },
        { property: 'signers[0].fields[1].fieldId', message: expect.stringContaining('has no field "nowhere"') },
      ],
    });
  });
});
