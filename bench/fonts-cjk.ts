/**
 * Cost of Chinese text in a document: the same layout (3 pages × 30 lines,
 * wrapped) written once in Latin and once in Chinese, each a fresh document on
 * one shared FontRegistry, so the per-document work (shaping, subsetting the
 * CFF face of NotoSansCJK-Regular.ttc, writing it) is what differs. The 19 MB
 * collection is parsed once per registry; that one-off cost is its own row.
 * Runnable alone: `npx tsx bench/fonts-cjk.ts`.
 */
import { pathToFileURL } from 'node:url';
import { PDFDocument, rgb } from '@cantoo/pdf-lib';
import { FontRegistry } from '../src/fonts/index.js';
import { TextSetter, type TextStyle } from '../src/text/index.js';
import { timeMedian, type BenchRow } from './types.js';

const style: TextStyle = { fontFamily: 'Noto Sans', fontWeight: 'normal', fontSize: 10 };

const LATIN =
  'The parties agree that the goods described in the schedule shall be delivered to the buyer at the address given above, ' +
  'within thirty days of the date of this agreement, and that payment shall be made on delivery unless agreed otherwise in writing. ';
/** About 300 distinct ideographs, as in a page of contract text. */
const CHINESE =
  '双方同意，附表所列货物应于本协议签订之日起三十日内交付至上述买方地址，除另有书面约定外，货款应于交货时支付。' +
  '本合同一式两份，双方各执一份，具有同等法律效力。如因本合同引起争议，双方应友好协商解决；协商不成的，任何一方均可向有管辖权的人民法院提起诉讼。' +
  '卖方保证所交付货物的质量符合国家标准及行业标准，并提供产品合格证明。买方收货后应及时验收，如发现质量问题，应在七日内书面通知卖方。' +
  '不可抗力事件发生后，受影响一方应立即通知对方，并在十五日内提供有关证明文件。本协议未尽事宜，由双方另行签订补充协议，补充协议与本协议具有同等效力。';

async function writeDocument(registry: FontRegistry, text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const setter = new TextSetter(doc, registry);
  for (let p = 0; p < 3; p++) {
    const page = doc.addPage([595, 842]);
    let y = 800;
    const lines = setter.layout([{ text: text.repeat(4), style }], { maxWidth: 515 }).slice(0, 30);
    for (const line of lines) {
      setter.drawLine(page, line, 40, y, rgb(0, 0, 0));
      y -= line.height;
    }
  }
  return doc.save();
}

export async function run(): Promise<BenchRow[]> {
  const registry = new FontRegistry({ systemDirectories: [] });
  const latinMs = await timeMedian(() => writeDocument(registry, LATIN), 9, 2);
  const cjkMs = await timeMedian(() => writeDocument(registry, CHINESE), 9, 2);
  const mixedMs = await timeMedian(() => writeDocument(registry, LATIN + CHINESE), 9, 2);
  const latinBytes = (await writeDocument(registry, LATIN)).length;
  const cjkBytes = (await writeDocument(registry, CHINESE)).length;

  // First use of the CJK face in a fresh registry: reading and parsing the collection once.
  const coldTimes: number[] = [];
  for (let i = 0; i < 3; i++) {
    const fresh = new FontRegistry({ systemDirectories: [] });
    const t = performance.now();
    fresh.cjk('sc', 'normal')?.font.hasGlyphForCodePoint(0x4e00);
    coldTimes.push(performance.now() - t);
  }
  coldTimes.sort((a, b) => a - b);
  const coldMs = coldTimes[1];

  return [
    { name: 'Latin document, 3 pages (anchor)', value: latinMs, unit: 'ms' },
    {
      name: 'Chinese document, 3 pages (CJK subset embedded)',
      value: cjkMs,
      unit: 'ms',
      baseline: latinMs,
      ratio: cjkMs / latinMs,
    },
    {
      name: 'Latin + Chinese document, 3 pages',
      value: mixedMs,
      unit: 'ms',
      baseline: latinMs,
      ratio: mixedMs / latinMs,
    },
    {
      name: 'Chinese document size',
      value: cjkBytes / 1024,
      unit: 'KiB',
      baseline: latinBytes / 1024,
      ratio: cjkBytes / latinBytes,
    },
    {
      name: 'First CJK use per registry (parse TTC face, once)',
      value: coldMs,
      unit: 'ms',
      baseline: latinMs,
      ratio: coldMs / latinMs,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await run();
  console.table(
    rows.map((r) => ({
      ...r,
      value: r.value.toFixed(2),
      baseline: r.baseline?.toFixed(2),
      ratio: r.ratio?.toFixed(2),
    })),
  );
}
