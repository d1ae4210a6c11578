/**
 * The difference analysis of verifyPdf. Every revision after a signature is compared with
 * the revision it signed and classified (none / form filling and signing / annotations / other);
 * a signature is valid only when what changed after it is allowed (DocMDP P, else form filling and
 * signing). Disallowed changes are made by hand here through the kernel's incremental writer, then
 * sealed over by the same trusted install (an operator who edits and re-seals): before the analysis
 * every one of these documents verified as valid.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFString, StandardFonts } from '@cantoo/pdf-lib';
import { PDF } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateSession } from '../src/pdf/index.js';
import { signerOf } from '../src/signing/identity/identity.js';
import {
  createSigningIdentity,
  sealPdf,
  verifyPdf,
  type SigningIdentity,
  type VerifyResult,
} from '../src/signing/index.js';
import { mutoolVerify, pdfsig, tempDir } from './helpers/signing.js';

let dir: string;
let remove: () => Promise<void>;
let identity: SigningIdentity;
let root: string;
/** A one-page form (text field "Name", empty signature field "Witness") signed once by "Ada". */
let signed: Uint8Array;

/** A form made here: a text field and an empty, visible signature field, both on page 1. */
async function makeForm(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText('Agreement: pay 100 EUR', {
    x: 72,
    y: 770,
    size: 14,
    font: await doc.embedFont(StandardFonts.Helvetica),
  });
  const form = doc.getForm();
  form.createTextField('Name').addToPage(page, { x: 72, y: 700, width: 200, height: 20 });
  const ctx = doc.context;
  const witness = ctx.register(
    ctx.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFString.of('Witness'),
      Rect: [72, 600, 272, 640],
      F: 4,
      P: page.ref,
    }),
  );
  page.node.addAnnot(witness);
  form.acroForm.addField(witness);
  return doc.save({ useObjectStreams: false });
}

/**
 * A text annotation added to page 1's /Annots, by hand: pdf-lib's PDFPage.addAnnot also wraps the
 * page content in q/Q (two new content streams), a page-content change of its own.
 */
function addNote(doc: PDFDocument, text: string): void {
  const ctx = doc.context;
  const note = ctx.register(
    ctx.obj({ Type: 'Annot', Subtype: 'Text', Rect: [300, 700, 320, 720], Contents: PDFString.of(text) }),
  );
  const kids = doc.catalog.lookup(PDFName.of('Pages'), PDFDict).lookup(PDFName.of('Kids'), PDFArray);
  ctx.lookup(kids.get(0), PDFDict).lookup(PDFName.of('Annots'), PDFArray).push(note);
}

/** One incremental update made with pdf-lib on the kernel's session. */
async function update(bytes: Uint8Array, edit: (doc: PDFDocument) => void | Promise<void>): Promise<Uint8Array> {
  const session = await UpdateSession.open(bytes);
  await edit(session.doc);
  return session.commit();
}

