/**
 * Every character a page shows, with its box, in the page's display frame
 * (points, origin top-left, after /Rotate and the crop box).
 *
 * pdfjs' text content gives one box per run of text, not per character, so a
 * tag inside a longer run ("Sign here: {{ signature }}") could only be placed
 * by guessing. Instead this walks pdfjs' operator list (glyphs with their
 * widths, text and graphics state operators) and tracks the text matrix the
 * way a viewer does, which gives each glyph's exact advance.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InvalidPdfError } from '../../errors/index.js';
import { VALUE_MARKED_CONTENT } from '../../format/index.js';

type Matrix = [number, number, number, number, number, number];

export interface Glyph {
  /** The Unicode text the glyph stands for (may be several characters for a ligature, or empty). */
  text: string;
  /** The glyph's box: from its origin to its advance, from the baseline up by the font size, as shown. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Drawn inside `/CastpressValue` marked content: text that came from a value, never part of a tag. */
  value?: boolean;
  /** Where the page's own content shows it (not set inside a form XObject): what removing it takes. */
  source?: GlyphSource;
}

/** A glyph's text-showing operator and its place in it, for src/pdf `dropTextGlyphs`. */
export interface GlyphSource {
  /** The operator's index among the page content's text-showing operators (Tj, TJ, ', "). */
  op: number;
  /** The glyph's index among the operator's character codes. */
  index: number;
  /** Its advance as a TJ adjustment (−advance·1000/font size, before Tz). */
  adjustment: number;
}

export interface PageGlyphs {
  pageNum: number;
  width: number;
  height: number;
  glyphs: Glyph[];
  /** How many character codes each text-showing operator of the page's own content shows, by operator. */
  operatorCodes: number[];
}

interface PdfjsGlyph {
  unicode?: string;
  width?: number;
  isSpace?: boolean;
  vmetric?: unknown;
}

