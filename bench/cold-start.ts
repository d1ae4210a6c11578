/**
 * Cold start: one process that fills the W-9 once and exits, as scripts that fill
 * one PDF per process do. `castpress fill fw9.pdf data.json -o out.pdf` as bin/castpress.js
 * runs it (the esbuild bundle, what an installed package runs; built here if missing or older
 * than the sources) against pdftk-java's `pdftk fw9.pdf fill_form data.xfdf output out.pdf`
 * with the same 16 text values, alternating, one process per fill. Goal (issue
 * #13, #29): castpress at most half of pdftk-java. Without pdftk (Debian pdftk-java) the
 * row says so.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { templateFromPdf } from '../src/index.js';
import { ensureBundle } from './startup.js';
import type { BenchRow } from './types.js';

const exec = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const W9 = path.join(root, 'test', 'fixtures', 'corpus', 'fillable_pdfs', 'irs_fw9_rev2018_xfa.pdf');
const cli = path.join(root, 'bin', 'castpress.js');

const xml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

async function timed(file: string, args: string[], cwd: string): Promise<number> {
  const t = performance.now();
  await exec(file, args, { cwd, timeout: 60_000 });
  return performance.now() - t;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Writes fw9.pdf, data.json (castpress) and data.xfdf (pdftk) with the same text values into `dir`; returns how many text values. */
export async function prepareW9(dir: string): Promise<number> {
  await copyFile(W9, path.join(dir, 'fw9.pdf'));
  const template = await templateFromPdf(new Uint8Array(readFileSync(W9)));
  const texts = template.fields.filter((f) => f.type === 'shortText' || f.type === 'longText' || f.type === 'charList');
  const data: Record<string, string> = {};
  for (const f of texts)
    data[f.alias ?? f.id] = f.type === 'charList' ? '1234567'.slice(0, f.cells ?? 2) : 'Ada Lovelace';
  await writeFile(path.join(dir, 'data.json'), JSON.stringify({ data }));
  const fields = Object.entries(data)
    .map(([k, v]) => `<field name="${xml(k)}"><value>${xml(v)}</value></field>`)
    .join('');
  await writeFile(
    path.join(dir, 'data.xfdf'),
    `<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><fields>${fields}</fields></xfdf>`,
  );
  return texts.length;
}

export async function run(): Promise<BenchRow[]> {
  const name = 'cold: one W-9 fill per process, castpress fill (bundle) vs pdftk-java fill_form';
  if (spawnSync('pdftk', ['--version']).status !== 0) {
    return [{ name: `${name}: SKIPPED, pdftk not installed (Debian pdftk-java)`, value: Number.NaN, unit: 'ms' }];
  }
  ensureBundle();
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-cold-'));
  try {
    const values = await prepareW9(dir);
    const ours = () => timed(process.execPath, [cli, 'fill', 'fw9.pdf', 'data.json', '-o', 'ours.pdf'], dir);
    const theirs = () => timed('pdftk', ['fw9.pdf', 'fill_form', 'data.xfdf', 'output', 'theirs.pdf'], dir);
    await ours();
    await theirs();
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 7; i++) {
      a.push(await ours());
      b.push(await theirs());
    }
    const castpressMs = median(a);
    const pdftkMs = median(b);
    return [
      {
        name: `${name} (${values} text values)`,
        value: castpressMs,
        unit: 'ms',
        baseline: pdftkMs,
        ratio: castpressMs / pdftkMs,
        goal: '<= 0.5',
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
