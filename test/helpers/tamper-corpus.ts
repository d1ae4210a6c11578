/**
 * The tamper corpus: each kind is a function of one context (the corpus's document, signed once by
 * a trusted install; another install; the install's TSA), built the same way every run. Their
 * verdicts are in test/fixtures/tamper/verdicts.json, read by test/signing-tamper-corpus.test.ts;
 * `npx tsx scripts/tamper-corpus.ts DIR` writes every kind to a folder for pdfsig, mutool or a viewer.
 *
 * Shadow and incremental-saving kinds are written byte by byte (pdf-updates.ts): the kernel's
 * writer would never write them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  LocalCaRevocation,
  LocalTimestampAuthority,
  addDocumentTimestamp,
  createSigningIdentity,
  embedValidationData,
  issueSignerIdentity,
  sealPdf,
  type SigningIdentity,
} from '../../src/signing/index.js';
import { PDF } from '@libpdf/core';
import { signerOf } from '../../src/signing/identity/identity.js';
import { streamBody } from './pdf-bytes.js';
import { appendUpdate, offsetsOf, tailOf } from './pdf-updates.js';
import { tool } from './signing.js';
import { XMP_OF, tamperBase } from './tamper-base.js';

export interface CorpusContext {
  dir: string;
  /** The trusted install (its root is the test's only anchor) and its data folder. */
  install: SigningIdentity;
  installDir: string;
  /** Another install (its root is not given). */
  other: SigningIdentity;
  tsa: LocalTimestampAuthority;
  base: Uint8Array;
  /** `base` sealed by `install` ("Ada"). */
  signed: Uint8Array;
  /** The same document sealed by `install` for another signer (another CMS), for a transplanted signature. */
  elsewhere: Uint8Array;
}

export const SIGNED_AT = new Date('2026-12-01T10:00:00Z');

/** The corpus's context in `dir`: two installs (CA clocks pinned), the first install's TSA, the document signed by "Ada". */
export async function createCorpusContext(dir: string): Promise<CorpusContext> {
  const clock = () => new Date('2026-01-01T00:00:00Z');
  const installDir = path.join(dir, 'install');
  const install = await createSigningIdentity({ dataDir: installDir, clock });
  const other = await createSigningIdentity({ dataDir: path.join(dir, 'other'), clock });
  const tsa = await LocalTimestampAuthority.open({ dataDir: installDir, clock: () => SIGNED_AT });
  const base = tamperBase();
  const signed = await seal(base, install, 'Ada');
  const elsewhere = await seal(base, install, 'Zoe');
  return { dir, install, installDir, other, tsa, base, signed, elsewhere };
}
const text = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));
const append = (pdf: Uint8Array, s: string): Uint8Array => new Uint8Array(Buffer.concat([pdf, bytes(s)]));

/** The body of the last definition of object `n` (between `n 0 obj` and `endobj`). */
export function lastBody(pdf: Uint8Array, n: number): string {
  const at = offsetsOf(pdf, n).at(-1)!;
  const t = text(pdf);
  const start = t.indexOf('obj', at) + 3;
  return t.slice(start, t.indexOf('endobj', start)).trim();
}

export const seal = (pdf: Uint8Array, who: SigningIdentity, name: string): Promise<Uint8Array> =>
  sealPdf(pdf, who, { name, signingTime: SIGNED_AT });

const stamp = (c: CorpusContext, pdf: Uint8Array) => addDocumentTimestamp(pdf, { timestamp: { local: c.tsa } });

/** Page 1 drawing one more line of text: a page content change. */
const pageContentAdded = (pdf: Uint8Array): Uint8Array =>
  appendUpdate(pdf, {
    objects: {
      3: lastBody(pdf, 3).replace('/Contents [5 0 R 6 0 R]', '/Contents [5 0 R 6 0 R 40 0 R]'),
      40: streamBody('', 'BT /F1 16 Tf 72 680 Td (VOID - pay Mallory instead) Tj ET'),
    },
  });

/** The signature's /Contents gap: where its hex digits start and end. */
function gapOf(pdf: Uint8Array): { from: number; to: number } {
  const m = /\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)/.exec(text(pdf))!;
  return { from: Number(m[1]) + 1, to: Number(m[2]) - 1 };
}

function flip(pdf: Uint8Array, at: number): Uint8Array {
  const out = pdf.slice();
  out[at] = out[at] === 0x30 ? 0x31 : 0x30;
  return out;
}

