/**
 * How the print reaches Node, and what it costs there: `npx tsx bench/_html-transfer.ts [chapters] [rounds]`
 * prints the tagged report (30 chapters: 96 pages) with Playwright's `page.pdf()` (Page.printToPDF with
 * transferMode ReturnAsStream, then IO.read without a size until eof) and with the same CDP calls made
 * here, IO.read with no size, 8 MiB and 64 KiB, in turn on one page, and reports the Node CPU of each
 * (process.cpuUsage, medians of the rounds after the first) and the IO.read calls each took.
 */
import type { CDPSession, Page } from 'playwright-core';
import { buildDocument } from '../src/html/document.js';
import { BrowserPool } from '../src/html/index.js';
import { reportDocument, REPORT_CHAPTERS } from './html-report.js';

const chapters = Number(process.argv[2] ?? REPORT_CHAPTERS);
const rounds = Number(process.argv[3] ?? 6);
const pool = new BrowserPool({ maxPages: 1 });
const built = await buildDocument(reportDocument(chapters), { maxResourceBytes: 50_000_000 });

interface Printed {
  bytes: number;
  reads: number;
}
/** The print through CDP directly, read in chunks of `size` (Chromium's default without one). */
async function direct(cdp: CDPSession, size?: number): Promise<Printed> {
  const { stream } = await cdp.send('Page.printToPDF', {
    transferMode: 'ReturnAsStream',
    preferCSSPageSize: true,
    printBackground: true,
    generateTaggedPDF: true,
  });
  if (!stream) throw new Error('no stream handle');
  const chunks: Buffer[] = [];
  let reads = 0;
  for (;;) {
    const r = await cdp.send('IO.read', size ? { handle: stream, size } : { handle: stream });
    reads++;
    chunks.push(Buffer.from(r.data, r.base64Encoded ? 'base64' : 'utf8'));
    if (r.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  return { bytes: Buffer.concat(chunks).length, reads };
}

const ways: Array<[string, (page: Page, cdp: CDPSession) => Promise<Printed>]> = [
  [
    'page.pdf()',
    async (page) => ({
      bytes: (await page.pdf({ preferCSSPageSize: true, printBackground: true, tagged: true })).length,
      reads: Number.NaN,
    }),
  ],
  ['CDP, IO.read without size', (_, cdp) => direct(cdp)],
  ['CDP, IO.read 8 MiB', (_, cdp) => direct(cdp, 8 << 20)],
  ['CDP, IO.read 64 KiB', (_, cdp) => direct(cdp, 64 << 10)],
];
const cpu: Map<string, number[]> = new Map(ways.map(([name]) => [name, []]));
const seen = new Map<string, Printed>();
// One job per round: a job has a deadline, four prints of the report fit in it.
for (let round = 0; round < rounds; round++)
  await pool.run(
    async ({ page, cdp }: { page: Page; cdp: CDPSession }) => {
      await page.setContent(built, { waitUntil: 'load' });
      for (const [name, print] of ways) {
        const t = process.cpuUsage();
        const printed = await print(page, cdp);
        const used = process.cpuUsage(t);
        seen.set(name, printed);
        if (round > 0) cpu.get(name)!.push((used.user + used.system) / 1000);
      }
    },
    async () => ({}),
  );
await pool.close();

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, times] of cpu) {
  const { bytes, reads } = seen.get(name)!;
  console.log(
    `${name.padEnd(28)} ${bytes} bytes, ${Number.isNaN(reads) ? '(Playwright)' : `${reads} IO.read`}; ` +
      `Node CPU median ${median(times).toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(' ')})`,
  );
}
