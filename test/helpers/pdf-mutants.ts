/**
 * Seeded mutations of real PDFs, the kinds an attacker (or a broken writer)
 * produces: truncation, byte flips, broken cross-reference data and object
 * streams, reference cycles, deep nesting, huge counts and lengths,
 * compression bombs, values of the wrong type. Each mutant is a pure function
 * of (file, kind, random numbers), so a seed replays a failure.
 */
import { readFileSync } from 'node:fs';
import { constants, deflateSync, inflateSync } from 'node:zlib';
import { buildPdf, concat, onePage, streamBody } from './pdf-bytes.js';

export type Rng = () => number;

/** The seeds of the mutants (test/fixtures/hostile/README.md says why each is there). */
export const HOSTILE_FIXTURES = [
  'pdfjs_opt_demo_radio_japanese_export.pdf',
  'qpdf_form_empty_from_odt.pdf',
  'pdflib_sample_form_signature.pdf',
  'qpdf_enc_aes256_R6_owner_only_objstm_30p.pdf',
  'qpdf_enc_rc4_128_owner_only_30p.pdf',
] as const;

/** A file of test/fixtures/hostile. */
export const hostileFixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../fixtures/hostile/${name}`, import.meta.url)));

const latin1 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));
const int = (rng: Rng, n: number): number => Math.floor(rng() * n);
const pick = <T>(rng: Rng, list: readonly T[]): T => list[int(rng, list.length)]!;

/** Replaces one random match of `re` (global) through `f`; the input unchanged when nothing matches. */
function replaceOne(text: string, re: RegExp, rng: Rng, f: (m: RegExpExecArray) => string): string {
  const matches = [...text.matchAll(re)];
  if (matches.length === 0) return text;
  const m = pick(rng, matches) as RegExpExecArray;
  return text.slice(0, m.index) + f(m) + text.slice(m.index + m[0].length);
}

const WRONG_VALUES = [
  '0',
  '-1',
  '(str)',
  '<00ff>',
  '/Name',
  '[1 2 3]',
  '[(a) 4 0 R 7]',
  '<< /A 1 >>',
  'null',
  'true',
  '99999 0 R',
  '[99999 0 R]',
  '[[[[[]]]]]',
];
/** Keys whose value types the engine relies on. */
const TYPED_KEYS = [
  'AcroForm',
  'Fields',
  'Kids',
  'Annots',
  'Parent',
  'AP',
  'N',
  'MK',
  'Rect',
  'MediaBox',
  'CropBox',
  'Rotate',
  'Resources',
  'Font',
  'DR',
  'DA',
  'T',
  'FT',
  'Ff',
  'Opt',
  'P',
  'Contents',
  'Pages',
  'Root',
  'Info',
  'Count',
  'Type',
  'Subtype',
  'MaxLen',
  'Q',
  'V',
  'AS',
  'BS',
  'Border',
  'ID',
  'Encrypt',
  'XObject',
];
const HUGE = ['999999999999', '1073741824', '2147483648', '-2147483649', '1e308', '9'.repeat(400), '4294967295.5'];

export type Mutation = (pdf: Uint8Array, rng: Rng) => Uint8Array;

/** Mutation kinds by name. */
export const MUTATIONS: Record<string, Mutation> = {
  truncate: (pdf, rng) => pdf.slice(0, Math.max(9, int(rng, pdf.length))),
  truncateTail: (pdf, rng) => pdf.slice(0, Math.max(9, pdf.length - 1 - int(rng, 2048))),
  flipBytes: (pdf, rng) => {
    const out = pdf.slice();
    for (let n = 1 + int(rng, 24); n > 0; n--) out[int(rng, out.length)] ^= 1 << int(rng, 8);
    return out;
  },
  flipRun: (pdf, rng) => {
    const out = pdf.slice();
    const at = int(rng, out.length);
    for (let i = at; i < Math.min(out.length, at + 64 + int(rng, 4096)); i++) out[i] = int(rng, 256);
    return out;
  },
  breakKeyword: (pdf, rng) =>
    bytes(
      replaceOne(latin1(pdf), /endobj|endstream|stream|obj|xref|trailer|startxref|<<|>>|\[|\]| R\b/g, rng, (m) =>
        pick(rng, ['', ' ', 'x', m[0]!.slice(1), m[0]! + m[0]!, '%']),
      ),
    ),
  breakXref: (pdf, rng) => {
    const text = latin1(pdf);
    switch (int(rng, 4)) {
      case 0:
        return bytes(
          replaceOne(
            text,
            /startxref\s+(\d+)/g,
            rng,
            () => `startxref\n${pick(rng, ['0', '1', '999999999', '-5', String(int(rng, pdf.length))])}`,
          ),
        );
      case 1:
        return bytes(
          replaceOne(
            text,
            /\d{10} \d{5} [nf]/g,
            rng,
            () =>
              `${String(int(rng, 1e10)).padStart(10, '0')} ${pick(rng, ['00000', '65535', '99999'])} ${pick(rng, ['n', 'f'])}`,
          ),
        );
      case 2:
        return bytes(replaceOne(text, /xref\s+\d+ \d+/g, rng, () => `xref\n0 ${pick(rng, ['0', '999999999', '1'])}`));
      default:
        return bytes(
          replaceOne(
            text,
            /\/W\s*\[[^\]]*\]|\/Index\s*\[[^\]]*\]|\/Size\s+\d+|\/Prev\s+\d+/g,
            rng,
            (m) =>
              `${m[0]!.split(/[\s[]/)[0]} ${pick(rng, ['[1 9 1]', '[0 0 0]', '[9 9 9]', '[0 999999999]', '999999999', '-1', '(x)'])}`,
          ),
        );
    }
  },
  breakObjectStream: (pdf, rng) =>
    bytes(
      replaceOne(latin1(pdf), /\/N\s+\d+|\/First\s+\d+|\/Type\s*\/ObjStm/g, rng, (m) =>
        m[0]!.includes('ObjStm')
          ? pick(rng, ['/Type/XRef', '/Type /ObjStm /N 999999999'])
          : `${m[0]!.split(/\s/)[0]} ${pick(rng, ['999999999', '0', '-3', '1.5', '(x)'])}`,
      ),
    ),
  cycle: (pdf, rng) => {
    const text = latin1(pdf);
    // Point a reference at the object that holds it (Parent, Kids, Fields, Pages loops).
    const re = /(\d+) (\d+) obj[\s\S]{0,2000}?\/(Parent|Kids|Fields|Pages|P|Annots)\s*\[?\s*(\d+) (\d+) R/g;
    return bytes(
      replaceOne(text, re, rng, (m) => m[0]!.replace(new RegExp(`${m[4]} ${m[5]} R$`), `${m[1]} ${m[2]} R`)),
    );
  },
  deepNesting: (pdf, rng) => {
    const depth = pick(rng, [300, 5000, 50000]);
    const nest = pick(rng, [
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
      `${'<< /A '.repeat(depth)}1${' >>'.repeat(depth)}`,
    ]);
    return bytes(
      replaceOne(
        latin1(pdf),
        /\/(AcroForm|Fields|Kids|Annots|MK|AP|Resources|DR|Rect|Opt)\b/g,
        rng,
        (m) => `${m[0]} ${nest} /Junk`,
      ),
    );
  },
  hugeNumber: (pdf, rng) =>
    bytes(
      replaceOne(
        latin1(pdf),
        /\/(Count|Length|N|First|Size|MaxLen|Rotate|Ff|Q|W|Index)\s+\d+/g,
        rng,
        (m) => `/${m[1]} ${pick(rng, HUGE)}`,
      ),
    ),
  hugeString: (pdf, rng) =>
    bytes(
      replaceOne(
        latin1(pdf),
        /\/(T|DA|V|TU|Title)\s*\(/g,
        rng,
        (m) => `/${m[1]} (${'A'.repeat(200_000 + int(rng, 200_000))}) /Junk (`,
      ),
    ),
  wrongType: (pdf, rng) =>
    bytes(
      replaceOne(
        latin1(pdf),
        new RegExp(
          `/(${TYPED_KEYS.join('|')})\\s*(\\d+ \\d+ R|\\[[^\\[\\]]*\\]|\\([^()]*\\)|/[^\\s/<>\\[\\]()]+|-?[\\d.]+)`,
          'g',
        ),
        rng,
        (m) => `/${m[1]} ${pick(rng, WRONG_VALUES)}`,
      ),
    ),
  duplicateKids: (pdf, rng) =>
    // Every page-tree node lists its kids many times over: pdf-lib's recursive walk would count them all.
    bytes(replaceOne(latin1(pdf), /\/Kids\s*\[([^\]]*)\]/g, rng, (m) => `/Kids [${` ${m[1]} `.repeat(64)}]`)),
  removeKeywords: (pdf, rng) => {
    const word = pick(rng, ['endobj', 'endstream', 'endobj|endstream']);
    return bytes(latin1(pdf).replace(new RegExp(word, 'g'), ''));
  },
  appendBomb: (pdf) => appendObjects(pdf, [flateBombObjectStream(64 * 1024 * 1024)]),
  wrongTypes: (pdf, rng) => {
    let out = pdf;
    for (let n = 2 + int(rng, 8); n > 0; n--) out = MUTATIONS.wrongType!(out, rng);
    return out;
  },
  hugeObjectNumber: (pdf, rng) =>
    bytes(
      replaceOne(
        latin1(pdf),
        /(\d+) (\d+) (obj|R)\b/g,
        rng,
        (m) => `${pick(rng, ['999999999', '2147483648', '0', '-1'])} ${pick(rng, [m[2]!, '65536', '99999'])} ${m[3]}`,
      ),
    ),
  /** The structural kinds applied to the objects inside an object stream (fields and widgets often live there). */
  insideObjectStream: (pdf, rng) => {
    const inner = pick(rng, [
      'wrongTypes',
      'cycle',
      'hugeNumber',
      'deepNesting',
      'duplicateKids',
      'flipBytes',
      'truncate',
    ] as const);
    return mutateObjectStream(pdf, rng, (data) => MUTATIONS[inner]!(data, rng));
  },
};

/** Inflates one object stream, mutates its data, deflates it back with a matching /Length (unchanged when there is none). */
function mutateObjectStream(pdf: Uint8Array, rng: Rng, f: (data: Uint8Array) => Uint8Array): Uint8Array {
  const text = latin1(pdf);
  const heads = [...text.matchAll(/<<[^]{0,400}?\/Type\s*\/ObjStm[^]{0,400}?>>\s*stream\r?\n/g)];
  const head = heads.length ? pick(rng, heads) : undefined;
  if (!head || !/\/FlateDecode/.test(head[0]) || !/\/Length\s+\d+(?!\s+\d+\s+R)/.test(head[0])) return pdf;
  const start = head.index! + head[0].length;
  const length = Number(/\/Length\s+(\d+)/.exec(head[0])![1]);
  let data: Uint8Array;
  try {
    data = new Uint8Array(inflateSync(pdf.subarray(start, start + length)));
  } catch {
    return pdf;
  }
  const packed = new Uint8Array(deflateSync(f(data)));
  const newHead = head[0].replace(/\/Length\s+\d+/, `/Length ${packed.length}`);
  return concat([pdf.subarray(0, head.index!), bytes(newHead), packed, pdf.subarray(start + length)]);
}

/** Appends objects (numbered from 90000) after the file as an update without an xref section. */
function appendObjects(pdf: Uint8Array, bodies: Uint8Array[][]): Uint8Array {
  const parts: Uint8Array[] = [pdf];
  bodies.forEach((body, i) => parts.push(bytes(`\n${90000 + i} 0 obj\n`), ...body, bytes('\nendobj\n')));
  return concat(parts);
}

/**
 * Deflate data that inflates to `size` zero bytes, made without inflating it:
 * one fully flushed 1 MiB block of zeros repeated (each copy is byte-aligned
 * and refers to nothing before it), then an empty final block.
 */
export function zeroBomb(size: number): Uint8Array {
  const chunk = deflateSync(new Uint8Array(1 << 20), { finishFlush: constants.Z_FULL_FLUSH, level: 9 });
  const header = chunk.subarray(0, 2);
  const body = chunk.subarray(2);
  const parts: Uint8Array[] = [header];
  for (let n = Math.ceil(size / (1 << 20)); n > 0; n--) parts.push(body);
  // Empty final fixed-Huffman block, then an Adler-32 pdf-lib does not check.
  parts.push(new Uint8Array([0x03, 0x00, 0, 0, 0, 1]));
  return concat(parts);
}

function flateBombObjectStream(size: number): Uint8Array[] {
  const data = zeroBomb(size);
  return [
    bytes(`<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`),
    data,
    bytes('\nendstream'),
  ];
}

/** Five minimal structural cases a parser must survive (each under 500 bytes). */
export const MINIMAL_CASES: Record<string, Uint8Array> = {
  'an /AcroForm that is an array': onePage('/AcroForm [1 2 3]'),
  'a field kid that is a number': onePage('/AcroForm << /Fields [4 0 R] >>', '', [['<< /T (a) /FT /Tx /Kids [5] >>']]),
  'a field that is a string': onePage('/AcroForm << /Fields [4 0 R (x)] >>', '', [['(str)']]),
  '/Annots that is a dictionary': onePage('', '/Annots << /A 1 >>'),
  'an annotation entry that is a number': onePage('/AcroForm << /Fields [4 0 R] >>', '/Annots [42 4 0 R]', [
    ['<< /Type /Annot /Subtype /Widget /T (b) /FT /Tx /Rect [10 10 100 30] /P 3 0 R >>'],
  ]),
};

/** Three inputs that are slow for a naive parser, rebuilt from a form. */
export function slowCases(rc4Form: Uint8Array): Record<string, Uint8Array> {
  const text = latin1(rc4Form);
  if (!/\/V 2 \r\/Length 128 /.test(text)) throw new Error('the RC4 fixture changed');
  return {
    // Key derivation hashes /Length / 8 bytes 51 times: 55 s before.
    'an /Encrypt dictionary with /Length 1073741824': bytes(
      text.replace('/V 2 \r/Length 128 ', '/V 2 \r/Length 1073741824 '),
    ),
    // ~1 MB of deflate data that inflates to 1 GiB: 7.5 s and 1.1 GB per call before.
    'a 1 MB object stream that inflates to 1 GiB': buildPdf([
      ['<< /Type /Catalog /Pages 2 0 R >>'],
      ['<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
      ['<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'],
      flateBombObjectStream(1 << 30),
    ]),
    // A 1.8 MB file without endobj/endstream: the fallback searches rescanned the rest of the file per object (34 s).
    'a 1.8 MB file without endobj and endstream': withoutEndKeywords(manyStreams(3000, 560)),
  };
}

/** A one-page document followed by `count` uncompressed text streams of about `size` bytes. */
function manyStreams(count: number, size: number): Uint8Array {
  const line = 'BT /F1 12 Tf 72 720 Td (The quick brown fox jumps over the lazy dog) Tj ET\n';
  const data = line.repeat(Math.ceil(size / line.length));
  const objects: Array<string | Array<string | Uint8Array>> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
  ];
  for (let i = 0; i < count; i++) objects.push(streamBody('', data));
  return buildPdf(objects);
}

function withoutEndKeywords(pdf: Uint8Array): Uint8Array {
  return bytes(latin1(pdf).replace(/endobj|endstream/g, ''));
}
