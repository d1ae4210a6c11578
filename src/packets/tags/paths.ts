/**
 * The paths a page paints, in the page's display frame (points, origin top-left), read from the
 * same pdfjs operator list as its glyphs (page-glyphs.ts): the lines and boxes of a flat form
 * (src/detect reads its fields from them). pdfjs hands a path over at its painting operator as
 * one `constructPath` whose data is its own drawing code (moveTo 0, lineTo 1, curveTo 2,
 * quadraticCurveTo 3, closePath 4, coordinates in user space under the current matrix).
 */

type Matrix = [number, number, number, number, number, number];

export interface Subpath {
  /** The points it passes through, display frame; a curve adds its end point only. */
  points: Array<[number, number]>;
  closed: boolean;
  /** Holds a curve (a circle's outline, a rounded corner). */
  curved: boolean;
}

export interface PaintedPath {
  stroked: boolean;
  filled: boolean;
  /** The stroke's width in display points (the line width scaled by the current matrix). */
  lineWidth: number;
  /** `#rrggbb` as pdfjs gives it, `pattern` (a tiling or shading pattern: hatching), or `none` (transparent). */
  fillColor: string;
  strokeColor: string;
  /** Stroked with a dash pattern (dotted separators inside a field, not a field's edge). */
  dashed: boolean;
  subpaths: Subpath[];
}

/** What the walk keeps of the graphics state for paths. */
export interface PaintState {
  lineWidth: number;
  fillColor: string;
  strokeColor: string;
  dashed: boolean;
}

/** Points a page's paths may hold in all: a path of millions of points is no form's box. */
export const MAX_PATH_POINTS = 200_000;

const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;

function paintOf(OPS: Record<string, number>, op: number): { stroked: boolean; filled: boolean } | undefined {
  switch (op) {
    case OPS.stroke:
    case OPS.closeStroke:
      return { stroked: true, filled: false };
    case OPS.fill:
    case OPS.eoFill:
      return { stroked: false, filled: true };
    case OPS.fillStroke:
    case OPS.eoFillStroke:
    case OPS.closeFillStroke:
    case OPS.closeEOFillStroke:
      return { stroked: true, filled: true };
    default:
      // endPath (`n`): a clipping path, nothing is painted.
      return undefined;
  }
}

/**
 * The painted path of one `constructPath` operator, or undefined when it paints nothing or the
 * page's point budget (`budget.left`, decremented) is spent.
 */
export function paintedPath(
  OPS: Record<string, number>,
  args: unknown[],
  toView: Matrix,
  state: PaintState,
  budget: { left: number },
): PaintedPath | undefined {
  const paint = paintOf(OPS, Number(args[0]));
  const holder = args[1];
  const data = Array.isArray(holder) ? (holder[0] as ArrayLike<number> | null | undefined) : undefined;
  if (!paint || !data || typeof data.length !== 'number') return undefined;
  const at = (x: number, y: number): [number, number] => [
    toView[0] * x + toView[2] * y + toView[4],
    toView[1] * x + toView[3] * y + toView[5],
  ];
  const subpaths: Subpath[] = [];
  let current: Subpath | undefined;
  const start = (p: [number, number]) => {
    current = { points: [p], closed: false, curved: false };
    subpaths.push(current);
  };
  const add = (p: [number, number], curved: boolean) => {
    if (!current) start(p);
    else current.points.push(p);
    if (curved) current!.curved = true;
  };
  for (let i = 0; i < data.length;) {
    if (budget.left-- <= 0) return undefined;
    const code = data[i]!;
    if (code === DRAW.moveTo) {
      start(at(data[i + 1]!, data[i + 2]!));
      i += 3;
    } else if (code === DRAW.lineTo) {
      add(at(data[i + 1]!, data[i + 2]!), false);
      i += 3;
    } else if (code === DRAW.curveTo) {
      add(at(data[i + 5]!, data[i + 6]!), true);
      i += 7;
    } else if (code === DRAW.quadraticCurveTo) {
      add(at(data[i + 3]!, data[i + 4]!), true);
      i += 5;
    } else if (code === DRAW.closePath) {
      // What follows a closePath starts where the closed subpath started.
      if (current) {
        current.closed = true;
        start(current.points[0]!);
      }
      i += 1;
    } else return undefined;
  }
  const kept = subpaths.filter((s) => s.points.length > 1 && s.points.every(([x, y]) => Number.isFinite(x + y)));
  if (kept.length === 0) return undefined;
  const scale = Math.sqrt(Math.abs(toView[0] * toView[3] - toView[1] * toView[2]));
  return {
    ...paint,
    lineWidth: state.lineWidth * scale,
    fillColor: state.fillColor,
    strokeColor: state.strokeColor,
    dashed: state.dashed,
    subpaths: kept,
  };
}
