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
import { asMatrix, interpret, type Matrix, type WalkedPage } from './walk.js';

export type { Glyph, GlyphSource } from './walk.js';

export interface PageGlyphs extends WalkedPage {
  pageNum: number;
  width: number;
  height: number;
  /** Passed over (`skipPages`), or with `skipUnreadablePages` one pdfjs could not read (its size then 0). */
  unreadable?: boolean;
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
  /** Also the paths each page paints (`PageGlyphs.paths`). */
  paths?: boolean;
  /** Operators of a page's operator list walked at most (default: all); a page cut short says `truncated`. */
  maxOperators?: number;
  /** Pages read at most, from the first (default: all). */
  maxPages?: number;
  /** A page pdfjs cannot read comes back empty and `unreadable` instead of stopping the read. */
  skipUnreadablePages?: boolean;
  /** Images are not decoded (what the glyphs and paths are read for does not need them). */
  skipImages?: boolean;
  /** Pages (0-based) not to read: they come back empty and `unreadable`. */
  skipPages?: ReadonlySet<number>;
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
      // pdf.js drops an image larger than this (in pixels) before decoding it.
      ...(options.skipImages ? { maxImageSize: 1 } : {}),
    } as Parameters<Pdfjs['getDocument']>[0]).promise;
  } catch (e) {
    throw new InvalidPdfError(`Not a readable PDF: ${e instanceof Error ? e.message : String(e)}`, property, {
      cause: e,
    });
  }
  // Which pages to read further (with `onlyIf`), from a first pass over every page's text.
  const wanted: boolean[] = [];
  try {
    options.onPageCount?.(doc.numPages);
    // First the text of every page (the cheap part): which pages to read further, and what the text tells.
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
    const last = Math.min(doc.numPages, options.maxPages ?? Infinity);
    for (let i = 1; i <= last; i++) {
      options.signal?.throwIfAborted();
      if (options.skipUnreadablePages) {
        try {
          read(await readPage(i));
        } catch (e) {
          if (options.signal?.aborted) throw e;
          read({ pageNum: i - 1, width: 0, height: 0, glyphs: [], operatorCodes: [], unreadable: true });
        }
      } else read(await readPage(i));
    }
    return pages;
  } finally {
    await doc.destroy();
  }

  async function readPage(i: number): Promise<PageGlyphs> {
    const page = await doc.getPage(i);
    const viewport = page.getViewport({ scale: 1 });
    if (options.skipPages?.has(i - 1)) {
      page.cleanup();
      return {
        pageNum: i - 1,
        width: viewport.width,
        height: viewport.height,
        glyphs: [],
        operatorCodes: [],
        unreadable: true,
      };
    }
    if (options.onlyIf && !wanted[i - 1]) {
      page.cleanup();
      return { pageNum: i - 1, width: viewport.width, height: viewport.height, glyphs: [], operatorCodes: [] };
    }
    const ops = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
    const fontMatrix = (name: string): Matrix => {
      const font = page.commonObjs.has(name) ? (page.commonObjs.get(name) as { fontMatrix?: number[] } | null) : null;
      return (asMatrix(font?.fontMatrix ? [font.fontMatrix] : undefined) ?? [0.001, 0, 0, 0.001, 0, 0]) as Matrix;
    };
    const walked = interpret(
      pdfjs.OPS,
      ops.fnArray,
      ops.argsArray as unknown[][],
      fontMatrix,
      viewport.transform as Matrix,
      {
        paths: options.paths === true,
        maxOperators: options.maxOperators ?? Infinity,
      },
    );
    page.cleanup();
    return { pageNum: i - 1, width: viewport.width, height: viewport.height, ...walked };
  }
}
