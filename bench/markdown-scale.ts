/**
 * Markdown time per MB of input: prose, one long word and table rows at
 * 0.1 MB (the anchor) and 1 MB. The ratio of the time per MB at 1 MB to the time
 * per MB at 0.1 MB says whether layout stays linear in its input (goal ≤ 1.5: a
 * quadratic step would show as ~10). Run alone with `npm run bench -- markdown-scale`.
 */
import { createEngine } from '../src/index.js';
import type { BenchRow } from './types.js';

const MB = 1_000_000;

function prose(bytes: number): unknown[] {
  const paragraph =
    'The quick brown fox jumps over the lazy dog near the harbour, and seven wizards box jumbo pancakes. '.repeat(10);
  return Array.from({ length: Math.ceil(bytes / paragraph.length) }, () => ({ content: paragraph }));
}

function word(bytes: number): unknown[] {
  return [{ content: 'x'.repeat(bytes) }];
}

function table(bytes: number): unknown[] {
  // About 20 bytes of input a row.
  const rows = Array.from({ length: Math.ceil(bytes / 20) }, (_, i) => [String(i), 'item', 'qty 1']);
  return [{ table: { rows } }];
}

export async function run(): Promise<BenchRow[]> {
  const engine = createEngine({ now: () => new Date('2024-01-01T00:00:00Z') });
  const rows: BenchRow[] = [];
  try {
    await engine.generate({ data: prose(10_000) });
    for (const [name, make] of [
      ['prose', prose],
      ['one word', word],
      ['table rows', table],
    ] as const) {
      const perMb = async (bytes: number) => {
        const t = performance.now();
        await engine.generate({ data: make(bytes) });
        return (performance.now() - t) / (bytes / MB);
      };
      const small = Math.min(await perMb(0.1 * MB), await perMb(0.1 * MB));
      const large = await perMb(1 * MB);
      rows.push({
        name: `${name}: ms per MB at 1 MB (anchor: at 0.1 MB)`,
        value: large,
        baseline: small,
        ratio: large / small,
        unit: 'ms/MB',
        goal: '<= 1.5',
      });
    }
  } finally {
    await engine.close();
  }
  return rows;
}
