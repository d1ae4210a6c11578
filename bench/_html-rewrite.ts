/**
 * The kernel's part of an HTML render, on one tagged Chromium print of the `html-report` document
 * (`npx tsx bench/_html-rewrite.ts [chapters] [runs]`, 30 chapters: 96 pages): open the print, mark
 * artifacts (the tagging rewrite of every page), and the clean write, once copying the objects no step
 * read (`copyUnread`, as the HTML path writes) and once from a whole parse, alternating in one process.
 * Prints the Node CPU of each phase (process.cpuUsage, medians) and the objects parsed (counted: the
 * same in every run). The print is the body of a render's first print, without castpress's overlay.
 */
import type { PDFRef } from '@cantoo/pdf-lib';
import type { Page } from 'playwright-core';
import { buildDocument } from '../src/html/document.js';
import { BrowserPool } from '../src/html/index.js';
import { markArtifacts, openForUpdate, rewritePdf } from '../src/pdf/index.js';
import { HardenedParser } from '../src/pdf/parse/parser.js';
import { reportDocument, REPORT_CHAPTERS } from './html-report.js';

const chapters = Number(process.argv[2] ?? REPORT_CHAPTERS);
const runs = Number(process.argv[3] ?? 10);

const pool = new BrowserPool({ maxPages: 1 });
const built = await buildDocument(reportDocument(chapters), { maxResourceBytes: 50_000_000 });
const print = await pool.run(async ({ page }: { page: Page }) => {
  await page.setContent(built, { waitUntil: 'load' });
  return new Uint8Array(await page.pdf({ preferCSSPageSize: true, printBackground: true, tagged: true }));
});
await pool.close();

const parsed = new Set<PDFRef>();
const parse = HardenedParser.prototype.parseObject;
HardenedParser.prototype.parseObject = function (this: HardenedParser, ref?: PDFRef) {
  if (ref) parsed.add(ref);
  return parse.call(this, ref);
};

const cpu = (from: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
interface Phases {
  open: number[];
  mark: number[];
  write: number[];
  parsed: number;
  bytes: number;
}
const modes = { copy: true, whole: false } as const;
const out: Record<keyof typeof modes, Phases> = {
  copy: { open: [], mark: [], write: [], parsed: 0, bytes: 0 },
  whole: { open: [], mark: [], write: [], parsed: 0, bytes: 0 },
};
for (let i = 0; i < runs + 2; i++) {
  for (const [mode, copyUnread] of Object.entries(modes) as Array<[keyof typeof modes, boolean]>) {
    parsed.clear();
    let t = process.cpuUsage();
    const base = await openForUpdate(print, 'html');
    const open = cpu(t);
    t = process.cpuUsage();
    markArtifacts(base.doc);
    const mark = cpu(t);
    t = process.cpuUsage();
    const written = await rewritePdf(base.doc, { copyUnread });
    const write = cpu(t);
    // The first two rounds warm the JIT up.
    if (i < 2) continue;
    const phases = out[mode];
    phases.open.push(open);
    phases.mark.push(mark);
    phases.write.push(write);
    phases.parsed = parsed.size;
    phases.bytes = written.length;
  }
}
HardenedParser.prototype.parseObject = parse;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${chapters} chapters: a ${print.length}-byte print; Node CPU medians of ${runs} alternating runs`);
for (const [mode, p] of Object.entries(out)) {
  const total = median(p.open.map((o, i) => o + p.mark[i]! + p.write[i]!));
  console.log(
    `  ${mode.padEnd(5)}: open ${median(p.open).toFixed(0)} ms, markArtifacts ${median(p.mark).toFixed(0)} ms, ` +
      `write ${median(p.write).toFixed(0)} ms, all ${total.toFixed(0)} ms; ${p.parsed} objects parsed; ${p.bytes} bytes out`,
  );
}
const ratio = (f: (p: Phases) => number[]): string => (median(f(out.copy)) / median(f(out.whole))).toFixed(2);
console.log(
  `  copy / whole: write ${ratio((p) => p.write)}, all ${ratio((p) => p.open.map((o, i) => o + p.mark[i]! + p.write[i]!))}`,
);
