/**
 * The signers' adopted marks on the certificate of completion. The certificate is laid out by
 * the engine (a Markdown generate request); its request leaves a blank table cell per mark, in a block
 * with an id (`adoptedMarksId`), and the layout reports where each cell landed. The mark is drawn there
 * once the PDF exists, by the same AppearanceWriter that drew it on the documents, so it looks as it
 * does there. Nothing is read back from the PDF: loading pdf.js for that would cost every fresh
 * process ~0.6-1.2 s of CPU at its first completion.
 */
import type { BlockPosition, CellPosition } from '../../engine/index.js';
import type { AppearanceWriter, SignatureMark } from '../../signing/index.js';
import {
  adoptedKinds,
  adoptedMarksId,
  certificateSigners,
  type CompletionCertificate,
} from './completion-certificate.js';

/** The largest a mark is drawn, in points (its room is about 54 pt high). */
const MARK = { width: 200, height: 40 };
/** Kept free between the mark and its cell's edges (the cell's own padding is 2.7 pt). */
const GAP = 4;

/** The mark's rect in its room: inside the cell by `GAP`, at most `MARK`; undefined when too small. */
function inRoom(cell: CellPosition): SignatureMark['rect'] | undefined {
  const width = Math.min(MARK.width, cell.width - 2 * GAP);
  const height = Math.min(MARK.height, cell.height - 2 * GAP);
  return width >= 8 && height >= 8 ? { x: cell.x + GAP, y: cell.y + GAP, width, height } : undefined;
}

/** The room of `column` in the table `id`: its blank row's cell, the tallest piece should it be split across pages. */
function room(
  blocks: readonly BlockPosition[],
  id: string,
  column: number,
): { page: number; cell: CellPosition } | undefined {
  let best: { page: number; cell: CellPosition } | undefined;
  for (const block of blocks) {
    if (block.id !== id) continue;
    for (const cell of block.cells ?? []) {
      if (cell.row !== 1 || cell.column !== column) continue;
      if (!best || cell.height > best.cell.height) best = { page: block.page, cell };
    }
  }
  return best;
}

/**
 * `pdf` (the certificate as the engine made it from `certificateRequest(certificate)`, with the
 * positions of its blocks `blocks`) with each signer's adopted marks drawn in their rooms, as one
 * incremental update; `pdf` itself when no signer adopted a mark. A room the layout did not report
 * (or left too small) gets no mark.
 */
export async function drawAdoptedMarks(
  pdf: Uint8Array,
  blocks: readonly BlockPosition[],
  certificate: CompletionCertificate,
  writer: AppearanceWriter,
): Promise<Uint8Array> {
  const marks: SignatureMark[] = [];
  certificateSigners(certificate).forEach((s, k) =>
    adoptedKinds(s.adopted).forEach((kind, column) => {
      const input = s.adopted?.[kind];
      const at = room(blocks, adoptedMarksId(k + 1), column);
      const rect = at && inRoom(at.cell);
      if (input && at && rect) marks.push({ page: at.page, rect, role: kind, input });
    }),
  );
  return marks.length === 0 ? pdf : writer.apply(pdf, marks);
}