async function save(name: string, bytes: Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

const verify = (bytes: Uint8Array): Promise<VerifyResult> => verifyPdf(bytes, { trustAnchors: [root] });

beforeAll(async () => {
  ({ dir, remove } = await tempDir());
  identity = await createSigningIdentity({ dataDir: path.join(dir, 'ca') });
  root = await readFile(identity.files!.rootCertificate, 'utf8');
  signed = await sealPdf(await makeForm(), identity, { name: 'Ada' });
});
afterAll(async () => remove());

describe('disallowed changes after a signature are flagged', () => {
  const cases: Array<{ name: string; edit: (doc: PDFDocument) => void | Promise<void>; level: string; what: RegExp }> =
    [
      {
        name: 'page content changed',
        edit: async (doc) =>
          doc.getPage(0).drawText('Agreement: pay 900 EUR', {
            x: 72,
            y: 740,
            size: 14,
            font: await doc.embedFont(StandardFonts.Helvetica),
          }),
        level: 'other',
        what: /page \/Contents changed/,
      },
      {
        name: 'a new page',
        edit: (doc) => void doc.addPage([595, 842]),
        level: 'other',
        what: /page tree changed|page added/,
      },
      {
        name: 'a new annotation',
        edit: (doc) => addNote(doc, 'void'),
        level: 'annotations',
        what: /annotation added/,
      },
      {
        name: 'a field added',
        edit: (doc) =>
          doc.getForm().createTextField('Amount').addToPage(doc.getPage(0), { x: 300, y: 650, width: 100, height: 20 }),
        level: 'other',
        what: /form field added/,
      },
    ];

  for (const c of cases) {
    it(`${c.name}, then re-sealed by the same install`, async () => {
      const forged = await sealPdf(await update(signed, c.edit), identity, { name: 'Operator' });
      const result = await verify(forged);
      expect(result.valid).toBe(false);
      const [first, second] = result.signatures;
      // Intact and trusted: only the analysis tells.
      expect(first).toMatchObject({
        valid: false,
        integrity: { intact: true },
        trust: { trusted: true },
        modifications: { ok: false, allowed: 'formFillingAndSigning' },
      });
      const [edit, seal] = first!.modifications.revisions;
      expect(edit!.classification, JSON.stringify(edit)).toBe(c.level);
      expect(edit!.changes.map((x) => x.what).join('; ')).toMatch(c.what);
      expect(seal!.classification).toBe(c.level); // still compared with the signed revision
      expect(first!.problems.at(-1)).toMatch(
        /^Changed after signing: the revision ending at byte \d+ has changes beyond form filling and signing: /,
      );
      expect(second).toMatchObject({ valid: true, modifications: { ok: true, revisions: [] } });
      expect(result.problems).toEqual(['Not valid: Signature of Ada']);

      // Byte-range validators keep the first signature valid; mutool notices edits but (as below)
      // says the same of allowed form filling:
      //   Verifying signature 9: … The signature is valid but there have been edits since signing.
      const file = await save(`${c.name}.pdf`, forged);
      expect(await mutoolVerify(file)).toContain('The signature is valid but there have been edits since signing.');
      const ps = await pdfsig(file); // lists the empty "Witness" field too
      expect(ps.signatures.filter((s) => !s.text.includes('not signed')).map((s) => [s.valid, s.total])).toEqual([
        [true, false],
        [true, true],
      ]);
    });
  }
});

describe('allowed changes', () => {
  it('form filling and a second signature in a pre-existing signature field keep both signatures valid', async () => {
    const filled = await update(signed, (doc) => doc.getForm().getTextField('Name').setText('Ada Lovelace'));
    // The existing "Witness" field signed with libpdf (sealPdf always makes a new field).
    const pdf = await PDF.load(filled);
    const { bytes } = await pdf.sign({
      signer: signerOf(identity),
      fieldName: 'Witness',
      subFilter: 'ETSI.CAdES.detached',
      estimatedSize: 12_000,
    });
    const result = await verify(bytes);
    expect(result.problems).toEqual([]);
    expect(result.valid).toBe(true);
    const [ada, witness] = result.signatures;
    expect(ada!.fieldName).toBe('Signature of Ada');
    expect(witness!.fieldName).toBe('Witness');
    expect(ada!.modifications.ok).toBe(true);
    expect(ada!.modifications.revisions.map((r) => r.classification)).toEqual([
      'formFillingAndSigning',
      'formFillingAndSigning',
    ]);
    const whats = ada!.modifications.revisions[1]!.changes.map((c) => `${c.role}: ${c.what}`);
    expect(whats).toContain('field: field value');
    expect(whats).toContain('signatureValue: signature');
    // libpdf makes the widget of the field it signs invisible (/Rect [0 0 0 0]): allowed with the signing.
    expect(whats).toContain(
      'field: widget /Rect of the signature field signed; widget /F of the signature field signed; existing signature field signed',
    );
    expect(witness!.modifications).toMatchObject({ ok: true, revisions: [] });

    // mutool says of the first signature exactly what it says after a disallowed change:
    //   The signature is valid but there have been edits since signing.
    const file = await save('allowed.pdf', bytes);
    expect(await mutoolVerify(file)).toContain('The signature is valid but there have been edits since signing.');
    expect((await pdfsig(file)).signatures.map((s) => s.valid)).toEqual([true, true]);
  });

  it('a signature with nothing after it: no revisions, B-B', async () => {
    const result = await verify(signed);
    expect(result.valid).toBe(true);
    expect(result.signatures[0]).toMatchObject({
      padesLevel: 'B-B',
      modifications: { ok: true, allowed: 'formFillingAndSigning', certification: false, revisions: [] },
    });
  });
});

describe('DocMDP', () => {
  /** `bytes` certified by `identity` with /DocMDP P=`p` (a /Reference in the signature dictionary and /Perms in the catalog). */
  async function certify(bytes: Uint8Array, p: 1 | 2 | 3): Promise<Uint8Array> {
    const lib = await import('@libpdf/core');
    const pdf = await PDF.load(bytes);
    const registry = pdf.context.registry;
    const register = registry.register.bind(registry);
    registry.register = (obj) => {
      if (obj instanceof lib.PdfDict && obj.getName('Type')?.value === 'Sig') {
        const params = lib.PdfDict.of({
          Type: lib.PdfName.of('TransformParams'),
          P: lib.PdfNumber.of(p),
          V: lib.PdfName.of('1.2'),
        });
        obj.set(
          'Reference',
          new lib.PdfArray([
            lib.PdfDict.of({
              Type: lib.PdfName.of('SigRef'),
              TransformMethod: lib.PdfName.of('DocMDP'),
              TransformParams: params,
            }),
          ]),
        );
        const ref = register(obj);
        pdf.getCatalog().set('Perms', lib.PdfDict.of({ DocMDP: ref }));
        return ref;
      }
      return register(obj);
    };
    const { bytes: out } = await pdf.sign({
      signer: signerOf(identity),
      fieldName: 'Certification',
      subFilter: 'ETSI.CAdES.detached',
      estimatedSize: 12_000,
    });
    return out;
  }

  it('P=1 allows no form filling; P=2 does; P=3 allows an annotation, P=2 does not', async () => {
    const form = await makeForm();
    const fill = (doc: PDFDocument) => doc.getForm().getTextField('Name').setText('Ada');
    const annotate = (doc: PDFDocument) => addNote(doc, 'ok');
    const after = async (p: 1 | 2 | 3, edit: (doc: PDFDocument) => void) => {
      const result = await verify(await sealPdf(await update(await certify(form, p), edit), identity, { name: 'Bob' }));
      const cert = result.signatures[0]!;
      expect(cert.modifications).toMatchObject({ certification: true, docMdp: p });
      return cert;
    };
    const p1 = await after(1, fill);
    expect(p1.modifications).toMatchObject({ ok: false, allowed: 'none' });
    expect(p1.valid).toBe(false);
    expect((await after(2, fill)).valid).toBe(true);
    expect((await after(3, annotate)).valid).toBe(true);
    const p2 = await after(2, annotate);
    expect(p2.valid).toBe(false);
    expect(p2.modifications.revisions[0]!.classification).toBe('annotations');
  });
});