interface TextState {
  ctm: Matrix;
  font?: string;
  size: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function isArrayLike(v: unknown): v is ArrayLike<unknown> {
  return typeof v === 'object' && v !== null && 'length' in v && typeof v.length === 'number';
}

function asMatrix(args: unknown[] | null | undefined): Matrix | undefined {
  if (!args) return undefined;
  // pdf.js gives a matrix as six operands, or as one array of six.
  const first = args[0];
  const src: ArrayLike<unknown> | undefined = args.length === 1 ? (isArrayLike(first) ? first : undefined) : args;
  if (!src || src.length < 6) return undefined;
  const m = Array.from({ length: 6 }, (_, i) => Number(src[i])) as Matrix;
  return m.every(Number.isFinite) ? m : undefined;
}

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsModule: Promise<Pdfjs> | undefined;

/** Loaded on first use: pdfjs costs more to import than a small packet takes to assemble. */
function loadPdfjs(): Promise<Pdfjs> {
  pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsModule;
}

function assetUrls(): Record<string, string> {
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const dir = (name: string) => pathToFileURL(path.join(root, name) + path.sep).href;
  return {
    standardFontDataUrl: dir('standard_fonts'),
    cMapUrl: dir('cmaps'),
    wasmUrl: dir('wasm'),
    iccUrl: dir('iccs'),
  };
}

export interface ReadGlyphsOptions {
  /**
   * Reads a page's glyphs only when its text (runs joined without separators) passes this test;
   * other pages come back with no glyphs. The operator list costs 2–4 times the text content (it
   * decodes images too), and most pages of a packet hold no tag.
   */
  onlyIf?: (pageText: string) => boolean;
  /** Told the number of pages once the document is open, before any page is read: throwing stops the read. */
  onPageCount?: (pages: number) => void;
  /**
   * With `onlyIf`: told each page's text (as `onlyIf` sees it) in a first pass over every page's text, before
   * any operator list is read: throwing stops the read (a limit the text alone shows is passed).
   */
  onPageText?: (pageText: string, pageNum: number) => void;
  /** Told each page as it is read: throwing stops the read there (a limit passed mid-document). */
  onPage?: (page: PageGlyphs) => void;
  /** Checked before each page: aborted, the read stops with the signal's reason. */
  signal?: AbortSignal;
}

/** Reads every page's glyphs. Page content only: annotations (form values, comments) are not the author's text. */
export async function readPageGlyphs(
  bytes: Uint8Array,
  property = 'pdf',
  options: ReadGlyphsOptions = {},
): Promise<PageGlyphs[]> {
  const pdfjs = await loadPdfjs();
  let doc: Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
  try {
    doc = await pdfjs.getDocument({
      // pdfjs detaches the buffer it is given.
      data: new Uint8Array(bytes),
      ...assetUrls(),
      cMapPacked: true,
      disableFontFace: true,
      useSystemFonts: false,
      isEvalSupported: false,
      fontExtraProperties: true,
      verbosity: 0,
    } as Parameters<Pdfjs['getDocument']>[0]).promise;
  } catch (e) {
    throw new InvalidPdfError(`Not a readable PDF: ${e instanceof Error ? e.message : String(e)}`, property, {
      cause: e,
    });
  }
  try {
    options.onPageCount?.(doc.numPages);
    // First the text of every page (the cheap part): which pages to read further, and what the text tells.
    const wanted: boolean[] = [];
    if (options.onlyIf) {
      for (let i = 1; i <= doc.numPages; i++) {
        options.signal?.throwIfAborted();
        const page = await doc.getPage(i);
        const content = await page.getTextContent({ includeMarkedContent: false });
        const text = content.items.map((it) => ('str' in it ? it.str : '')).join('');
        page.cleanup();
        options.onPageText?.(text, i - 1);
        wanted[i - 1] = options.onlyIf(text);
      }
    }
    const pages: PageGlyphs[] = [];
    const read = (found: PageGlyphs) => {
      pages.push(found);
      options.onPage?.(found);
    };
    for (let i = 1; i <= doc.numPages; i++) {
      options.signal?.throwIfAborted();
      const page = await doc.getPage(i);
      const viewport = page.getViewport({ scale: 1 });
      if (options.onlyIf && !wanted[i - 1]) {
        page.cleanup();
        read({ pageNum: i - 1, width: viewport.width, height: viewport.height, glyphs: [], operatorCodes: [] });
        continue;
      }
      const ops = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
      const fontMatrix = (name: string): Matrix => {
        const font = page.commonObjs.has(name) ? (page.commonObjs.get(name) as { fontMatrix?: number[] } | null) : null;
        return (asMatrix(font?.fontMatrix ? [font.fontMatrix] : undefined) ?? [0.001, 0, 0, 0.001, 0, 0]) as Matrix;
      };
      const { glyphs, operatorCodes } = interpret(
        pdfjs.OPS,
        ops.fnArray,
        ops.argsArray as unknown[][],
        fontMatrix,
        viewport.transform as Matrix,
      );
      page.cleanup();
      read({ pageNum: i - 1, width: viewport.width, height: viewport.height, glyphs, operatorCodes });
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

/** Runs the text-relevant part of an operator list; `view` maps user space to the display frame. */
function interpret(
  OPS: Record<string, number>,
  fns: number[],
  argsList: unknown[][],
  fontMatrixOf: (font: string) => Matrix,
  view: Matrix,
): { glyphs: Glyph[]; operatorCodes: number[] } {
  const glyphs: Glyph[] = [];
  const operatorCodes: number[] = [];
  // Inside a form XObject: its glyphs are not the page content's.
  let formDepth = 0;
  let st: TextState = { ctm: IDENTITY, size: 0, charSpacing: 0, wordSpacing: 0, hScale: 1, leading: 0, rise: 0 };
  const stack: TextState[] = [];
  // Per open marked-content sequence: whether it (or one it sits in) holds values.
  const marked: boolean[] = [];
  const tagName = (a: unknown) => (typeof a === 'string' ? a : (a as { name?: unknown } | null)?.name);
  let tm: Matrix = IDENTITY;
  let tlm: Matrix = IDENTITY;
  const moveLine = (tx: number, ty: number) => {
    tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
    tm = tlm;
  };

  for (let i = 0; i < fns.length; i++) {
    const fn = fns[i];
    const args = argsList[i] ?? [];
    switch (fn) {
      case OPS.save:
        stack.push({ ...st });
        break;
      case OPS.restore:
        st = stack.pop() ?? st;
        break;
      case OPS.transform: {
        const m = asMatrix(args);
        if (m) st.ctm = multiply(m, st.ctm);
        break;
      }
      case OPS.paintFormXObjectBegin: {
        stack.push({ ...st });
        formDepth++;
        const m = asMatrix(args[0] ? [args[0]] : undefined);
        if (m) st.ctm = multiply(m, st.ctm);
        break;
      }
      case OPS.paintFormXObjectEnd:
        st = stack.pop() ?? st;
        formDepth = Math.max(0, formDepth - 1);
        break;
      case OPS.beginMarkedContent:
      case OPS.beginMarkedContentProps:
        marked.push(marked.at(-1) === true || tagName(args[0]) === VALUE_MARKED_CONTENT);
        break;
      case OPS.endMarkedContent:
        marked.pop();
        break;
      case OPS.beginText:
        tm = IDENTITY;
        tlm = IDENTITY;
        break;
      case OPS.setFont:
        st.font = String(args[0]);
        st.size = Number(args[1]) || 0;
        break;
      case OPS.setCharSpacing:
        st.charSpacing = Number(args[0]) || 0;
        break;
      case OPS.setWordSpacing:
        st.wordSpacing = Number(args[0]) || 0;
        break;
      case OPS.setHScale:
        st.hScale = (Number(args[0]) || 100) / 100;
        break;
      case OPS.setLeading:
        st.leading = Number(args[0]) || 0;
        break;
      case OPS.setTextRise:
        st.rise = Number(args[0]) || 0;
        break;
      case OPS.setTextMatrix: {
        const m = asMatrix(args);
        if (m) {
          tm = m;
          tlm = m;
        }
        break;
      }
      case OPS.moveText:
        moveLine(Number(args[0]) || 0, Number(args[1]) || 0);
        break;
      case OPS.setLeadingMoveText:
        st.leading = -(Number(args[1]) || 0);
        moveLine(Number(args[0]) || 0, Number(args[1]) || 0);
        break;
      case OPS.nextLine:
        moveLine(0, -st.leading);
        break;
      case OPS.showText:
      case OPS.showSpacedText: {
        const items = (args[0] ?? []) as Array<PdfjsGlyph | number | null>;
        const fm = st.font ? fontMatrixOf(st.font) : ([0.001, 0, 0, 0.001, 0, 0] as Matrix);
        const op = formDepth === 0 ? operatorCodes.length : -1;
        let index = 0;
        for (const item of items) {
          if (typeof item === 'number') {
            // TJ adjustment: thousandths of a text space unit, moving left.
            tm = multiply([1, 0, 0, 1, (-item / 1000) * st.size * st.hScale, 0], tm);
            continue;
          }
          // Every code counts, also one the font has no glyph for.
          const at = index++;
          if (!item) continue;
          const advance =
            ((item.width ?? 0) * fm[0] * st.size + st.charSpacing + (item.isSpace ? st.wordSpacing : 0)) * st.hScale;
          const glyphAdvance = (item.width ?? 0) * fm[0] * st.size * st.hScale;
          const toView = multiply(multiply(tm, st.ctm), view);
          const corners = [
            apply(toView, 0, st.rise),
            apply(toView, glyphAdvance, st.rise),
            apply(toView, 0, st.rise + st.size),
            apply(toView, glyphAdvance, st.rise + st.size),
          ];
          const xs = corners.map((c) => c[0]);
          const ys = corners.map((c) => c[1]);
          const x = Math.min(...xs);
          const y = Math.min(...ys);
          glyphs.push({
            text: item.unicode ?? '',
            x,
            y,
            width: Math.max(...xs) - x,
            height: Math.max(...ys) - y,
            ...(marked.at(-1) === true ? { value: true } : {}),
            ...(op >= 0 ? { source: { op, index: at, adjustment: (-advance / st.hScale / st.size) * 1000 } } : {}),
          });
          tm = multiply([1, 0, 0, 1, advance, 0], tm);
        }
        if (op >= 0) operatorCodes.push(index);
        break;
      }
      default:
        break;
    }
  }
  return { glyphs, operatorCodes };
}
