/**
 * Cold start: one process that fills the W-9 once and exits, as scripts that fill
 * one PDF per process do. `castpress fill fw9.pdf data.json -o out.pdf` as bin/castpress.js
 * runs it (the esbuild bundle, what an installed package runs; built here if missing or older
 * than the sources) against pdftk-java's `pdftk fw9.pdf fill_form data.xfdf output out.pdf`
 * with the same 15 text values, alternating, one process per fill. Goal:
 * castpress at most half of pdftk-java. Without pdftk (Debian pdftk-java) the
 * row says so.
 *
 * Both commands run without NODE_EXTRA_CA_CERTS, as on a fresh Debian machine. Node 20 (OpenSSL 3)
 * parses its ~140 bundled root certificates and every certificate of that file when the process
 * starts, before any of castpress's code runs (nodejs/node#40524): with the system bundle there
 * (a workplace that names it for its proxy) that is ~70 ms of every Node start, which pdftk-java
 * does not pay. Where the variable is set, a second row runs both commands with it, so the
 * figure a machine like that sees is printed too.
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

async function timed(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const t = performance.now();
  await exec(file, args, { cwd, env, timeout: 60_000 });
  return performance.now() - t;
}

/** This process's environment without NODE_EXTRA_CA_CERTS: what a fresh machine gives both commands. */
function freshMachineEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _extra, ...rest } = env;
  return rest;
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
    const pair = async (env: NodeJS.ProcessEnv): Promise<[number, number]> => {
      const ours = () => timed(process.execPath, [cli, 'fill', 'fw9.pdf', 'data.json', '-o', 'ours.pdf'], dir, env);
      const theirs = () => timed('pdftk', ['fw9.pdf', 'fill_form', 'data.xfdf', 'output', 'theirs.pdf'], dir, env);
      await ours();
      await theirs();
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < 11; i++) {
        a.push(await ours());
        b.push(await theirs());
      }
      return [median(a), median(b)];
    };
    const row = ([castpressMs, pdftkMs]: [number, number], label: string, goal: string): BenchRow => ({
      name: `${name} (${values} text values)${label}`,
      value: castpressMs,
      unit: 'ms',
      baseline: pdftkMs,
      ratio: castpressMs / pdftkMs,
      goal,
    });
    const rows = [row(await pair(freshMachineEnv()), ', no NODE_EXTRA_CA_CERTS', '<= 0.5')];
    if (process.env.NODE_EXTRA_CA_CERTS)
      rows.push(row(await pair(process.env), `, with this machine's NODE_EXTRA_CA_CERTS`, 'none (for the record)'));
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
