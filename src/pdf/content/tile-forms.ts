/**
 * A sheet page's tiles as form XObjects (splitTiles cuts its content): each form holds one tile's
 * content, shares the sheet's resources, is clipped to the tile by its BBox and moved to the origin by its
 * Matrix, so it is drawn like a page of the tile's size embedded whole (`drawTile`).
 */
import { deflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  type PDFDocument,
  type PDFPage,
} from '@cantoo/pdf-lib';
import { addStandIn, contentRefs } from '../document/stand-ins.js';
import { pageContent } from './drop-glyphs.js';
import { splitTiles, type TileGrid } from './tiles.js';
import { boxOf, type Box } from './tile-geometry.js';

/** One tile wanted from a sheet: its index in the grid (row·cols+col) and its size, from its top-left corner. */
export interface SheetTile {
  index: number;
  width: number;
  height: number;
}

/**
 * The form XObject of each of `tiles` of `sheet`, cut along `grid` (in the sheet's user space); undefined
 * for all of them when the sheet's content cannot be read or does not lex.
 */
export function tileForms(
  doc: PDFDocument,
  sheet: PDFPage,
  grid: TileGrid,
  tiles: readonly SheetTile[],
): PDFRef[] | undefined {
  const content = pageContent(sheet.node.Contents(), (o) => doc.context.lookup(o));
  if (typeof content === 'string') return undefined;
  const resources = sheet.node.Resources();
  const xobjects = resources?.lookup(PDFName.of('XObject'));
  const xobjectBox = (name: string): Box | undefined => {
    const x = xobjects instanceof PDFDict ? xobjects.lookup(PDFName.of(name)) : undefined;
    if (!(x instanceof PDFRawStream)) return undefined;
    const subtype = x.dict.lookup(PDFName.of('Subtype'));
    if (subtype === PDFName.of('Image')) return [0, 0, 1, 1];
    const box = numbers(x.dict.lookup(PDFName.of('BBox')), 4);
    if (subtype !== PDFName.of('Form') || !box) return undefined;
    const m = numbers(x.dict.lookup(PDFName.of('Matrix')), 6) ?? [1, 0, 0, 1, 0, 0];
    return boxOf(m as [number, number, number, number, number, number], box as Box);
  };
  const streams = splitTiles(
    content,
    grid,
    tiles.map((t) => t.index),
    { xobjectBox },
  );
  if (!streams) return undefined;
  // The forms hold the sheet's content now: its own streams go when the sheet leaves the document.
  for (const ref of contentRefs(doc, sheet)) addStandIn(doc, ref);
  return tiles.map((t, k) => {
    const col = t.index % grid.cols;
    const row = Math.floor(t.index / grid.cols);
    const left = grid.left + col * grid.pitch[0];
    const bottom = grid.top - row * grid.pitch[1] - t.height;
    const data = deflateSync(streams[k]!);
    const dict = doc.context.obj({
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [left, bottom, left + t.width, bottom + t.height],
      Matrix: [1, 0, 0, 1, -left, -bottom],
      Filter: 'FlateDecode',
    });
    dict.set(PDFName.of('Length'), PDFNumber.of(data.length));
    if (resources) dict.set(PDFName.of('Resources'), resources);
    return doc.context.register(PDFRawStream.of(dict, data));
  });
}

/** Draws a tile's form onto `page` with its bottom-left corner at (x, y). */
export function drawTile(page: PDFPage, form: PDFRef, x: number, y: number): void {
  const name = page.node.newXObject('Tile', form);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(1, 0, 0, 1, x, y),
    drawObject(name),
    popGraphicsState(),
  );
}

function numbers(o: unknown, n: number): number[] | undefined {
  if (!(o instanceof PDFArray) || o.size() !== n) return undefined;
  const out = o.asArray().map((v) => (v instanceof PDFNumber ? v.asNumber() : NaN));
  return out.some(Number.isNaN) ? undefined : out;
}
