/**
 * Golden-image comparison: every page rendered with pdfjs is compared with
 * golden/<name>/page-<n>.png. GOLDEN_UPDATE=1 rewrites the references; a
 * mismatch leaves expected / actual / diff images and an HTML report in
 * test-output/ so a person can see what changed.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { renderPages } from './render.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const goldenDir = path.join(root, 'golden');
const reportDir = path.join(root, 'test-output', 'golden');

export interface GoldenOptions {
  /** Pixels per point (default 1). */
  scale?: number;
  /** Share of pixels allowed to differ (default 0.002 = 0.2%). */
  tolerance?: number;
  /** pixelmatch colour threshold 0..1 (default 0.15): smaller colour differences (rounding noise) are ignored. */
  threshold?: number;
  /**
   * Share of the inked pixels (not white in either image) allowed to differ, anti-aliased edges
   * included (default 0.0002, and never fewer than 10 pixels). Renders here are deterministic (0
   * differing pixels run to run), and on a mostly white page 0.2% of the page is a whole word:
   * this catches a moved mark or one added letter (27 pixels on the
   * every-field-type page). pixelmatch's colour threshold still ignores rounding noise.
   */
  inkTolerance?: number;
}

export interface GoldenResult {
  pages: number;
  mismatches: Array<{ page: number; ratio: number }>;
}

export async function expectGolden(name: string, pdf: Uint8Array, options: GoldenOptions = {}): Promise<GoldenResult> {
  const { scale = 1, tolerance = 0.002, threshold = 0.15, inkTolerance = 0.0002 } = options;
  const dir = path.join(goldenDir, name);
  const pages = await renderPages(pdf, scale);
  const update = process.env.GOLDEN_UPDATE === '1';

  if (update) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await Promise.all(pages.map((p, i) => writeFile(path.join(dir, `page-${i + 1}.png`), p.png)));
    return { pages: pages.length, mismatches: [] };
  }

  if (!existsSync(dir)) {
    throw new Error(`No golden images for "${name}" in ${dir}: run \`npm run golden:update\` and review them.`);
  }
  const expectedFiles = (await readdir(dir)).filter((f) => /^page-\d+\.png$/.test(f));
  const failures: string[] = [];
  const mismatches: GoldenResult['mismatches'] = [];
  if (expectedFiles.length !== pages.length) {
    failures.push(`page count: expected ${expectedFiles.length}, got ${pages.length}`);
  }

  const caseReport = path.join(reportDir, name);
  await rm(caseReport, { recursive: true, force: true });
  for (let i = 0; i < pages.length; i++) {
    const file = path.join(dir, `page-${i + 1}.png`);
    if (!existsSync(file)) continue;
    const expected = PNG.sync.read(await readFile(file));
    const actual = pages[i];
    if (expected.width !== actual.width || expected.height !== actual.height) {
      failures.push(
        `page ${i + 1}: size ${actual.width}x${actual.height}, expected ${expected.width}x${expected.height}`,
      );
      await writeCase(caseReport, i + 1, expected, actual.png, null);
      continue;
    }
    const diff = new PNG({ width: actual.width, height: actual.height });
    const differing = pixelmatch(expected.data, actual.rgba, diff.data, actual.width, actual.height, {
      threshold,
      includeAA: true,
    });
    const ratio = differing / (actual.width * actual.height);
    const ink = inked(expected.data, actual.rgba);
    const inkRatio = differing / Math.max(1, ink);
    if (ratio > tolerance || differing > Math.max(MIN_PIXELS, inkTolerance * ink)) {
      mismatches.push({ page: i + 1, ratio });
      failures.push(
        `page ${i + 1}: ${(ratio * 100).toFixed(3)}% of pixels differ (allowed ${(tolerance * 100).toFixed(3)}%); ${differing} pixels = ${(inkRatio * 100).toFixed(3)}% of inked pixels (allowed ${(inkTolerance * 100).toFixed(3)}%, at least ${MIN_PIXELS})`,
      );
      await writeCase(caseReport, i + 1, expected, actual.png, diff);
    }
  }
  if (failures.length > 0) {
    await writeReportIndex();
    throw new Error(`Golden "${name}" differs:\n  ${failures.join('\n  ')}\nSee test-output/golden-report.html`);
  }
  return { pages: pages.length, mismatches };
}

