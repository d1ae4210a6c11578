/**
 * Markdown generation speed against raw pdfkit measured in the same run: a
 * 10-page document of headings and paragraphs (with bold, italic and links) vs
 * pdfkit wrapping and drawing the same text with the same Noto Sans faces
 * (goal: ratio ≤ 1.5). Run alone with `npm run bench -- markdown`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFKit from 'pdfkit';
import { createEngine } from '../src/index.js';
import { interleaved, type BenchRow } from './types.js';

const fontsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fonts');
const REGULAR = path.join(fontsDir, 'NotoSans-Regular.ttf');
const BOLD = path.join(fontsDir, 'NotoSans-Bold.ttf');
const ITALIC = path.join(fontsDir, 'NotoSans-Italic.ttf');

const WORDS =
  'the quick brown fox jumps over a lazy dog while seven wizards quietly box jumbo pancakes near the harbour'.split(
    ' ',
  );

/** ~2,500 made-up words from syllables, so documents seeded differently share few words (as real ones don't share all). */
const SYLLABLES = 'ka lo mi ne ru sa ti vo be da fe gi ho ju ly mo pu qua re si to ur ve wa xi yo ze an el on'.split(
  ' ',
);
const VOCABULARY = SYLLABLES.flatMap((a) => SYLLABLES.map((b) => a + b)).concat(
  SYLLABLES.flatMap((a, i) => SYLLABLES.slice(i).map((b) => a + b + SYLLABLES[(i * 7) % SYLLABLES.length])),
);

/** Deterministic prose: sections of a heading and three paragraphs. Seed 7 uses a small vocabulary. */
function sections(count: number, seed = 7): Array<{ heading: string; paragraphs: string[] }> {
  const words = seed === 7 ? WORDS : VOCABULARY;
  const word = () => words[(seed = (seed * 1103515245 + 12345) % 2147483648) % words.length];
  return Array.from({ length: count }, (_, s) => ({
    heading: `Section ${s + 1}: ${word()} ${word()}`,
    paragraphs: Array.from({ length: 3 }, () => Array.from({ length: 70 }, word).join(' ')),
  }));
}

/** One emphasised word, one bold and one link per paragraph, in both renderings. */
function markdownOf(p: string): string {
  const w = p.split(' ');
  w[3] = `*${w[3]}*`;
  w[10] = `**${w[10]}**`;
  w[20] = `[${w[20]}](https://example.com/${20})`;
  return w.join(' ');
}

function pdfkitDocument(content: ReturnType<typeof sections>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFKit({ size: 'LETTER', margin: 37.5, autoFirstPage: true, compress: true });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.registerFont('regular', REGULAR);
    doc.registerFont('bold', BOLD);
    doc.registerFont('italic', ITALIC);
    for (const s of content) {
      doc.moveDown(0.6).font('bold').fontSize(19.2).fillColor('#000000').text(s.heading);
      for (const p of s.paragraphs) {
        const w = p.split(' ');
        const opts = { continued: true, lineGap: 3 };
        doc
          .moveDown(0.4)
          .font('regular')
          .fontSize(12)
          .text(`${w.slice(0, 3).join(' ')} `, opts);
        doc.font('italic').text(`${w[3]} `, opts);
        doc.font('regular').text(`${w.slice(4, 10).join(' ')} `, opts);
        doc.font('bold').text(`${w[10]} `, opts);
        doc.font('regular').text(`${w.slice(11, 20).join(' ')} `, opts);
        doc.fillColor('#1A5FB4').text(w[20], { ...opts, link: 'https://example.com/20', underline: true });
        doc.fillColor('#000000').text(` ${w.slice(21).join(' ')}`, { continued: false, lineGap: 3, underline: false });
      }
    }
    doc.end();
  });
}

export async function run(): Promise<BenchRow[]> {
  const engine = createEngine({ now: () => new Date('2026-01-01T00:00:00Z') });
  try {
    const requestOf = (content: ReturnType<typeof sections>) => ({
      logo: false,
      includeTimestamp: false,
      data: content.flatMap((s) => [{ heading: s.heading }, ...s.paragraphs.map((p) => ({ content: markdownOf(p) }))]),
    });
    const content = sections(22);
    const request = requestOf(content);
    const { PDFDocument } = await import('@cantoo/pdf-lib');
    const ours = await engine.generate(request);
    const pages = (await PDFDocument.load(ours)).getPageCount();
    const theirs = await pdfkitDocument(content);
    const anchorPages = (await PDFDocument.load(theirs)).getPageCount();
    const [subject, anchor] = await interleaved(
      () => engine.generate(request),
      () => pdfkitDocument(content),
      15,
    );
    // A different document every run: what a batch of real documents sees of the engine's caches.
    let seed = 1000;
    let current = sections(22, seed);
    const [variedSubject, variedAnchor] = await interleaved(
      () => {
        current = sections(22, ++seed);
        return engine.generate(requestOf(current));
      },
      () => pdfkitDocument(current),
      15,
    );
    return [
      {
        name: `Markdown, ${pages} pages (pdfkit: ${anchorPages}), vs raw pdfkit, same text and fonts, same document repeated`,
        value: subject,
        unit: 'ms',
        baseline: anchor,
        ratio: subject / anchor,
        goal: '<= 1.5',
      },
      {
        name: 'Markdown, ~10 pages, vs raw pdfkit, a different document (2,500-word vocabulary) each run',
        value: variedSubject,
        unit: 'ms',
        baseline: variedAnchor,
        ratio: variedSubject / variedAnchor,
        goal: '<= 1.5',
      },
      {
        name: 'Markdown output size',
        value: ours.byteLength / 1024,
        unit: 'KiB',
        baseline: theirs.byteLength / 1024,
        ratio: ours.byteLength / theirs.byteLength,
      },
    ];
  } finally {
    await engine.close();
  }
}
