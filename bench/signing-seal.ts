/**
 * Sealing a large packet (500 pages, ~20 MB) against loading and saving it with the kernel
 * (src/pdf loadPdf + pdf-lib save), timed alternately in the same run (goal: ≤ 2x). Memory:
 * the seal runs in a fresh child process that reads the file, notes RSS, seals, and reports
 * its peak RSS above that point (goal: ≤ 2x the file size: the output, and the input's parse
 * holding no copy of it). Also: verifyPdf on the sealed file.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from '@cantoo/pdf-lib';
import { loadPdf } from '../src/pdf/index.js';
import { createSigningIdentity, sealPdf, verifyPdf } from '../src/signing/index.js';
import { interleaved, type BenchRow } from './types.js';

const CHILD_FLAG = '--seal-memory-child';
const PAGES = Number(process.env.BENCH_SEAL_PAGES ?? 500);
const BYTES_PER_PAGE = 40 * 1024;

/** 500 pages, each with text and its own incompressible 40 KB image: ~20 MB, like a scanned packet. */
export async function bigPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < PAGES; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Packet page ${i + 1}`, { x: 72, y: 770, size: 14, font });
    const side = Math.floor(Math.sqrt(BYTES_PER_PAGE / 3));
    const pixels = randomBytes(side * side * 3);
    const ref = doc.context.register(
      doc.context.stream(pixels, {
        Type: 'XObject',
        Subtype: 'Image',
        Width: side,
        Height: side,
        BitsPerComponent: 8,
        ColorSpace: 'DeviceRGB',
      }),
    );
    const name = page.node.newXObject('Scan', ref);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(400, 0, 0, 400, 100, 200),
      drawObject(name),
      popGraphicsState(),
    );
  }
  return doc.save({ useObjectStreams: true });
}

async function childMeasure(file: string, dataDir: string): Promise<{ peakMb: number; fileMb: number }> {
  // A view of the Buffer read, not a copy: a copy leaves the read buffer as garbage that gc() frees
  // into the allocator before `before` is taken, and the seal's allocations can then reuse it
  // without raising RSS, so the row would read anything from near 0 up to the true figure.
  const read = await readFile(file);
  const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
  const identity = await createSigningIdentity({ dataDir });
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const sealed = await sealPdf(bytes, identity, { reason: 'bench' });
  peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
  clearInterval(timer);
  if (sealed.length <= bytes.length) throw new Error('seal did not grow the file');
  return { peakMb: (peak - before) / 1024 / 1024, fileMb: bytes.length / 1024 / 1024 };
}

export async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-bench-seal-'));
  try {
    const bytes = await bigPdf();
    const file = path.join(dir, 'packet.pdf');
    await writeFile(file, bytes);
    const dataDir = path.join(dir, 'data');
    const identity = await createSigningIdentity({ dataDir });
    const mb = bytes.length / 1024 / 1024;

    const [seal, loadSave] = await interleaved(
      () => sealPdf(bytes, identity, { reason: 'bench' }),
      async () => (await loadPdf(bytes)).save(),
      5,
      1,
    );
    const sealed = await sealPdf(bytes, identity, { reason: 'bench' });
    const trustAnchors = [await readFile(identity.files!.rootCertificate, 'utf8')];
    const [verify] = await interleaved(
      () => verifyPdf(sealed, { trustAnchors }),
      async () => undefined,
      5,
      1,
    );

    const self = fileURLToPath(import.meta.url);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', self, CHILD_FLAG, file, dataDir],
      { maxBuffer: 1 << 20 },
    );
    const mem = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { peakMb: number; fileMb: number };

    return [
      {
        name: `sealPdf, ${PAGES} pages / ${mb.toFixed(1)} MB vs loadPdf + save`,
        value: seal,
        unit: 'ms',
        baseline: loadSave,
        ratio: seal / loadSave,
        goal: '<= 2',
      },
      {
        name: `sealPdf peak RSS above baseline vs file size (${mem.fileMb.toFixed(1)} MB)`,
        value: mem.peakMb,
        unit: 'MB',
        baseline: mem.fileMb,
        ratio: mem.peakMb / mem.fileMb,
        goal: '<= 2',
      },
      {
        name: `verifyPdf of the sealed file vs loadPdf + save`,
        value: verify,
        unit: 'ms',
        baseline: loadSave,
        ratio: verify / loadSave,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes(CHILD_FLAG)) {
  const at = process.argv.indexOf(CHILD_FLAG);
  console.log(JSON.stringify(await childMeasure(process.argv[at + 1]!, process.argv[at + 2]!)));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run());
}
