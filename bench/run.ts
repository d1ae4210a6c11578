/**
 * `npm run bench`: runs every bench/*.ts that exports run() and prints one table.
 * Figures are ratios against anchors measured in the same run, because the
 * machines are shared and absolute times drift. `npm run bench -- fill` runs only
 * the files whose name contains "fill".
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchModule, BenchRow } from './types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const files = (await readdir(here))
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'types.ts'].includes(f) && !f.startsWith('_'))
  .filter((f) => !filter || f.includes(filter))
  .sort();

const rows: Array<BenchRow & { file: string }> = [];
for (const file of files) {
  const mod = (await import(pathToFileURL(path.join(here, file)).href)) as Partial<BenchModule>;
  if (typeof mod.run !== 'function') continue;
  process.stderr.write(`running ${file}...\n`);
  try {
    for (const row of await mod.run()) rows.push({ ...row, file });
  } catch (e) {
    rows.push({ file, name: `FAILED: ${e instanceof Error ? e.message : String(e)}`, value: Number.NaN, unit: '' });
  }
}

const fmt = (n: number | undefined, digits = 2) => (n === undefined || Number.isNaN(n) ? '' : n.toFixed(digits));
const table = rows.map((r) => ({
  bench: r.file.replace(/\.ts$/, ''),
  measurement: r.name,
  value: `${fmt(r.value)} ${r.unit}`.trim(),
  anchor: r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit}`.trim(),
  ratio: fmt(r.ratio, 3),
  goal: r.goal ?? '',
}));
console.table(table);
