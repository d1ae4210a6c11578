/**
 * Rectangles, named for their coordinate system. All are points; the shapes are the same,
 * the names say which corner is the origin and whether the page's /Rotate is applied, so a
 * signature says which one a function expects.
 */

/** From the top-left corner of the page as displayed (crop box, /Rotate applied): templates, fields, marks. */
export interface TopLeftRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** From the bottom-left corner of the page as displayed (/Rotate applied): what drawing through `displayMatrix` uses. */
export interface DisplayRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** PDF user space (the page's own axes, before /Rotate), x, y = bottom-left corner: a widget's /Rect. */
export interface PdfRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Distances in from each edge (CSS margin order): page margins. */
export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}
