/**
 * The walk over a page's pdfjs operator list behind page-glyphs.ts: the text matrix tracked the
 * way a viewer does (each glyph's exact advance), and, when asked, the paths painted
 * (page-paths.ts), both in the page's display frame.
 */
import { VALUE_MARKED_CONTENT } from '../../format/index.js';
import { applyMatrix as apply, multiplyMatrices as multiply, type Matrix } from '../../pdf/index.js';
import { MAX_PATH_POINTS, paintedPath, type PaintedPath, type PaintState } from './paths.js';

export type { Matrix };

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

/** What the walk finds on a page. */
export interface WalkedPage {
  glyphs: Glyph[];
  /** How many character codes each text-showing operator of the page's own content shows, by operator. */
  operatorCodes: number[];
  /** With `paths`: what the page paints (page-paths.ts), form XObjects' content included. */
  paths?: PaintedPath[];
  /** The walk stopped at `maxOperators` (or the paths' point budget): what it returns is the page's beginning. */
  truncated?: boolean;
}

interface PdfjsGlyph {
  unicode?: string;
  width?: number;
  isSpace?: boolean;
  vmetric?: unknown;
}

interface TextState extends PaintState {
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

export function asMatrix(args: unknown[] | null | undefined): Matrix | undefined {
  if (!args) return undefined;
  const src = args.length === 1 ? (args[0] as ArrayLike<number> | null) : (args as unknown as ArrayLike<number>);
  if (!src || src.length < 6) return undefined;
  const m = Array.from({ length: 6 }, (_, i) => Number(src[i])) as Matrix;
  return m.every(Number.isFinite) ? m : undefined;
}

/** Runs the text-relevant part of an operator list; `view` maps user space to the display frame. */
export function interpret(
  OPS: Record<string, number>,
  fns: number[],
  argsList: unknown[][],
  fontMatrixOf: (font: string) => Matrix,
  view: Matrix,
  limits: { paths: boolean; maxOperators: number },
): WalkedPage {
  const glyphs: Glyph[] = [];
  const operatorCodes: number[] = [];
  const paths: PaintedPath[] = [];
  const pointBudget = { left: MAX_PATH_POINTS };
  // Inside a form XObject: its glyphs are not the page content's.
  let formDepth = 0;
  let st: TextState = {
    ctm: IDENTITY,
    size: 0,
    charSpacing: 0,
    wordSpacing: 0,
    hScale: 1,
    leading: 0,
    rise: 0,
    lineWidth: 1,
    fillColor: '#000000',
    strokeColor: '#000000',
    dashed: false,
  };
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

  const end = Math.min(fns.length, limits.maxOperators);
  for (let i = 0; i < end; i++) {
    const fn = fns[i];
    const args = argsList[i] ?? [];
    switch (fn) {
      case OPS.constructPath: {
        if (!limits.paths || pointBudget.left <= 0) break;
        const path = paintedPath(OPS, args, multiply(st.ctm, view), st, pointBudget);
        if (path) paths.push(path);
        break;
      }
      case OPS.setLineWidth:
        st.lineWidth = Math.abs(Number(args[0])) || 0;
        break;
      case OPS.setFillRGBColor:
        st.fillColor = typeof args[0] === 'string' ? args[0] : 'none';
        break;
      case OPS.setStrokeRGBColor:
        st.strokeColor = typeof args[0] === 'string' ? args[0] : 'none';
        break;
      case OPS.setFillTransparent:
        st.fillColor = 'none';
        break;
      case OPS.setFillColorN:
        st.fillColor = 'pattern';
        break;
      case OPS.setStrokeColorN:
        st.strokeColor = 'pattern';
        break;
      case OPS.setStrokeTransparent:
        st.strokeColor = 'none';
        break;
      case OPS.setDash: {
        const dashes = Array.isArray(args[0]) ? (args[0] as unknown[]) : [];
        st.dashed = dashes.some((d) => Number(d) > 0);
        break;
      }
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
  const truncated = end < fns.length || (limits.paths && pointBudget.left <= 0);
  return { glyphs, operatorCodes, ...(limits.paths ? { paths } : {}), ...(truncated ? { truncated } : {}) };
}
