import type { PDFDocument, PDFPage } from '@cantoo/pdf-lib';
import type { CDPSession } from 'playwright-core';
import type { PlacedControl } from './acroform.js';
import type { Bookmark } from './outline.js';
import { evaluate, type Margins, type PrepareResult } from './page-results.js';
import type { DestPoint } from './pdf-dests.js';

/** Where things measured in the page land on the printed pages: overlay pages, form controls, bookmarks. */

/** Draws overlay page `total + i` onto body page `i` and drops the overlay pages. */
export async function mergeOverlay(doc: PDFDocument, total: number, bleed = 0): Promise<void> {
  const all = doc.getPages();
  const overlays = all.slice(total, total * 2);
  if (overlays.length > 0) {
    const embedded = await doc.embedPages(overlays);
    embedded.forEach((e, i) => {
      const body: PDFPage = all[i]!;
      // Page sizes match up to Chromium's 1/300 in quantisation; align top edges (of the page, inside a bleed).
      body.drawPage(e, { x: bleed * 0.75, y: body.getHeight() - bleed * 0.75 - e.height });
    });
  }
  for (let i = all.length - 1; i >= total; i--) doc.removePage(i);
}

/**
 * Chromium 156 writes destinations relative to the page's content box; a
 * future fix may make them page-absolute. The marker at the content origin tells which.
 */
function contentRelativeDests(info: PrepareResult, dests: Map<string, DestPoint>, pages: PDFPage[]): boolean {
  const calib = dests.get(info.calibration);
  return !calib || (Math.abs(calib.x) < 0.5 && Math.abs(calib.y - (pages[calib.page]?.getHeight() ?? 0)) < 0.5);
}

/**
 * Body controls on their printed pages: the position is the control's named destination (print
 * layout); the size is measured again at the printed content width of that page when it differs
 * from the screen layout's (a document `@page` size other than the request's page).
 */
export async function placeControls(cdp: CDPSession, info: PrepareResult, dests: Map<string, DestPoint>, doc: PDFDocument, margins: Margins[], extra: number): Promise<PlacedControl[]> {
  const pages = doc.getPages();
  const contentRelative = contentRelativeDests(info, dests, pages);
  const placed: PlacedControl[] = [];
  const remeasure: Record<string, string[]> = {};
  for (const control of info.forms) {
    const d = dests.get(control.id);
    const page = d ? pages[d.page] : undefined;
    if (!d || !page) continue;
    const height = page.getHeight();
    const m = margins[d.page] ?? { top: 0, left: 0, right: 0, bottom: 0 };
    const left = contentRelative ? m.left * 0.75 + d.x : d.x;
    const top = contentRelative ? m.top * 0.75 + (height - d.y) : height - d.y;
    placed.push({ control, page: d.page, left, top });
    const contentWidth = Math.round((page.getWidth() / 0.75 - extra - m.left - m.right) * 100) / 100;
    if (Math.abs(contentWidth - info.layoutWidth) > 0.5) (remeasure[contentWidth] ??= []).push(control.id);
  }
  if (Object.keys(remeasure).length === 0) return placed;
  const sizes = await evaluate<Record<string, [number, number]>>(cdp, `window.__castpress.measureForms(${JSON.stringify(remeasure)})`);
  return placed.map((p) => {
    const size = sizes[p.control.id];
    return size ? { ...p, control: { ...p.control, width: size[0], height: size[1] } } : p;
  });
}

/** Bookmarks at their element's top. */
export function placeBookmarks(info: PrepareResult, dests: Map<string, DestPoint>, doc: PDFDocument, margins: Margins[]): Bookmark[] {
  const contentRelative = contentRelativeDests(info, dests, doc.getPages());
  const out: Bookmark[] = [];
  for (const b of info.bookmarks) {
    const d = dests.get(b.id);
    if (!d) continue;
    const top = contentRelative ? d.y - (margins[d.page]?.top ?? 0) * 0.75 : d.y;
    out.push({ level: b.level, label: b.label, open: b.open, page: d.page, top });
  }
  return out;
}
