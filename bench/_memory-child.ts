/**
 * The child of bench/memory.ts: fills the demo template `total` times on one engine and prints
 * memory samples as JSON, one after 100 fills, one after 2,000 and one every 2,000 after that.
 * Each sample follows a full GC (the child runs with --expose-gc). bench/memory.ts bundles this
 * file and runs it with plain node.
 */
import { readFileSync } from 'node:fs';
import { createEngine } from '../src/index.js';
import { demoTemplate } from '../examples/demo-template.js';

export interface MemorySample {
  fills: number;
  /** MB */
  rss: number;
  /** V8's committed heap, MB. */
  heapTotal: number;
  /** Live heap after the GC, MB. */
  heapUsed: number;
  /** Memory of Buffers and other objects held outside the V8 heap (ArrayBuffers included), MB. */
  external: number;
  /** Resident malloc heap (Linux): the main arena (brk) and the threads' arenas, MB. */
  malloc?: number;
}

/**
 * Resident pages of glibc's malloc heaps, read from /proc/self/smaps: `[heap]` (the main arena)
 * and the threads' arenas (anonymous mappings at 64 MB-aligned addresses among the libraries;
 * V8's own pages lie at addresses of its choosing, far below). Approximate: a large block malloc
 * maps on its own is not counted. Undefined where /proc is not Linux's.
 */
function mallocResident(): number | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return undefined;
  }
  let kb = 0;
  let counted = false;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const start = BigInt(`0x${head[1]}`);
      counted = head[2] === '[heap]' || (head[2] === '' && start >= 0x7e0000000000n && start % (64n << 20n) === 0n);
      continue;
    }
    const rss = counted ? /^Rss:\s+(\d+) kB/.exec(line) : null;
    if (rss) kb += Number(rss[1]);
  }
  return kb / 1024;
}

const MB = 1024 * 1024;

async function measure(total: number): Promise<MemorySample[]> {
  const engine = createEngine();
  const template = await demoTemplate();
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const samples: MemorySample[] = [];
  const sample = (fills: number) => {
    gc();
    const m = process.memoryUsage();
    samples.push({
      fills,
      rss: m.rss / MB,
      heapTotal: m.heapTotal / MB,
      heapUsed: m.heapUsed / MB,
      external: m.external / MB,
      malloc: mallocResident(),
    });
  };
  try {
    for (let i = 1; i <= total; i++) {
      await engine.fill(template, {
        data: {
          name: { firstName: 'Ada', lastName: `Lovelace ${i}` },
          ssn: '123456789',
          salary: i,
          notes: `Fill number ${i}`,
        },
      });
      if (i === 100 || i % 2000 === 0 || i === total) sample(i);
    }
    return samples;
  } finally {
    await engine.close();
  }
}

const total = Number(process.argv[2]);
if (Number.isInteger(total) && total >= 100) console.log(JSON.stringify(await measure(total)));
