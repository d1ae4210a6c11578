/**
 * Node's side of the overlay: CPU of drawing the overlay onto the body and the clean write that drops it,
 * pages (old) against tiles of a sheet (new), alternating in one run. First make the two raw prints of the
 * 96-page report: `npx tsx bench/_html-raw-print.ts 30 /tmp/new30.pdf` here and
 * `npx tsx bench/_html-raw-print.ts 30 /tmp/old30.pdf` in the old tree (/tmp/old-tiles, `git archive main`);
 * then `npx tsx bench/_html-tiles-merge.ts [rounds] [oldTree]`. Prints medians of process.cpuUsage() per
 * step (open, merge, write), tagged and untagged, and the output sizes.
 */
import { readFileSync } from 'node:fs';
import { mergeOverlay } from '../src/html/post/overlay.js';
import { openForUpdate, rewritePdf } from '../src/pdf/index.js';

const rounds = Number(process.argv[2] ?? 8);
const oldTree = process.argv[3] ?? '/tmp/old-tiles';
const old = (await import(`${oldTree}/src/html/post/overlay.ts`)) as {
  mergeOverlay: (
    doc: unknown,
    total: number,
    body: number[],
    bleed: number,
    colours: Map<string, [number, number, number, number]>,
    tagged: boolean,
  ) => Promise<void>;
};
const prints = { old: readFileSync('/tmp/old30.pdf'), new: readFileSync('/tmp/new30.pdf') };
const body = Array.from({ length: 96 }, (_, i) => i);
// The report's one sheet: 24 × 4 A4 tiles on a grid of 794 × 1123 CSS px.
const grid = {
  sheets: [
    { cols: 24, rows: 4, pitch: [595.5, 842.25] as [number, number], tile: [594.96, 841.92] as [number, number] },
  ],
  tiles: body.map((i) => ({ sheet: 0, index: i })),
};
const ms = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const rows: Record<string, number[][]> = {};
let sizes = '';
for (let r = 0; r < rounds; r++)
  for (const tagged of [true, false])
    for (const which of r % 2 ? (['new', 'old'] as const) : (['old', 'new'] as const)) {
      let c = process.cpuUsage();
      const base = await openForUpdate(prints[which], 'html');
      const open = ms(process.cpuUsage(c));
      c = process.cpuUsage();
      if (which === 'old') await old.mergeOverlay(base.doc, 96, body, 0, new Map(), tagged);
      else mergeOverlay(base.doc, 96, body, grid, 0, new Map(), tagged);
      const merge = ms(process.cpuUsage(c));
      c = process.cpuUsage();
      const out = await rewritePdf(base.doc, { copyUnread: true });
      const write = ms(process.cpuUsage(c));
      (rows[`${which} tagged=${tagged}`] ??= []).push([open, merge, write, open + merge + write]);
      if (r === 0) sizes += `${which} tagged=${tagged}: ${out.length} bytes; `;
    }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(sizes);
for (const [k, v] of Object.entries(rows)) {
  const [open, merge, write, all] = [0, 1, 2, 3].map((i) => median(v.map((x) => x[i]!)).toFixed(0));
  console.log(`${k}: median of ${rounds} (CPU ms): open ${open}, merge ${merge}, write ${write}, all ${all}`);
}
