import { concatTransformationMatrix, popGraphicsState, pushGraphicsState, type PDFPage } from '@cantoo/pdf-lib';
import type { TemplateField } from '../../template/index.js';
import type { PlannedPage } from '../normalize/types.js';
import type { PageFrame } from '../output/prepared-template.js';
import { fieldRects, strokeBoxes } from './debug.js';
import type { DisplayRect } from '../../geometry/index.js';
import { colorOf, displayMatrix, toDrawBox, turnBox } from './geometry.js';
import { drawImage, type ImageEmbedder } from './image.js';
import { drawDot, drawMark } from './marks.js';
import { drawBlock, drawCells, drawLineBoxes, drawSingleLine, type Typesetter } from './text.js';

export interface BoxOptions {
  drawDebugBoxes: boolean;
  borderColor?: string;
}

const DEBUG_BOX_COLOR = '#FF0000';

/** Whether anything is drawn on this page (pages with nothing to draw are left untouched). */
export function pageDraws(planned: PlannedPage, templateFields: TemplateField[], boxes: BoxOptions): boolean {
  if (boxes.drawDebugBoxes && templateFields.length > 0) return true;
  if (boxes.borderColor !== undefined && planned.fields.length > 0) return true;
  return planned.fields.some((f) => f.contents.length > 0);
}

export interface PageTools {
  text: Typesetter;
  images: ImageEmbedder;
}

/** Draws one planned page's values over the template page, in display coordinates. */
export function renderPage(
  page: PDFPage,
  frame: PageFrame,
  planned: PlannedPage,
  templateFields: TemplateField[],
  tools: PageTools,
  boxes: BoxOptions,
): void {
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...displayMatrix(frame)));
  const setter = tools.text;
  for (const filled of planned.fields) {
    const rotation = filled.field.rotation ?? 0;
    /** Draws in `box`; a turned field (a fillable PDF's widget with /MK /R) upright in the turned box, turned onto it. */
    const inBox = (box: DisplayRect, draw: (box: DisplayRect) => void): void => {
      if (rotation === 0) return draw(box);
      const turned = turnBox(box, rotation);
      page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...turned.matrix));
      draw(turned.box);
      page.pushOperators(popGraphicsState());
    };
    for (const c of filled.contents) {
      switch (c.kind) {
        case 'text':
          inBox(toDrawBox(c.box, frame), (b) =>
            (c.multiline ? drawBlock : drawSingleLine)(page, setter, b, c.text, c.style),
          );
          break;
        case 'cells':
          inBox(toDrawBox(c.box, frame), (b) => drawCells(page, setter, b, c.chars, c.cells, c.style));
          break;
        case 'lines':
          drawLineBoxes(
            page,
            setter,
            c.boxes.map((b) => toDrawBox(b, frame)),
            c.paragraphs,
            c.style,
          );
          break;
        case 'mark':
          inBox(toDrawBox(c.box, frame), (b) => drawMark(page, setter, b, c.char, c.square, c.style));
          break;
        case 'dot':
          drawDot(page, toDrawBox(c.box, frame), c.style);
          break;
        case 'image':
          if (c.image) drawImage(page, tools.images, toDrawBox(c.box, frame), c.image);
          break;
      }
    }
  }
  if (boxes.drawDebugBoxes) {
    strokeBoxes(page, frame, templateFields.flatMap(fieldRects), colorOf(boxes.borderColor ?? DEBUG_BOX_COLOR));
  } else if (boxes.borderColor) {
    strokeBoxes(
      page,
      frame,
      planned.fields.map((f) => f.box),
      colorOf(boxes.borderColor),
    );
  }
  page.pushOperators(popGraphicsState());
}
