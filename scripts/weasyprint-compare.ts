/**
 * Pixel report: castpress's HTML mode against WeasyPrint's own renderings of its four samples.
 * Renders each sample as test/html-corpus.test.ts does (the fixture folder as a site, WeasyPrint's default page: A4, 75px margins), rasterises
 * castpress's pages with pdftoppm at the resolution of the committed reference PNGs
 * (test/fixtures/html/weasyprint-reference, same tool, so the scores measure layout, not rasterisers),
 * and writes out/weasyprint-compare/: per page reference | castpress | diff, and index.md with the scores.
 *
 * A report, not a test: low scores exit 0; only a render or tool failure exits 1.
 * Run: npm run report:weasyprint
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { WEASYPRINT_PAGE, FIXTURE_ORIGIN, HTML_FIXTURES, fixtureResolver } from '../test/helpers/html-fixtures.js';
import { compareImages, sideBySide, type Comparison, type Rgba } from '../test/helpers/pixel-compare.js';
import { popplerText } from '../test/helpers/pdf.js';
import { orderedSimilarity, pageWords, weasyprintReferenceWords } from '../test/helpers/word-similarity.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'out', 'weasyprint-compare');
const referenceDir = path.join(HTML_FIXTURES, 'weasyprint-reference');
/** The resolution of the reference PNGs (see test/fixtures/html/NOTICE.md). */
const DPI = 40;
const SAMPLES = ['invoice', 'letter', 'report', 'ticket'];

interface PageRow {
  sample: string;
  page: number;
  reference?: Rgba;
  castpress?: Rgba;
  result: Comparison;
  /** Word similarity with WeasyPrint's page (2·LCS / total words, as test/html-corpus.test.ts computes it). */
  words?: number;
}

/** Page PNGs `<prefix>-<n>.png` in `dir`, in page order (pdftoppm pads n to the width of the last page number). */
async function pagePngs(dir: string, prefix: string): Promise<Rgba[]> {
  const files = (await readdir(dir))
    .map((f) => ({ f, m: new RegExp(`^${prefix}-(\\d+)\\.png$`).exec(f) }))
    .filter((x): x is { f: string; m: RegExpExecArray } => x.m !== null)
    .sort((a, b) => Number(a.m[1]) - Number(b.m[1]));
  return Promise.all(files.map(async ({ f }) => toRgba(PNG.sync.read(await readFile(path.join(dir, f))))));
}

const toRgba = (png: PNG): Rgba => ({ width: png.width, height: png.height, data: png.data });
const white = (like: Rgba): Rgba => ({
  width: like.width,
  height: like.height,
  data: new Uint8ClampedArray(like.width * like.height * 4).fill(255),
});

async function rasterise(pdf: Uint8Array): Promise<Rgba[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-compare-'));
  try {
    await writeFile(path.join(dir, 'in.pdf'), pdf);
    await run('pdftoppm', ['-r', String(DPI), '-png', path.join(dir, 'in.pdf'), path.join(dir, 'page')]);
    return await pagePngs(dir, 'page');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function writePng(file: string, im: Rgba): Promise<void> {
  const png = new PNG({ width: im.width, height: im.height });
  png.data.set(im.data);
  await writeFile(file, PNG.sync.write(png));
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

async function main(): Promise<number> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const pool = new BrowserPool({ resolver: fixtureResolver });
  const rows: PageRow[] = [];
  const counts: Array<[string, number, number]> = [];
  const referenceWords = weasyprintReferenceWords();
  let failed = false;
  try {
    for (const sample of SAMPLES) {
      const doc = `weasyprint-${sample}/${sample}.html`;
      let pages: Rgba[];
      let words: string[][];
      try {
        const html = await readFile(path.join(HTML_FIXTURES, doc), 'utf8');
        const pdf = await renderHtml(pool, { html, baseUrl: FIXTURE_ORIGIN + doc, page: WEASYPRINT_PAGE });
        await writeFile(path.join(outDir, `${sample}.pdf`), pdf);
        pages = await rasterise(pdf);
        words = (await popplerText(pdf)).map(pageWords);
      } catch (e) {
        failed = true;
        console.error(`${sample}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      const reference = await pagePngs(referenceDir, sample);
      counts.push([sample, reference.length, pages.length]);
      for (let i = 0; i < Math.max(reference.length, pages.length); i++) {
        const ref = reference[i];
        const ours = pages[i];
        // A page one side lacks is compared with a white page of the other's size: score 0 if it has ink.
        const result = compareImages(ref ?? white(ours!), ours ?? white(ref!));
        await writePng(
          path.join(outDir, `${sample}-${i + 1}.png`),
          sideBySide([ref ?? white(ours!), ours ?? white(ref!), result.diff]),
        );
        const want = referenceWords[doc]?.[i];
        const got = words[i];
        rows.push({
          sample,
          page: i + 1,
          reference: ref,
          castpress: ours,
          result,
          words: want && got ? orderedSimilarity(got, want) : undefined,
        });
      }
    }
  } finally {
    await pool.close();
  }

  const size = (im?: Rgba) => (im ? `${im.width}×${im.height}` : 'missing');
  const md = [
    "# castpress HTML mode against WeasyPrint's reference renderings",
    '',
    `Made by \`npm run report:weasyprint\` (scripts/weasyprint-compare.ts). Both sides rasterised by pdftoppm at ${DPI} dpi; references in test/fixtures/html/weasyprint-reference.`,
    '',
    "- **ink**: of the pixels that differ from the reference's background (its most frequent colour) in either page, the share the other page matches with ink of the same colour (within 48/255 a channel) within 1 pixel: 100 % = same marks in the same places, 0 % = nothing in common.",
    '- **pixels**: share of all pixels of the same colour (within 48/255) at the same place; white margins make this high even for different pages.',
    '- **mean diff**: mean absolute difference of R, G, B over the page (0 = same, 100 % = black against white).',
    "- **words**: the page's words as `pdftotext -raw` reads them (content-stream order), against those of WeasyPrint's page: 2·LCS / (words of both); 1.000 = the same words in the same order (test/helpers/word-similarity.ts, as test/html-corpus.test.ts computes it).",
    "- Images: reference | castpress | diff (grey: ink both have; red: only WeasyPrint's; blue: only castpress's).",
    '',
    '| sample | WeasyPrint pages | castpress pages |',
    '|---|---|---|',
    ...counts.map(([s, r, c]) => `| ${s} | ${r} | ${c} |`),
    '',
    '| sample | page | size (WeasyPrint / castpress, px) | ink | pixels | mean diff | words | image |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.sample} | ${r.page} | ${size(r.reference)} / ${size(r.castpress)} | ${pct(r.result.inkScore)} | ${pct(r.result.pixelScore)} | ${pct(r.result.meanAbsDiff)} | ${r.words === undefined ? '–' : r.words.toFixed(3)} | [${r.sample}-${r.page}.png](${r.sample}-${r.page}.png) |`,
    ),
    '',
  ].join('\n');
  await writeFile(path.join(outDir, 'index.md'), md);
  console.log(md);
  console.log(`Report: ${path.relative(root, path.join(outDir, 'index.md'))}`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
