/**
 * The child of bench/memory.ts: fills the demo template `total` times on one engine and prints
 * memory samples as JSON, one after 100 fills, one after 2,000 and one every 2,000 after that.
 * Each sample follows a full GC (the child runs with --expose-gc). bench/memory.ts bundles this
 * file and runs it with plain node.
 */
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
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

/** What the child prints: the samples, and what a fill leaves in the old generation. */
export interface MemoryReport {
  samples: MemorySample[];
  /**
   * KB of old generation per fill after two young-generation collections, from a full GC before 20 fills
   * to two forced scavenges after them: what the fills left for the next full GC (dead objects kept
   * alive by the old generation, see bench/results/2026-12-07-memory-gc.txt).
   */
  oldKbPerFillAfterScavenges: number;
}

type Gc = (options?: { type: 'minor' | 'major' }) => void;

const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? NaN;

async function measure(total: number): Promise<MemoryReport> {
  const engine = createEngine();
  const template = await demoTemplate();
  const gc = (globalThis as { gc?: Gc }).gc;
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
  const fillOnce = (i: number) =>
    engine.fill(template, {
      data: {
        name: { firstName: 'Ada', lastName: `Lovelace ${i}` },
        ssn: '123456789',
        salary: i,
        notes: `Fill number ${i}`,
      },
    });
  try {
    for (let i = 1; i <= total; i++) {
      await fillOnce(i);
      if (i === 100 || i % 2000 === 0 || i === total) sample(i);
    }
    // After the samples: the old generation a fill leaves behind, the lowest of three rounds.
    const kept: number[] = [];
    for (let round = 0; round < 3; round++) {
      await new Promise((r) => setImmediate(r));
      gc();
      const before = oldSpace();
      for (let i = 0; i < 20; i++) await fillOnce(total + i);
      await new Promise((r) => setImmediate(r));
      gc({ type: 'minor' });
      gc({ type: 'minor' });
      kept.push((oldSpace() - before) / 20 / 1024);
    }
    return { samples, oldKbPerFillAfterScavenges: Math.min(...kept) };
  } finally {
    await engine.close();
  }
}

const total = Number(process.argv[2]);
if (Number.isInteger(total) && total >= 100) console.log(JSON.stringify(await measure(total)));