/** `page` is a page number, or a screenshot's own name. */
async function writeCase(
  dir: string,
  page: number | string,
  expected: PNG,
  actualPng: Buffer,
  diff: PNG | null,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const stem = typeof page === 'number' ? `page-${page}` : page;
  await writeFile(path.join(dir, `${stem}-expected.png`), PNG.sync.write(expected));
  await writeFile(path.join(dir, `${stem}-actual.png`), actualPng);
  if (diff) await writeFile(path.join(dir, `${stem}-diff.png`), PNG.sync.write(diff));
}

/** Rebuilt from the folders on disk, so parallel test workers each leave a complete report. */
async function writeReportIndex(): Promise<void> {
  const cases = existsSync(reportDir) ? (await readdir(reportDir, { recursive: true })).map(String) : [];
  const rows = cases
    .filter((f) => f.endsWith('-actual.png'))
    .sort()
    .map((f) => {
      const base = f.replace(/-actual\.png$/, '');
      const img = (suffix: string) => `<td><img src="golden/${base}-${suffix}.png" style="max-width:100%"></td>`;
      return `<tr><th colspan="3">${base}</th></tr><tr>${img('expected')}${img('actual')}${img('diff')}</tr>`;
    });
  const html = `<!doctype html><meta charset="utf-8"><title>Golden report</title>
<style>table{width:100%;border-collapse:collapse}td{width:33%;vertical-align:top;border:1px solid #ccc}th{text-align:left;padding-top:1em}</style>
<table><tr><th>expected</th><th>actual</th><th>diff</th></tr>${rows.join('\n')}</table>`;
  await writeFile(path.join(root, 'test-output', 'golden-report.html'), html);
}

/** Differences below this many pixels always pass (a stray anti-aliased edge on another machine). */
const MIN_PIXELS = 10;

/** Pixels that are not (near) white in either image. */
function inked(a: Uint8Array | Uint8ClampedArray, b: Uint8Array | Uint8ClampedArray): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i]! < 250 || a[i + 1]! < 250 || a[i + 2]! < 250 || b[i]! < 250 || b[i + 1]! < 250 || b[i + 2]! < 250) n++;
  }
  return n;
}

/**
 * A screenshot (PNG) against golden/<name>/<file>.png, with the same tolerances and
 * report as the PDF pages. GOLDEN_UPDATE=1 rewrites the reference.
 */
export async function expectScreenshotGolden(
  name: string,
  file: string,
  png: Buffer,
  options: Omit<GoldenOptions, 'scale'> = {},
): Promise<void> {
  const { tolerance = 0.002, threshold = 0.15, inkTolerance = 0.0002 } = options;
  const dir = path.join(goldenDir, name);
  const target = path.join(dir, `${file}.png`);
  if (process.env.GOLDEN_UPDATE === '1') {
    await mkdir(dir, { recursive: true });
    await writeFile(target, png);
    return;
  }
  if (!existsSync(target)) throw new Error(`No golden image ${target}: run \`npm run golden:update\` and review it.`);
  const expected = PNG.sync.read(await readFile(target));
  const actual = PNG.sync.read(png);
  const caseReport = path.join(reportDir, name);
  let failure = '';
  if (expected.width !== actual.width || expected.height !== actual.height) {
    failure = `size ${actual.width}x${actual.height}, expected ${expected.width}x${expected.height}`;
    await writeCase(caseReport, file, expected, png, null);
  } else {
    const diff = new PNG({ width: actual.width, height: actual.height });
    const differing = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, {
      threshold,
      includeAA: true,
    });
    const ratio = differing / (actual.width * actual.height);
    const ink = inked(expected.data, actual.data);
    if (ratio > tolerance || differing > Math.max(MIN_PIXELS, inkTolerance * ink)) {
      failure = `${(ratio * 100).toFixed(3)}% of pixels differ; ${differing} pixels of ${ink} inked`;
      await writeCase(caseReport, file, expected, png, diff);
    }
  }
  if (failure) {
    await writeReportIndex();
    throw new Error(`Golden "${name}/${file}" differs: ${failure}\nSee test-output/golden-report.html`);
  }
}
