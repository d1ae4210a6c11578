/**
 * Reading PDFs back the way a viewer would (pdfjs), so tests assert what a
 * person sees: text with positions, form fields, page sizes.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';

const require = createRequire(import.meta.url);
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'));
const run = promisify(execFile);

export interface TextItem {
  str: string;
  /** Left edge, points from the page's left. */
  x: number;
  /** Top of the glyph box (baseline - font height), points from the page's top. */
  y: number;
  /** Baseline, points from the page's top. */
  baseline: number;
  width: number;
  height: number;
  fontName: string;
  /** Direction of the baseline on the page as displayed (after /Rotate), degrees counterclockwise (0 = left to right). */
  angle: number;
}

export interface PageText {
  width: number;
  height: number;
  items: TextItem[];
}

export interface FieldInfo {
  name: string;
  /** pdfjs field type: Tx (text), Btn (check box, radio, push button), Ch (choice), Sig. */
  type: string;
  value: unknown;
  readOnly: boolean;
  /** [x1, y1, x2, y2] in PDF user space (origin bottom-left). */
  rect: number[];
  /** 0-based page index of the widget. */
  page: number;
  checkBox?: boolean;
  radioButton?: boolean;
  /** Export value of a check box / radio widget. */
  buttonValue?: unknown;
  comb?: boolean;
  maxLen?: number;
  multiLine?: boolean;
  options?: unknown[];
}

export type PdfDocument = Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>;

/** A pdfjs data directory as pdfjs wants it in Node: an absolute path ending with a separator. */
export function pdfjsDataDir(name: 'standard_fonts' | 'cmaps' | 'wasm' | 'iccs'): string {
  return path.join(pdfjsRoot, name) + path.sep;
}

export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  // pdfjs transfers (detaches) the buffer it is given: hand it a copy.
  const data = new Uint8Array(bytes);
  return pdfjs.getDocument({
    data,
    // In Node, pdfjs reads these with fs.promises.readFile(baseUrl + filename): they must be plain
    // directory paths ending in a separator. A file:// URL string is read as a relative path that
    // does not exist, every standard-14 font then fails to load, and pages show missing-glyph boxes
    // (test/harness.test.ts checks the standard fonts are drawn from pdfjs's own data).
    standardFontDataUrl: pdfjsDataDir('standard_fonts'),
    cMapUrl: pdfjsDataDir('cmaps'),
    cMapPacked: true,
    wasmUrl: pdfjsDataDir('wasm'),
    iccUrl: pdfjsDataDir('iccs'),
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  } as Parameters<typeof pdfjs.getDocument>[0]).promise;
}

export async function pageCount(bytes: Uint8Array): Promise<number> {
  const doc = await openPdf(bytes);
  try {
    return doc.numPages;
  } finally {
    await doc.destroy();
  }
}

