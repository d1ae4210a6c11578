/**
 * Finds text tags on a PDF's pages. Characters are joined in content order
 * across text runs, so a tag an editor split into several runs (a font change,
 * kerning, a spell-check span) is still one tag; its rect covers the glyphs from
 * the opening `{{` to the closing `}}`.
 */
import { literalPieces } from '../../format/index.js';
import { displayedPageSizes, type PageGlyphDrops } from '../../pdf/index.js';
import { readPageGlyphs, type Glyph, type PageGlyphs } from './glyphs.js';
import { parseTagText, type TagSpec } from './syntax.js';
import { TextTagError } from '../request/errors.js';

export interface FoundTag extends TagSpec {
  /** The tag as written, braces included. */
  text: string;
  /** 0-based. */
  pageNum: number;
  /** Points from the displayed page's top-left corner. */
  rect: { x: number; y: number; width: number; height: number };
}

export interface TagSource {
  /** The file's id, named in errors. */
  fileId: string;
  /** The file's property path in the request (e.g. `files[2]`), named in errors. */
  property: string;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** A loop, not Math.min(...list): spreading a tag of a few hundred thousand glyphs overflowed the stack (RangeError). */
function boxOf(glyphs: Glyph[]): FoundTag['rect'] {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const g of glyphs) {
    x0 = Math.min(x0, g.x);
    y0 = Math.min(y0, g.y);
    x1 = Math.max(x1, g.x + g.width);
    y1 = Math.max(y1, g.y + g.height);
  }
  return { x: round(x0), y: round(y0), width: round(x1 - x0), height: round(y1 - y0) };
}

/** Tags on one page's glyphs; throws TextTagError for a malformed or unclosed tag. */
export function tagsOnPage(glyphs: Glyph[], pageNum: number, source: TagSource): FoundTag[] {
  return tagGlyphsOnPage(glyphs, pageNum, source).map((t) => t.tag);
}

/** Each tag of a page with the glyphs that show it. */
function tagGlyphsOnPage(
  glyphs: Glyph[],
  pageNum: number,
  source: TagSource,
): Array<{ tag: FoundTag; glyphs: Glyph[] }> {
  // One string for the page, with the glyph each character came from. A value's characters stand as
  // U+FFFC: they can neither open, close nor split a tag.
  let text = '';
  const owner: number[] = [];
  glyphs.forEach((g, gi) => {
    for (const ch of g.value ? g.text.replace(/[^]/gu, '\uFFFC') : g.text) {
      text += ch;
      for (let k = 0; k < ch.length; k++) owner.push(gi);
    }
  });
  const found: Array<{ tag: FoundTag; glyphs: Glyph[] }> = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('{{', from);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    const nextOpen = text.indexOf('{{', open + 2);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
      const shown = text.slice(open, Math.min(open + 40, nextOpen >= 0 ? nextOpen : text.length));
      throw new TextTagError(source.fileId, `${source.property}`, pageNum, shown, 'is not closed with }}');
    }
    const whole = text.slice(open, close + 2);
    const parsed = parseTagText(text.slice(open + 2, close));
    if (!parsed.ok) throw new TextTagError(source.fileId, source.property, pageNum, whole, parsed.problem);
    const used = [...new Set(owner.slice(open, close + 2))]
      .map((gi) => glyphs[gi])
      .filter((g): g is Glyph => g !== undefined);
    found.push({ tag: { ...parsed.spec, text: whole, pageNum, rect: boxOf(used) }, glyphs: used });
    from = close + 2;
  }
  return found;
}

export interface ScannedPdf {
  /** Displayed size of each page, points. */
  pages: Array<{ width: number; height: number }>;
  tags: FoundTag[];
  /** What removing the tags' glyphs from the pages takes (src/pdf `dropTextGlyphs`). */
  tagGlyphs: PageGlyphDrops[];
  /** Tags drawn (in part) inside a form XObject: shared content that removal leaves as it is. */
  inForms: FoundTag[];
}

/** The glyphs of a page's tags as drops per text-showing operator; tags with a glyph inside a form XObject apart. */
function tagDrops(page: PageGlyphs, found: Array<{ tag: FoundTag; glyphs: Glyph[] }>, inForms: FoundTag[]) {
  const byOp = new Map<number, PageGlyphDrops['operators'][number]>();
  for (const { tag, glyphs } of found) {
    if (glyphs.some((g) => !g.source)) {
      inForms.push(tag);
      continue;
    }
    for (const g of glyphs) {
      const { op, index, adjustment } = g.source!;
      let entry = byOp.get(op);
      if (!entry) byOp.set(op, (entry = { op, glyphCount: page.operatorCodes[op] ?? 0, drop: [] }));
      entry.drop.push({ index, adjustment });
    }
  }
  return { pageIndex: page.pageNum, textOperators: page.operatorCodes.length, operators: [...byOp.values()] };
}

