/**
 * Generate from Markdown blocks → PDF bytes, without a browser:
 * parse (markdown-it → block model) → layout (flow boxes, measured with the
 * shared TextSetter) → paginate → render (pdf-lib) → serialise (the kernel's
 * createPdf/savePdf).
 */
import type { EngineServices } from '../services/index.js';
import { resolvePageLayout } from '../page-options/index.js';
import { conformToPdfA, createPdf, savePdf, StructureWriter } from '../pdf/index.js';
import type { MarkdownRequest } from '../schema/index.js';
import { TextSetter } from '../text/index.js';
import { isCastpressError, RenderError, ValidationError } from '../errors/index.js';
import { withoutLiteralMarks } from '../format/index.js';
import { imageUrls, toSections } from './document.js';
import { drawLogo, drawMarginText, formatTimestamp, loadLogo, pageNumberText } from './furniture.js';
import { loadImages } from './images.js';
import { Flow, layoutBlocks } from './layout/layout.js';
import type { TableGeometry } from './layout/flow.js';
import { paginate } from './layout/paginate.js';
import { createParser, unplacedLiterals } from './parse.js';
import { blockPositions, type BlockPosition } from './layout/positions.js';
import { drawPage } from './render.js';
import { DEFAULTS, SPACING } from './style.js';

/** Markdown renders with the engine's services (fonts, text layout, subsets, images, resolver, limits, clock). */
export type MarkdownContext = EngineServices;

export { formatTimestamp, pageNumberText } from './furniture.js';
export { DEFAULTS as MARKDOWN_DEFAULTS } from './style.js';
export type { BlockPosition, CellPosition } from './layout/positions.js';

/** See parse.ts `unplacedLiterals`: how many literal spans of `text` would land outside its text. */
export function unplacedLiteralCount(text: string): number {
  return unplacedLiterals(createParser(), text);
}

/** Smallest content area (points) that still makes a document. */
const MIN_CONTENT = 36;

/** The generated PDF, its page count, and where the request's blocks with an `id` landed. */
export interface GeneratedMarkdown {
  pdf: Uint8Array;
  pageCount: number;
  blocks: BlockPosition[];
}

export async function generateMarkdown(request: MarkdownRequest, ctx: MarkdownContext): Promise<GeneratedMarkdown> {
  try {
    return await generate(request, ctx);
  } catch (e) {
    if (isCastpressError(e)) throw e;
    throw new RenderError(`Markdown generation failed: ${e instanceof Error ? e.message : String(e)}`, 500, {
      cause: e,
    });
  }
}

async function generate(request: MarkdownRequest, ctx: MarkdownContext): Promise<GeneratedMarkdown> {
  const page = resolvePageLayout(request.page);
  const { margin } = page;
  const contentWidth = page.width - margin.left - margin.right;
  const contentHeight = page.height - margin.top - margin.bottom;
  if (contentWidth < MIN_CONTENT || contentHeight < MIN_CONTENT) {
    throw ValidationError.of(
      'page',
      `The margins leave no room for content (${Math.round(contentWidth)} × ${Math.round(contentHeight)} pt)`,
    );
  }

  const now = ctx.clock();
  const doc = await createPdf({
    // A viewer shows the title, not the file name (PDF/UA-1 §7.1).
    ...(request.title !== undefined ? { title: withoutLiteralMarks(request.title), showTitle: true } : {}),
    date: now,
  });

  const setter = new TextSetter(doc, ctx.fonts, { layout: ctx.text, subsets: ctx.subsets });
  const sections = toSections(request, createParser(), ctx.fonts);
  const [images, loadedLogo] = await Promise.all([
    loadImages(doc, imageUrls(sections), ctx.resolver, ctx.limits.imageBytes, ctx.images),
    loadLogo(doc, request.logo, ctx.resolver, ctx.limits.imageBytes, ctx.images),
  ]);

  // A logo may be up to 500px; on a small page it shrinks to the content width and half its height.
  const logoScale = loadedLogo
    ? Math.min(1, contentWidth / loadedLogo.width, contentHeight / 2 / loadedLogo.height)
    : 1;
  const logo = loadedLogo && {
    ...loadedLogo,
    width: loadedLogo.width * logoScale,
    height: loadedLogo.height * logoScale,
  };

  const structure = new StructureWriter(doc);
  const flow = new Flow();
  const frame = { x: 0, width: contentWidth, bars: [], depth: 0, tag: structure.root };
  for (const section of sections) {
    flow.gap(SPACING.betweenBlocks * section.style.fontSize, []);
    const first = flow.boxes.length;
    layoutBlocks({ setter, images, maxImageHeight: contentHeight }, flow, section.blocks, section.style, frame);
    // Gaps merge across blocks and are never reported, so tagging what this block added is exact.
    // A table's header row is also placed again (paginate repeats it) from its geometry: tagged too.
    if (section.id !== undefined)
      for (const box of flow.boxes.slice(first)) {
        box.anchor = section.id;
        if (box.kind === 'row' && box.table.header) box.table.header.anchor = section.id;
      }
  }
  const logoSpace = logo ? logo.height + 0.8 * DEFAULTS.fontSize : 0;
  const pages = paginate(flow.boxes, {
    top: margin.top,
    bottom: page.height - margin.bottom,
    left: margin.left,
    firstTop: margin.top + logoSpace,
  });

  const family = request.fontFamily ?? DEFAULTS.fontFamily;
  const target = { doc, setter, structure, headersDrawn: new Set<TableGeometry>() };
  const pdfPages = pages.map((boxes) => {
    const p = doc.addPage([page.width, page.height]);
    drawPage(target, p, boxes);
    return p;
  });
  // Page furniture (logo, page numbers, timestamp) is no part of the reading order: pagination artifacts.
  if (logo) structure.artifact(pdfPages[0], 'Pagination', () => drawLogo(pdfPages[0], logo, page));
  if (page.pageCount) {
    pdfPages.forEach((p, i) =>
      structure.artifact(p, 'Pagination', () =>
        drawMarginText(setter, p, page, page.pageCount!, pageNumberText(i + 1, pdfPages.length), family),
      ),
    );
  }
  if (request.includeTimestamp) {
    const slot = page.pageCount === 'bottomLeft' ? 'bottomRight' : 'bottomLeft';
    const last = pdfPages[pdfPages.length - 1];
    structure.artifact(last, 'Pagination', () =>
      drawMarginText(setter, last, page, slot, formatTimestamp(now, ctx.timeZone), family),
    );
  }
  structure.finish(request.lang !== undefined ? { lang: request.lang } : {});
  let pdf = await savePdf(doc);
  if (request.pdfa) {
    // The first write embeds the fonts (checked) and seeds the file identifier: same request, same bytes.
    conformToPdfA(doc, request.pdfa, pdf);
    pdf = await savePdf(doc);
  }
  return { pdf, pageCount: pdfPages.length, blocks: blockPositions(pages) };
}
