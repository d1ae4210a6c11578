/**
 * Memory over a long-lived engine: RSS after 10,000 fills against RSS after 100
 * (goal: close to 1 — caches are bounded, nothing grows per fill).
 */
import { createEngine } from '../src/index.js';
import { demoTemplate } from '../examples/demo-template.js';
import type { BenchRow } from './types.js';

export async function run(): Promise<BenchRow[]> {
  const total = Number(process.env.BENCH_MEMORY_FILLS ?? 10_000);
  const engine = createEngine();
  const template = await demoTemplate();
  const rssMb = () => {
    globalThis.gc?.();
    return process.memoryUsage().rss / 1024 / 1024;
  };
  try {
    let after100 = 0;
    for (let i = 1; i <= total; i++) {
      await engine.fill(template, { data: { name: { firstName: 'Ada', lastName: `Lovelace ${i}` }, ssn: '123456789', salary: i, notes: `Fill number ${i}` } });
      if (i === 100) after100 = rssMb();
    }
    const end = rssMb();
    return [{ name: `RSS after ${total} fills vs after 100`, value: end, unit: 'MB', baseline: after100, ratio: end / after100, goal: '~1 (no growth)' }];
  } finally {
    await engine.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await run());
