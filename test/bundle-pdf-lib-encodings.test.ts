/**
 * The bundle's seam on pdf-lib's standard-font encodings (scripts/bundle-seams.mjs `lazyEncodings`),
 * counted rather than timed: pdf-lib built as the bundle builds it and as it ships, each run in its own
 * process. The seamed one parses the encodings' JSON on the first read of `Encodings` instead of when
 * pdf-lib is imported, and then answers as the plain one does: the same keys, the same code points
 * and codes for each, the same object at every read; Helvetica text drawn through pdf-lib (its
 * StandardFontEmbedder) gives the same bytes, and reads back (its extraction's FontDecoder, which
 * builds a reverse WinAnsi table, made lazy by a second seam) as the same text.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyEncodings, lazyWinAnsiReverse } from '../scripts/bundle-seams.mjs';
import { repoRoot } from './helpers/cli.js';
import { useSeamProbes } from './helpers/seam-probes.js';
const PDF_LIB_ES = path.join(repoRoot, 'node_modules', '@cantoo', 'pdf-lib', 'es');
const ENCODING_JS = path.join(PDF_LIB_ES, 'packages', 'standard-fonts', 'Encoding.js');
const FONT_DECODER_JS = path.join(PDF_LIB_ES, 'api', 'extraction', 'FontDecoder.js');

/**
 * Counts JSON.parse calls of more than 1 KB while pdf-lib is imported and at the first read of its
 * encodings, then prints what each encoding answers and the bytes of a document with Helvetica text.
 */
const PROBE = `
const parse = JSON.parse;
let parses = 0;
JSON.parse = function (text, ...rest) { if (typeof text === 'string' && text.length > 1024) parses++; return parse.call(this, text, ...rest); };
const { Encodings } = await import(${JSON.stringify(path.join(path.dirname(ENCODING_JS), 'index.js'))});
const { PDFDocument, StandardFonts, extractPageContents } = await import('@cantoo/pdf-lib');
const atImport = parses;
const encodings = Object.keys(Encodings).map((key) => {
  const e = Encodings[key];
  return { key, name: e.name, same: Encodings[key] === e, points: e.supportedCodePoints, codes: e.supportedCodePoints.map((cp) => e.encodeUnicodeCodePoint(cp)) };
});
const afterRead = parses;
const doc = await PDFDocument.create({ updateMetadata: false });
const font = await doc.embedFont(StandardFonts.Helvetica);
doc.addPage([200, 100]).drawText('Caf\\u00e9 \\u20ac 12', { x: 10, y: 50, size: 12, font });
const bytes = await doc.save({ useObjectStreams: false });
// Text read back through pdf-lib's extraction, whose FontDecoder reads WinAnsi text with the reverse table.
const loaded = await PDFDocument.load(bytes, { updateMetadata: false });
const text = extractPageContents(loaded.getPage(0).node).filter((a) => a.kind === 'text').map((a) => a.getText());
process.stdout.write(JSON.stringify({ atImport, afterRead, encodings, text, pdf: Buffer.from(bytes).toString('base64') }));
`;

interface Probe {
  atImport: number;
  afterRead: number;
  encodings: { key: string; name: string; same: boolean; points: number[]; codes: unknown[] }[];
  text: string[];
  pdf: string;
}

const probes = useSeamProbes(PROBE, 'castpress-encodings-seam-');

async function probe(which: 'seamed' | 'plain'): Promise<Probe> {
  return JSON.parse(await probes.run(which)) as Probe;
}

describe("pdf-lib's standard-font encodings as the bundle builds them", () => {
  it('the seams apply to the pdf-lib installed, and refuse a source they do not recognise', async () => {
    const source = await readFile(ENCODING_JS, 'utf8');
    const seamed = lazyEncodings(source);
    expect(seamed).toBeDefined();
    expect(seamed).toMatch(/get WinAnsi\(\)/);
    expect(
      lazyEncodings(source.replace('JSON.parse(decompressedEncodings)', 'JSON.parse(decompressedEncodings, null)')),
    ).toBeUndefined();
    expect(
      lazyEncodings(source.replace("WinAnsi: new Encoding('WinAnsi', allUnicodeMappings.win1252),", '')),
    ).toBeUndefined();
    const decoder = await readFile(FONT_DECODER_JS, 'utf8');
    expect(lazyWinAnsiReverse(decoder)).toMatch(/return winAnsiReverseOf\(\);/);
    expect(
      lazyWinAnsiReverse(decoder.replace('return winAnsiReverse;', 'return new Map(winAnsiReverse);')),
    ).toBeUndefined();
    expect(
      lazyWinAnsiReverse(decoder.replace('const winAnsiReverse = (() => {', 'const winAnsiReverse = ((x) => {')),
    ).toBeUndefined();
  });

  it("parses the encodings' JSON at their first read, not when pdf-lib is imported, and answers as pdf-lib does", async () => {
    const [seamed, plain] = await Promise.all([probe('seamed'), probe('plain')]);
    // pdf-lib parses other JSON of its own when imported: the encodings' is the one that moves.
    expect(seamed.atImport).toBe(plain.atImport - 1);
    expect(plain.afterRead - plain.atImport).toBe(0);
    expect(seamed.afterRead - seamed.atImport).toBe(1);
    expect(seamed.encodings.map((e) => e.key)).toEqual(['Symbol', 'ZapfDingbats', 'WinAnsi']);
    expect(seamed.encodings.every((e) => e.same)).toBe(true);
    expect(seamed.encodings).toEqual(plain.encodings);
    expect(seamed.encodings.find((e) => e.key === 'WinAnsi')!.points.length).toBeGreaterThan(200);
    expect(seamed.pdf).toBe(plain.pdf);
    expect(plain.text.join('')).toContain('Caf\u00e9 \u20ac 12');
    expect(seamed.text).toEqual(plain.text);
  });
});
