/**
 * Drawing primitives for one page of Markdown output, each tied to the document's structure: content of
 * an element (marked content with an MCID) or an artifact. Layout coordinates have their origin at the
 * page's top-left; PDF user space has it at the bottom-left.
 */
import {
  PDFHexString,
  PDFName,
  PDFString,
  beginMarkedContent,
  endMarkedContent,
  rgb,
  type PDFDocument,
  type PDFPage,
  type RGB,
} from '@cantoo/pdf-lib';
import type { TextSetter } from '../text/index.js';
import type { Line, TableGeometry } from './layout/flow.js';
import { structElement, type ArtifactType, type StructElement, type StructureWriter } from '../pdf/index.js';
import { DEFAULTS, hexToRgb01 } from './style.js';
import { VALUE_MARKED_CONTENT } from '../format/index.js';

/** Link targets made clickable; relative and script URLs stay plain text. */
const CLICKABLE = /^(https?:|mailto:|tel:|ftp:)/i;

export interface RenderTarget {
  doc: PDFDocument;
  setter: TextSetter;
  /** Tags what is drawn (one for the whole document). */
  structure: StructureWriter;
  /** Tables whose header row was drawn: its repeats at the top of later pages are artifacts. */
  headersDrawn: Set<TableGeometry>;
}

export function color(hex: string): RGB {
  const [r, g, b] = hexToRgb01(hex);
  return rgb(r, g, b);
}

export class PageDrawer {
  readonly page: PDFPage;
  readonly height: number;
  readonly #t: RenderTarget;

  constructor(t: RenderTarget, page: PDFPage) {
    this.#t = t;
    this.page = page;
    this.height = page.getHeight();
  }

  /** Draws `draw` as content of `tag`, or as an artifact when there is none. */
  tagged(tag: StructElement | undefined, draw: () => void, otherwise: ArtifactType = 'Layout'): void {
    if (tag) this.#t.structure.tagged(this.page, tag, draw);
    else this.artifact(otherwise, draw);
  }

  artifact(type: ArtifactType, draw: () => void): void {
    this.#t.structure.artifact(this.page, type, draw);
  }

  /** PDF y of a top-origin y. */
  y(top: number): number {
    return this.height - top;
  }

  rect(x: number, top: number, width: number, height: number, hex: string): void {
    this.page.drawRectangle({ x, y: this.y(top + height), width, height, color: color(hex) });
  }

  hline(x1: number, x2: number, top: number, thickness: number, hex: string): void {
    this.page.drawLine({
      start: { x: x1, y: this.y(top) },
      end: { x: x2, y: this.y(top) },
      thickness,
      color: color(hex),
    });
  }

  vline(x: number, top: number, bottom: number, thickness: number, hex: string): void {
    this.page.drawLine({ start: { x, y: this.y(top) }, end: { x, y: this.y(bottom) }, thickness, color: color(hex) });
  }

  /** A link annotation over the box, tied to `tag` (a Link element) when there is one. */
  link(url: string | undefined, x: number, top: number, width: number, height: number, tag?: StructElement): void {
    if (!url || !CLICKABLE.test(url) || width <= 0) return;
    const { doc } = this.#t;
    const bottom = this.y(top + height);
    const annot = doc.context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [x, bottom, x + width, bottom + height],
      Border: [0, 0, 0],
      // Printed (PDF/A), and described for assistive technology (PDF/UA-1 §7.18.5).
      F: 4,
      Contents: PDFHexString.fromText(url),
      A: { Type: 'Action', S: 'URI', URI: PDFString.of(url) },
    });
    const ref = doc.context.register(annot);
    this.page.node.addAnnot(ref);
    if (tag) this.#t.structure.annotation(this.page, tag, ref);
  }

  /**
   * Draws a laid line with its baseline at `baseline` (top-origin) as content of `tag` (none: the caller
   * has an artifact open): code backgrounds first (artifacts), then runs grouped by colour and link, then
   * decorations. A linked stretch is content of its own Link element, with the annotation tied to it.
   */
  line(line: Line, x: number, baseline: number, tag?: StructElement): void {
    const codeRuns = line.runs.filter((run) => run.data?.code && run.text.trim() !== '');
    if (codeRuns.length > 0) {
      const draw = () => {
        for (const run of codeRuns) {
          const size = run.style.fontSize;
          this.rect(x + run.x - 1, baseline - size * 0.95, run.width + 2, size * 1.25, DEFAULTS.codeBackground);
        }
      };
      if (tag) this.artifact('Layout', draw);
      else draw();
    }
    // Stretches of one link: consecutive runs with the same target that touch.
    const stretch: number[] = [];
    const stretches: Array<{ url: string; x: number; end: number; size: number; tag?: StructElement }> = [];
    line.runs.forEach((run, k) => {
      const url = run.data?.link;
      const last = stretches[stretches.length - 1];
      if (url === undefined) stretch.push(-1);
      else if (
        last &&
        stretch[k - 1] === stretches.length - 1 &&
        last.url === url &&
        Math.abs(last.end - run.x) < 0.5
      ) {
        last.end = run.x + run.width;
        stretch.push(stretches.length - 1);
      } else {
        stretches.push({ url, x: run.x, end: run.x + run.width, size: run.style.fontSize });
        stretch.push(stretches.length - 1);
      }
    });
    const owner = (k: number): StructElement | undefined => {
      const s = stretches[stretch[k]!];
      if (!s || !tag) return tag;
      s.tag ??= structElement('Link', tag);
      return s.tag;
    };
    // Consecutive runs of one colour and link are drawn together; the content stream keeps reading order.
    // Runs of literal text (values) are drawn as their own marked content, which the text-tag finder skips.
    const group = (k: number) =>
      `${line.runs[k].data?.color ?? DEFAULTS.textColor} ${line.runs[k].data?.value === true} ${stretch[k]}`;
    let from = 0;
    for (let i = 1; i <= line.runs.length; i++) {
      if (i < line.runs.length && group(i) === group(from)) continue;
      const hex = line.runs[from].data?.color ?? DEFAULTS.textColor;
      const value = line.runs[from].data?.value === true;
      const elem = owner(from);
      if (elem) this.#t.structure.begin(this.page, elem);
      if (value) this.page.pushOperators(beginMarkedContent(PDFName.of(VALUE_MARKED_CONTENT)));
      this.#t.setter.drawLine(this.page, { ...line, runs: line.runs.slice(from, i) }, x, this.y(baseline), color(hex));
      if (value) this.page.pushOperators(endMarkedContent());
      from = i;
    }
    if (tag) this.#t.structure.end(this.page);
    const decorations = line.runs.filter((run) => run.data?.strike || run.data?.link !== undefined);
    if (decorations.length > 0) {
      const draw = () => {
        for (const run of decorations) {
          const size = run.style.fontSize;
          const hex = run.data?.color ?? DEFAULTS.textColor;
          const thickness = Math.max(0.5, size / 16);
          if (run.data?.strike) this.hline(x + run.x, x + run.x + run.width, baseline - size * 0.3, thickness, hex);
          if (run.data?.link !== undefined)
            this.hline(x + run.x, x + run.x + run.width, baseline + size * 0.12, thickness, hex);
        }
      };
      if (tag) this.artifact('Layout', draw);
      else draw();
    }
    for (const s of stretches) this.link(s.url, x + s.x, baseline - s.size, s.end - s.x, s.size * 1.3, s.tag);
  }
}
