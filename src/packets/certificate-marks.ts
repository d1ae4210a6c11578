/**
 * The signers' adopted marks on the certificate of completion (#31). The certificate is laid out by
 * the engine (a Markdown generate request), which reports no positions; its request leaves a labelled
 * room per mark (`adoptedLabel`), and the mark is drawn there once the PDF exists, by the same
 * AppearanceWriter that drew it on the documents, so it looks as it does there.
 */
import type { AppearanceWriter, SignatureMark } from '../signing/index.js';
import {
  adoptedLabel,
  certificateSigners,
  type AdoptedMarks,
  type CompletionCertificate,
} from './completion-certificate.js';
import { readPageGlyphs, type Glyph, type PageGlyphs } from './page-glyphs.js';

/** The largest a mark is drawn, in points (the room under its label is about 48 pt high). */
const MARK = { width: 200, height: 40 };
/** Gap between the label's glyphs and the mark, and kept free above the next text below it. */
const GAP = 4;
/** The engine's page margin: a mark never reaches into it. */
const MARGIN = 36;

interface Found {
  page: PageGlyphs;
  glyphs: Glyph[];
}

/** The glyphs spelling `label` (whitespace ignored) on the first page that shows it. */
function findLabel(pages: readonly PageGlyphs[], label: string): Found | undefined {
  const want = label.replace(/\s+/g, '');
  for (const page of pages) {
    const inked = page.glyphs.filter((g) => g.text.trim() !== '');
    // One character per glyph, so an index in the text is an index in `inked`.
    const text = inked.map((g) => (g.text.trim().length === 1 ? g.text.trim() : '\u0000')).join('');
    const at = text.indexOf(want);
    if (at >= 0) return { page, glyphs: inked.slice(at, at + want.length) };
  }
  return undefined;
}

/** The room under a label: as wide and high as `MARK` allows before the next text below it or the page margin. */
function roomUnder({ page, glyphs }: Found): SignatureMark['rect'] | undefined {
  const x = Math.min(...glyphs.map((g) => g.x));
  const top = Math.max(...glyphs.map((g) => g.y + g.height)) + GAP;
  const width = Math.min(MARK.width, page.width - MARGIN - x);
  let bottom = Math.min(top + MARK.height, page.height - MARGIN);
  for (const g of page.glyphs) {
    if (g.text.trim() === '' || g.y < top || g.x > x + width || g.x + g.width < x) continue;
    bottom = Math.min(bottom, g.y - GAP);
  }
  const height = bottom - top;
  return height >= 8 && width >= 8 ? { x, y: top, width, height } : undefined;
}

/**
 * `pdf` (the certificate as the engine made it from `certificateRequest(certificate)`) with each
 * signer's adopted marks drawn under their labels, as one incremental update; `pdf` itself when no
 * signer adopted a mark. A label the layout left without room (split across pages) gets no mark.
 */
export async function drawAdoptedMarks(
  pdf: Uint8Array,
  certificate: CompletionCertificate,
  writer: AppearanceWriter,
): Promise<Uint8Array> {
  const wanted = certificateSigners(certificate).flatMap((s, k) =>
    (['signature', 'initials'] as const).flatMap((kind: keyof AdoptedMarks) => {
      const input = s.adopted?.[kind];
      return input ? [{ label: adoptedLabel(kind, k + 1), kind, input }] : [];
    }),
  );
  if (wanted.length === 0) return pdf;
  const labels = wanted.map((w) => w.label.replace(/\s+/g, ''));
  const pages = await readPageGlyphs(pdf, 'certificate', {
    onlyIf: (text) => labels.some((l) => text.replace(/\s+/g, '').includes(l)),
  });
  const marks: SignatureMark[] = [];
  for (const w of wanted) {
    const found = findLabel(pages, w.label);
    const rect = found && roomUnder(found);
    if (rect)
      marks.push({
        page: found.page.pageNum,
        rect,
        role: w.kind === 'signature' ? 'signature' : 'initials',
        input: w.input,
      });
  }
  return marks.length === 0 ? pdf : writer.apply(pdf, marks);
}
