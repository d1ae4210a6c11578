/**
 * Tag boxes read back independently of the finder: pdfjs' text content (one
 * box per run), turned into the displayed page's frame through pdfjs' own
 * viewport, so rotated pages are measured the way a viewer shows them.
 */
import { openPdf } from './pdf.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RunBox extends Box {
  str: string;
  pageNum: number;
}

export async function runBoxes(bytes: Uint8Array): Promise<RunBox[]> {
  const doc = await openPdf(bytes);
  try {
    const out: RunBox[] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      for (const raw of content.items) {
        if (!('str' in raw) || raw.str.trim() === '') continue;
        const [a, b, c, d, e, f] = raw.transform as number[];
        const along = Math.hypot(a, b);
        const up = Math.hypot(c, d);
        // Corners in user space: along the baseline by width, up by the run's height.
        const ux = [a / along, b / along];
        const vy = [c / up, d / up];
        const pts = [
          [e, f],
          [e + ux[0] * raw.width, f + ux[1] * raw.width],
          [e + vy[0] * raw.height, f + vy[1] * raw.height],
          [e + ux[0] * raw.width + vy[0] * raw.height, f + ux[1] * raw.width + vy[1] * raw.height],
        ].map(([x, y]) => viewport.convertToViewportPoint(x, y) as [number, number]);
        const xs = pts.map((p) => p[0]);
        const ys = pts.map((p) => p[1]);
        const x = Math.min(...xs);
        const y = Math.min(...ys);
        out.push({ str: raw.str, pageNum: i - 1, x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y });
      }
      page.cleanup();
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

export function union(boxes: Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return {
    x,
    y,
    width: Math.max(...boxes.map((b) => b.x + b.width)) - x,
    height: Math.max(...boxes.map((b) => b.y + b.height)) - y,
  };
}

/** Largest difference between two boxes' edges, in points. */
export function boxDistance(a: Box, b: Box): number {
  return Math.max(
    Math.abs(a.x - b.x),
    Math.abs(a.y - b.y),
    Math.abs(a.x + a.width - b.x - b.width),
    Math.abs(a.y + a.height - b.y - b.height),
  );
}