export async function readText(bytes: Uint8Array): Promise<PageText[]> {
  const doc = await openPdf(bytes);
  try {
    const pages: PageText[] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const items: TextItem[] = [];
      for (const raw of content.items) {
        if (!('str' in raw)) continue;
        const [a, b, , , e, f] = raw.transform as number[];
        const [vx, vy] = viewport.convertToViewportPoint(e, f) as [number, number];
        const fontHeight = raw.height || Math.hypot(a, b);
        items.push({
          str: raw.str,
          x: vx,
          y: vy - fontHeight,
          baseline: vy,
          width: raw.width,
          height: fontHeight,
          fontName: raw.fontName,
          angle: Math.round(((Math.atan2(b, a) * 180) / Math.PI - viewport.rotation + 720) % 360),
        });
      }
      pages.push({ width: viewport.width, height: viewport.height, items });
      page.cleanup();
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

/**
 * Each page's text: items in content order, a newline where the baseline moves,
 * and a space only where the gap between two items on a line is wider than a
 * fraction of the font size (so a font change mid-word adds nothing).
 */
export async function pageText(bytes: Uint8Array): Promise<string[]> {
  const pages = await readText(bytes);
  return pages.map((p) => joinItems(p.items));
}

export function joinItems(items: TextItem[]): string {
  let out = '';
  let prev: TextItem | undefined;
  for (const it of items) {
    if (it.str === '') continue;
    if (prev) {
      if (Math.abs(it.baseline - prev.baseline) > Math.max(1, prev.height * 0.3)) out += '\n';
      else {
        const gap = it.x - (prev.x + prev.width);
        const spaced = out.endsWith(' ') || it.str.startsWith(' ');
        // A gap, or text drawn leftwards (right-to-left runs are emitted in reading order).
        if (!spaced && (gap > Math.min(it.height, prev.height) * 0.15 || gap < -Math.min(it.height, prev.height)))
          out += ' ';
      }
    }
    out += it.str;
    prev = it;
  }
  return out;
}

/** Text items whose origin falls inside a rectangle given with a top-left origin (template coordinates). */
export function itemsInRect(
  page: PageText,
  rect: { x: number; y: number; width: number; height: number },
  slack = 1,
): TextItem[] {
  return page.items.filter(
    (it) =>
      it.str.trim() !== '' &&
      it.x >= rect.x - slack &&
      it.x <= rect.x + rect.width + slack &&
      it.baseline >= rect.y - slack &&
      it.baseline <= rect.y + rect.height + slack,
  );
}

export async function readFields(bytes: Uint8Array): Promise<FieldInfo[]> {
  const doc = await openPdf(bytes);
  try {
    const fields: FieldInfo[] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const annotations = (await page.getAnnotations()) as Array<Record<string, unknown>>;
      for (const a of annotations) {
        if (a.subtype !== 'Widget' || typeof a.fieldName !== 'string') continue;
        fields.push({
          name: a.fieldName,
          type: String(a.fieldType),
          value: a.fieldValue,
          readOnly: Boolean(a.readOnly),
          rect: a.rect as number[],
          page: i - 1,
          checkBox: a.checkBox as boolean | undefined,
          radioButton: a.radioButton as boolean | undefined,
          buttonValue: a.buttonValue,
          comb: a.comb as boolean | undefined,
          maxLen: a.maxLen as number | undefined,
          multiLine: a.multiLine as boolean | undefined,
          options: a.options as unknown[] | undefined,
        });
      }
      page.cleanup();
    }
    return fields;
  } finally {
    await doc.destroy();
  }
}

export async function pageSizes(bytes: Uint8Array): Promise<Array<{ width: number; height: number }>> {
  const pages = await readText(bytes);
  return pages.map(({ width, height }) => ({ width, height }));
}

/** Runs `use` on the bytes written to a temporary file, removed afterwards (for command-line tools). */
export async function withTempFile<T>(bytes: Uint8Array, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-pdf-'));
  const file = path.join(dir, 'in.pdf');
  try {
    await writeFile(file, bytes);
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Fails when qpdf finds structural errors (warnings are allowed: qpdf exits 3 for those). */
export async function qpdfCheck(bytes: Uint8Array): Promise<void> {
  await withTempFile(bytes, async (file) => {
    try {
      await run('qpdf', ['--check', file]);
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      if (err.code === 3) return;
      throw new Error(`qpdf --check failed (exit ${err.code}):\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    }
  });
}

/** A field as `qpdf --json` reports it (its acroform section). */
export interface QpdfField {
  fullname: string;
  fieldtype: string;
  value: unknown;
  pageposfrom1: number;
  fieldflags: number;
  annotation: { object: string; annotationflags: number };
}

/** The AcroForm fields qpdf reads (`qpdf --json --json-key=acroform`): an independent reader of the field tree. */
export async function qpdfFields(bytes: Uint8Array): Promise<QpdfField[]> {
  return withTempFile(bytes, async (file) => {
    let stdout: string;
    try {
      ({ stdout } = await run('qpdf', ['--json', '--json-key=acroform', file], { maxBuffer: 64 * 1024 * 1024 }));
    } catch (e) {
      // Exit 3: warnings only; the JSON is complete.
      const err = e as { code?: number; stdout?: string };
      if (err.code !== 3 || !err.stdout) throw e;
      stdout = err.stdout;
    }
    return (JSON.parse(String(stdout)) as { acroform: { fields: QpdfField[] } }).acroform.fields;
  });
}

/** `qpdf --check` without tolerance: warnings (exit 3) count as failures too. */
export async function qpdfStrict(bytes: Uint8Array): Promise<{ ok: boolean; warnings: string[] }> {
  return withTempFile(bytes, async (file) => {
    try {
      const { stdout, stderr } = await run('qpdf', ['--check', file]);
      return { ok: true, warnings: warningsOf(`${stdout}${stderr}`) };
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      return { ok: false, warnings: warningsOf(`${err.stdout ?? ''}${err.stderr ?? ''}`) };
    }
  });
}

function warningsOf(output: string): string[] {
  return output.split('\n').filter((l) => /^WARNING/.test(l));
}

/**
 * The text poppler's pdftotext reads in content order (-raw), one string per page.
 * Unlike pdfjs it honours /ActualText, so it shows what Acrobat-like extractors get.
 */
export async function popplerText(bytes: Uint8Array): Promise<string[]> {
  return withTempFile(bytes, async (file) => {
    const { stdout } = await run('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-']);
    return String(stdout).split('\f').slice(0, -1);
  });
}

export interface OutlineNode {
  title: string;
  page: number;
  top: number;
  open: boolean;
  items: OutlineNode[];
}

/** The outline as a viewer reads it (pdfjs), with each item's page (1-based) and destination top. */
export async function readOutline(pdf: Uint8Array): Promise<OutlineNode[]> {
  const doc = await openPdf(pdf);
  try {
    type Raw = { title: string; dest: unknown; count?: number; items: Raw[] };
    // Pages by object number (getPageIndex never settled under vitest).
    const refs: number[] = [];
    for (let i = 1; i <= doc.numPages; i++) refs.push((await doc.getPage(i)).ref!.num);
    const walk = (items: Raw[]): OutlineNode[] =>
      items.map((it) => {
        const dest = it.dest as [{ num: number; gen: number }, { name: string }, number | null, number | null];
        return {
          title: it.title,
          page: refs.indexOf(dest[0].num) + 1,
          top: dest[3] ?? NaN,
          open: (it.count ?? 0) >= 0,
          items: walk(it.items),
        };
      });
    return walk(((await doc.getOutline()) ?? []) as Raw[]);
  } finally {
    await doc.destroy();
  }
}

/** A row of poppler's `pdffonts` table. */
export interface PdffontsRow {
  /** BaseFont with the subset tag (`AAAAAA+NotoSans-Regular`), or `[none]` (Chromium's Type 3 fonts have no name). */
  name: string;
  /** `CID TrueType`, `Type 3`, `TrueType`, `Type 1C`… */
  type: string;
  encoding: string;
  emb: boolean;
  sub: boolean;
  uni: boolean;
}

/** poppler's font type names (pdffonts.cc), longest first so "Type 1C (OT)" wins over "Type 1C". */
const PDFFONTS_TYPES = [
  'CID TrueType (OT)',
  'CID Type 0C (OT)',
  'TrueType (OT)',
  'Type 1C (OT)',
  'CID TrueType',
  'CID Type 0C',
  'CID Type 0',
  'TrueType',
  'Type 1C',
  'Type 1',
  'Type 3',
  'unknown',
];
const PDFFONTS_ROW = new RegExp(
  `^(.*?)\\s+(${PDFFONTS_TYPES.map((t) => t.replace(/[()]/g, '\\$&')).join('|')})\\s+(\\S+)\\s+(yes|no)\\s+(yes|no)\\s+(yes|no)\\s+\\d+\\s+\\d+\\s*$`,
);

/** The fonts `pdffonts` lists (every page, form XObjects included): an independent reader of the font resources. */
export async function pdffonts(bytes: Uint8Array): Promise<PdffontsRow[]> {
  return withTempFile(bytes, async (file) => {
    const { stdout } = await run('pdffonts', [file]);
    return String(stdout)
      .split('\n')
      .slice(2)
      .filter((r) => r.trim())
      .map((r) => {
        // Read from the right: a name longer than its column (36) pushes the other columns along.
        const m = PDFFONTS_ROW.exec(r);
        if (!m) throw new Error(`unexpected pdffonts row: ${r}`);
        return {
          name: m[1]!,
          type: m[2]!,
          encoding: m[3]!,
          emb: m[4] === 'yes',
          sub: m[5] === 'yes',
          uni: m[6] === 'yes',
        };
      });
  });
}