/** A forged signature field on the unsigned document whose value is `sig` (a universal signature forgery). */
function forged(c: CorpusContext, sig: string): Uint8Array {
  return appendUpdate(c.base, {
    objects: {
      10: '<< /Fields [11 0 R 12 0 R 13 0 R 30 0 R] /SigFlags 3 /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 4 0 R >> >> >>',
      30: '<< /Type /Annot /Subtype /Widget /FT /Sig /T (Forged) /V 31 0 R /Rect [0 0 0 0] /F 132 /P 3 0 R >>',
      31: `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached ${sig} /M (D:20261201100000Z) >>`,
    },
  });
}

/** Object `n` re-pointed (only a new cross-reference entry) at its first, shadow body in the signed file. */
const repoint = (pdf: Uint8Array, n: number, xref: 'table' | 'stream' = 'table'): Uint8Array =>
  appendUpdate(pdf, { repoint: { [n]: offsetsOf(pdf, n)[0]! }, xref });

async function rewritten(c: CorpusContext): Promise<Uint8Array> {
  const input = path.join(c.dir, 'to-rewrite.pdf');
  const output = path.join(c.dir, 'rewritten.pdf');
  await writeFile(input, c.signed);
  const r = await tool('qpdf', [input, output]);
  if (r.code !== 0) throw new Error(r.stderr);
  return new Uint8Array(await readFile(output));
}

/** A signer certificate of the install's CA, revoked an hour after SIGNED_AT; sealed at SIGNED_AT, with or without the TSA. */
async function revoked(c: CorpusContext, timestamped: boolean): Promise<Uint8Array> {
  const eve = await issueSignerIdentity(c.install, { name: timestamped ? 'Eve T' : 'Eve', now: SIGNED_AT });
  const sealed = await sealPdf(c.base, eve, {
    name: 'Eve',
    signingTime: SIGNED_AT,
    ...(timestamped ? { timestamp: { local: c.tsa }, level: 'B-T' as const } : {}),
  });
  const ca = await LocalCaRevocation.open({
    dataDir: c.installDir,
    clock: () => new Date(SIGNED_AT.getTime() + 7_200_000),
  });
  await ca.revoke(eve.certificate, { at: new Date(SIGNED_AT.getTime() + 3_600_000) });
  return embedValidationData(sealed, { revocation: ca });
}

/** What pyHanko writes when it countersigns a file with cross-reference streams (/W [1 8 2]): catalog /Version, /Extensions and XMP refreshed, /Info updated, a field's /T re-encoded in PDFDocEncoding; then the signature. */
async function pyHankoStyle(c: CorpusContext): Promise<Uint8Array> {
  const catalog = lastBody(c.signed, 1)
    .replace(/\/Metadata 14 0 R/, '/Metadata 41 0 R')
    .replace(/>>\s*$/, ' /Version /2.0 /Extensions << /ESIC << /BaseVersion /1.7 /ExtensionLevel 2 >> >> >>');
  const update = appendUpdate(c.signed, {
    xref: 'stream',
    wide: true,
    objects: {
      1: catalog,
      11: lastBody(c.signed, 11).replace('<FEFF004E0061006D0065>', '(Name)'),
      16: '<< /Title (Contract) /Producer (pyHanko 0.25) /ModDate (D:20261202100000Z) >>',
      41: streamBody('/Type /Metadata /Subtype /XML', XMP_OF('Contract'), true),
    },
    trailer: '/Info 16 0 R',
  });
  return seal(update, c.install, 'Bob');
}

/** The corpus's document with its existing "Witness" field signed (@libpdf/core; sealPdf always makes a new field). */
async function witnessSigned(c: CorpusContext): Promise<Uint8Array> {
  const pdf = await PDF.load(c.base);
  const { bytes: out } = await pdf.sign({
    signer: signerOf(c.install),
    fieldName: 'Witness',
    subFilter: 'ETSI.CAdES.detached',
    estimatedSize: 12_000,
  });
  return out;
}

type Builder = (c: CorpusContext) => Uint8Array | Promise<Uint8Array>;