/** What a scan tells as it goes (a limit checked page by page stops it by throwing), and its abort. */
export interface ScanOptions {
  /** The number of pages, once the PDF is open and before any page is read. */
  pageCount?: (pages: number) => void;
  /** The tags of each page as it is read. */
  tags?: (found: FoundTag[], pageNum: number) => void;
  /**
   * The signature and initial tags each page's text shows, in a first pass over the text of every page
   * (cheaper than reading the pages' glyphs): a limit on them is passed before the expensive reading starts.
   */
  textSignatureTags?: (count: number, pageNum: number) => void;
  signal?: AbortSignal;
}

/** `{{ signature…` and `{{ initial…` in a page's text (spaces dropped, any case), not `{{ signatureDate }}`. */
function signatureTagsInText(pageText: string): number {
  if (!pageText.includes('{{')) return 0;
  return pageText.replace(/\s+/g, '').match(/\{\{(?:signature|initial)(?=[:}]|$)/gi)?.length ?? 0;
}

/** Page sizes and every tag of a PDF, page by page. */
export async function scanPdf(pdf: Uint8Array, source: TagSource, options: ScanOptions = {}): Promise<ScannedPdf> {
  const tags: FoundTag[] = [];
  const tagGlyphs: PageGlyphDrops[] = [];
  const inForms: FoundTag[] = [];
  // A page without `{{` in its text can hold neither a tag nor an unclosed one (whitespace dropped:
  // pdfjs' text content puts spaces where runs leave gaps, the glyph walk does not).
  const pages = await readPageGlyphs(pdf, source.property, {
    onlyIf: (text) => text.replace(/\s+/g, '').includes('{{'),
    ...(options.pageCount ? { onPageCount: options.pageCount } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.textSignatureTags
      ? {
          onPageText: (text: string, pageNum: number) =>
            options.textSignatureTags?.(signatureTagsInText(text), pageNum),
        }
      : {}),
    onPage: (page) => {
      const found = tagGlyphsOnPage(page.glyphs, page.pageNum, source);
      const pageTags = found.map((f) => f.tag);
      for (const tag of pageTags) tags.push(tag);
      if (found.length > 0) tagGlyphs.push(tagDrops(page, found, inForms));
      options.tags?.(pageTags, page.pageNum);
    },
  });
  return { pages: pages.map((p) => ({ width: p.width, height: p.height })), tags, tagGlyphs, inForms };
}

/**
 * Whether a document generated from `source` (a Markdown file's generate request) can show a `{`:
 * only if one of its strings holds one, or an `&` (an HTML entity such as `&#123;` or `&lbrace;`,
 * which markdown-it and inline HTML decode), also as a compatibility form (`｛`), outside its literal
 * spans (values, src/format literal-text.ts: never tags). The furniture drawn around the blocks (page
 * numbers, the logo, the date) holds none. Keys are not shown.
 */
export function mayShowBrace(source: unknown): boolean {
  if (typeof source === 'string') {
    // Literal spans (values) are never tags, whatever they show.
    const authored = literalPieces(source)
      .filter((p) => !p.value)
      .map((p) => p.text)
      .join('');
    // Compatibility forms too (a fullwidth or small brace): pdf.js may read them as `{`.
    const text = /^[\x00-\x7f]*$/.test(authored) ? authored : authored.normalize('NFKC');
    return text.includes('{') || text.includes('&');
  }
  if (Array.isArray(source)) return source.some(mayShowBrace);
  if (source !== null && typeof source === 'object') return Object.values(source).some(mayShowBrace);
  return false;
}

/**
 * Page sizes and every tag of a PDF generated from `source` (see mayShowBrace): one that can
 * show no `{` holds no tag, so the kernel reads its page sizes and pdf.js, whose first load costs
 * a process ~0.4 s of CPU (more than a small packet takes to assemble), is not loaded for it.
 */
export async function scanGeneratedPdf(
  pdf: Uint8Array,
  source: TagSource,
  generatedFrom: unknown,
  options: ScanOptions = {},
): Promise<ScannedPdf> {
  if (mayShowBrace(generatedFrom)) return scanPdf(pdf, source, options);
  return { pages: await displayedPageSizes(pdf, source.property), tags: [], tagGlyphs: [], inForms: [] };
}

/** Every tag of a PDF, page by page. */
export async function findTextTags(pdf: Uint8Array, source: TagSource): Promise<FoundTag[]> {
  return (await scanPdf(pdf, source)).tags;
}
