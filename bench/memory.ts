/**
 * Memory over a long-lived engine: RSS after 10,000 fills against RSS after 100
 * (goal: close to 1 — caches are bounded, nothing grows per fill). It runs in a
 * fresh process (with --expose-gc), so what earlier benches left behind does not
 * move the baseline. Two more rows tell warm-up from growth: RSS and the heap
 * after a full GC at 10,000 against 2,000 (caches full by then).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createEngine } from '../src/index.js';
import { demoTemplate } from '../examples/demo-template.js';
import type { BenchRow } from './types.js';

const CHILD_FLAG = '--memory-child';

async function measure(total: number): Promise<BenchRow[]> {
  const engine = createEngine();
  const template = await demoTemplate();
  const gc = (globalThis as { gc?: () => void }).gc;
  const sample = () => {
    gc?.();
    const m = process.memoryUsage();
    return { rss: m.rss / 1024 / 1024, heap: m.heapUsed / 1024 / 1024 };
  };
  try {
    let at100 = sample();
    let at2000 = at100;
    for (let i = 1; i <= total; i++) {
      await engine.fill(template, {
        data: {
          name: { firstName: 'Ada', lastName: `Lovelace ${i}` },
          ssn: '123456789',
          salary: i,
          notes: `Fill number ${i}`,
        },
      });
      if (i === 100) at100 = sample();
      if (i === 2000) at2000 = sample();
    }
    const end = sample();
    return [
      {
        name: `RSS after ${total} fills vs after 100`,
        value: end.rss,
        unit: 'MB',
        baseline: at100.rss,
        ratio: end.rss / at100.rss,
        goal: '~1 (no growth)',
      },
      {
        name: `RSS after ${total} fills vs after 2000 (caches warm)`,
        value: end.rss,
        unit: 'MB',
        baseline: at2000.rss,
        ratio: end.rss / at2000.rss,
      },
      {
        name: `heap after GC, ${total} fills vs 2000`,
        value: end.heap,
        unit: 'MB',
        baseline: at2000.heap,
        ratio: end.heap / at2000.heap,
      },
    ];
  } finally {
    await engine.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  const total = Number(process.env.BENCH_MEMORY_FILLS ?? 10_000);
  const self = fileURLToPath(import.meta.url);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', self, CHILD_FLAG, String(total)],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').pop() ?? '[]') as BenchRow[];
}

if (process.argv.includes(CHILD_FLAG)) {
  const total = Number(process.argv[process.argv.indexOf(CHILD_FLAG) + 1]);
  console.log(JSON.stringify(await measure(total)));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run());
}