export const CORPUS: Record<string, Builder> = {
  // Legitimate documents: they stay valid.
  'control: one seal': (c) => c.signed,
  'control: two signatures in turn': (c) => seal(c.signed, c.install, 'Bob'),
  'control: a field filled, then a second signature': (c) =>
    seal(
      appendUpdate(c.signed, { objects: { 11: lastBody(c.signed, 11).replace('(Ada)', '(Ada Lovelace)') } }),
      c.install,
      'Bob',
    ),
  'control: certified (DocMDP P=2), a field filled, a signature': async (c) => {
    const cert = await sealPdf(c.base, c.install, { name: 'Operator', certify: 2, signingTime: SIGNED_AT });
    return seal(
      appendUpdate(cert, { objects: { 11: lastBody(cert, 11).replace('(Ada)', '(Ada L.)') } }),
      c.install,
      'Ada',
    );
  },
  'control: a DSS-only update after the signature (B-LT)': (c) =>
    sealPdf(c.base, c.install, { name: 'Ada', signingTime: SIGNED_AT, timestamp: { local: c.tsa }, level: 'B-LT' }),
  'control: DSS and document timestamp (B-LTA)': (c) =>
    sealPdf(c.base, c.install, { name: 'Ada', signingTime: SIGNED_AT, timestamp: { local: c.tsa }, level: 'B-LTA' }),
  'control: pyHanko-style countersignature (xref stream, /Version /Extensions /Metadata, /T re-encoded)': pyHankoStyle,
  'control: page content stored again compressed (same data), then a signature': (c) =>
    seal(
      appendUpdate(c.signed, {
        objects: {
          5: streamBody(
            '',
            'BT /F1 16 Tf 72 760 Td (Pay to Alice: 100 EUR) Tj ET BT /F1 16 Tf 72 720 Td (Pay to Mallory: 9000 EUR) Tj ET',
            true,
          ),
        },
      }),
      c.install,
      'Bob',
    ),
  'control: revoked after a trusted signing time (B-T, then a DSS)': (c) => revoked(c, true),

  // Bytes changed.
  'byte flip inside the signed range': (c) => flip(c.signed, text(c.signed).indexOf('Alice') + 2),
  'byte flip in the signature value padding (outside the ranges)': (c) => flip(c.signed, gapOf(c.signed).to - 1),
  'byte flip in the signature value (outside the ranges)': (c) => flip(c.signed, gapOf(c.signed).from + 700),
  'bytes appended after the last %%EOF': (c) => append(c.signed, '%appended\n'),
  'rewritten by qpdf': rewritten,
  'transplanted signature value from another document': (c) => {
    const gap = gapOf(c.signed);
    const other = gapOf(c.elsewhere);
    const hex = text(c.elsewhere)
      .slice(other.from, other.to)
      .padEnd(gap.to - gap.from, '0')
      .slice(0, gap.to - gap.from);
    return bytes(text(c.signed).slice(0, gap.from) + hex + text(c.signed).slice(gap.to));
  },
  'byte range wrapping (the second range moved)': (c) =>
    bytes(
      text(c.signed).replace(
        /\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/,
        (m, b: string, s: string, d: string) => {
          const moved = `/ByteRange [0 ${b} ${Number(s) + 10} ${Number(d) - 10}]`;
          return moved.padEnd(m.length, ' ');
        },
      ),
    ),

  // Universal signature forgeries: every signature field is listed, with its defect.
  'forged signature: no /ByteRange': (c) => forged(c, '/Contents <3082000a>'),
  'forged signature: /ByteRange null': (c) => forged(c, '/ByteRange null /Contents <3082000a>'),
  'forged signature: negative /ByteRange': (c) => forged(c, '/ByteRange [0 -1 100 100] /Contents <3082000a>'),
  'forged signature: no /Contents': (c) => forged(c, '/ByteRange [0 100 200 100]'),

  // Changes after the signature.
  'page content added, not signed': (c) => pageContentAdded(c.signed),
  'page content added, re-sealed by the same install': (c) => seal(pageContentAdded(c.signed), c.install, 'Operator'),
  'page content added, re-sealed by another install': (c) => seal(pageContentAdded(c.signed), c.other, 'Operator'),
  'annotation added, re-sealed': (c) =>
    seal(
      appendUpdate(c.signed, {
        objects: {
          3: lastBody(c.signed, 3).replace(/\/Annots \[/, '/Annots [42 0 R '),
          42: '<< /Type /Annot /Subtype /FreeText /Rect [60 700 540 745] /Contents (Pay to Mallory) /DA (/Helv 16 Tf 0 g) >>',
        },
      }),
      c.install,
      'Operator',
    ),
  'page added, re-sealed': (c) =>
    seal(
      appendUpdate(c.signed, {
        objects: {
          2: '<< /Type /Pages /Kids [3 0 R 43 0 R] /Count 2 >>',
          43: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 15 0 R /Resources << /Font << /F1 4 0 R >> >> >>',
        },
      }),
      c.install,
      'Operator',
    ),
  'mark appearance replaced after the last signature': (c) =>
    appendUpdate(c.signed, {
      objects: {
        20: streamBody('/Type /XObject /Subtype /Form /BBox [0 0 200 40]', 'BT /F1 12 Tf 4 14 Td (Mallory) Tj ET'),
      },
    }),
  "a signed signature field's appearance redrawn, re-sealed": async (c) => {
    const signed = await witnessSigned(c);
    const ap = /\/AP\s*<<\s*\/N\s+(\d+)\s+0\s+R/.exec(lastBody(signed, 13))![1]!;
    return seal(
      appendUpdate(signed, {
        objects: {
          [ap]: streamBody('/Type /XObject /Subtype /Form /BBox [0 0 200 40]', 'BT /F1 12 Tf 4 14 Td (Mallory) Tj ET'),
        },
      }),
      c.install,
      'Operator',
    );
  },
  'form field value changed after the last signature': (c) =>
    appendUpdate(c.signed, { objects: { 11: lastBody(c.signed, 11).replace('(Ada)', '(Mallory)') } }),
  'read-only field changed after the last signature': (c) =>
    appendUpdate(c.signed, { objects: { 12: lastBody(c.signed, 12).replace('(2026-12-01)', '(2027-06-30)') } }),
  'read-only field changed, then a document timestamp': (c) =>
    stamp(
      c,
      appendUpdate(c.signed, { objects: { 12: lastBody(c.signed, 12).replace('(2026-12-01)', '(2027-06-30)') } }),
    ),
  'form field value changed, then a document timestamp': (c) =>
    stamp(c, appendUpdate(c.signed, { objects: { 11: lastBody(c.signed, 11).replace('(Ada)', '(Mallory)') } })),
  'page content added, then a document timestamp': (c) => stamp(c, pageContentAdded(c.signed)),
  '/Info changed after the last signature': (c) =>
    appendUpdate(c.signed, {
      objects: { 16: '<< /Title (Contract: pay Mallory) /Producer (castpress tamper corpus) >>' },
    }),
  '/Info changed after the last signature (xref stream)': (c) =>
    appendUpdate(c.signed, {
      xref: 'stream',
      objects: { 16: '<< /Title (Contract: pay Mallory) /Producer (castpress tamper corpus) >>' },
    }),
  'XMP metadata changed after the last signature': (c) =>
    appendUpdate(c.signed, { objects: { 14: streamBody('/Type /Metadata /Subtype /XML', XMP_OF('Pay Mallory')) } }),
  'sealed over by another install (untrusted root)': (c) => seal(c.signed, c.other, 'Operator'),
  'sealed by another install only (untrusted root)': (c) => seal(c.base, c.other, 'Operator'),
  'revoked certificate, claimed signing time only': (c) => revoked(c, false),

  // Shadow attacks: the signed file holds what the update reveals.
  'shadow hide: the cover re-pointed at an empty body (xref only)': (c) => repoint(c.signed, 7),
  'shadow replace: the page content re-pointed (xref only)': (c) => repoint(c.signed, 5),
  'shadow replace: xref stream': (c) => repoint(c.signed, 5, 'stream'),
  'shadow hide-and-replace: the page re-pointed at a hidden page (xref only)': (c) => repoint(c.signed, 3),
  'shadow replace, then re-sealed by the same install': (c) => seal(repoint(c.signed, 5), c.install, 'Operator'),
  'shadow hide, then a document timestamp': (c) => stamp(c, repoint(c.signed, 7)),

  // Incremental saving attacks.
  'ISA: new page content with a cross-reference table': (c) =>
    appendUpdate(c.signed, {
      objects: { 5: streamBody('', 'BT /F1 16 Tf 72 760 Td (Pay to Mallory: 9000 EUR) Tj ET') },
    }),
  'ISA: new page content with a cross-reference stream': (c) =>
    appendUpdate(c.signed, {
      xref: 'stream',
      objects: { 5: streamBody('', 'BT /F1 16 Tf 72 760 Td (Pay to Mallory: 9000 EUR) Tj ET') },
    }),
  'ISA: objects appended without a cross-reference section': (c) =>
    appendUpdate(c.signed, {
      xref: 'none',
      objects: { 5: streamBody('', 'BT /F1 16 Tf 72 760 Td (Pay to Mallory: 9000 EUR) Tj ET') },
    }),
  'ISA: the cover freed (an f entry only)': (c) => appendUpdate(c.signed, { free: [7] }),
  "ISA: /Prev skipping the signed revision's section": (c) =>
    appendUpdate(c.signed, { prev: tailOf(c.base).startXRef }),
  // The update's section starts where the signed file ends, after the line break appendUpdate adds when it has none.
  'ISA: /Prev pointing at itself (a loop)': (c) =>
    appendUpdate(c.signed, {
      repoint: { 5: offsetsOf(c.signed, 5)[0]! },
      prev: c.signed.length + (c.signed.at(-1) === 0x0a ? 0 : 1),
    }),
  'ISA: trailer /Root re-pointed at a prepared catalog': (c) => appendUpdate(c.signed, { root: '17 0' }),
};
