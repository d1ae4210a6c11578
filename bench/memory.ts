/**
 * Memory over a long-lived engine: RSS after 10,000 fills of the demo template with distinct
 * values against RSS after 100 (goal: ≤ 1.2; caches are bounded and nothing grows per fill), and
 * against RSS after 2,000 (caches warm: ~1). A sample follows a full GC, every 2,000 fills.
 *
 * The fills run in a fresh process (with --expose-gc) of plain node over an esbuild bundle of
 * bench/_memory-child.ts (scripts/bundle.mjs's options), so that what earlier benches left
 * behind does not move the baseline, nor does tsx: its loader thread holds ~70 MB of transpiled
 * modules' garbage, which that thread's GC gives back at a moment of its own.
 * `BENCH_MEMORY_FILLS` sets the number of fills (default 10,000).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { MemoryReport, MemorySample } from './_memory-child.js';
import type { BenchRow } from './types.js';

/** The child bundled where the sources' import.meta.url paths hold (two levels below the package root). */
async function bundleChild(root: string): Promise<{ dir: string; file: string }> {
  const { build } = await import('esbuild');
  const { bundleOptions } = await import('../scripts/bundle.mjs');
  await mkdir(path.join(root, 'dist'), { recursive: true });
  const dir = await mkdtemp(path.join(root, 'dist', 'bench-memory-'));
  await build({ ...bundleOptions([path.join(root, 'bench', '_memory-child.ts')], dir), absWorkingDir: root });
  return { dir, file: path.join(dir, '_memory-child.mjs') };
}

function rows({ samples, oldKbPerFillAfterScavenges }: MemoryReport, total: number): BenchRow[] {
  const at = (fills: number) => {
    const s = samples.find((x) => x.fills === fills);
    if (!s) throw new Error(`no sample after ${fills} fills`);
    return s;
  };
  const first = at(100);
  const warm = at(Math.min(2000, total));
  const end = at(total);
  const later = samples.filter((s) => s.fills > warm.fills);
  const highest = later.reduce((a, b) => (b.rss > a.rss ? b : a), end);
  const external = (s: MemorySample) => s.external;
  return [
    {
      name: `RSS after ${total} fills vs after 100`,
      value: end.rss,
      unit: 'MB',
      baseline: first.rss,
      ratio: end.rss / first.rss,
      goal: '<= 1.2',
    },
    {
      name: `RSS after ${total} fills vs after ${warm.fills} (caches warm)`,
      value: end.rss,
      unit: 'MB',
      baseline: warm.rss,
      ratio: end.rss / warm.rss,
      goal: '~1 (no growth)',
    },
    {
      name: `RSS, highest sample after ${warm.fills} fills (every 2000) vs after ${warm.fills}`,
      value: highest.rss,
      unit: 'MB',
      baseline: warm.rss,
      ratio: highest.rss / warm.rss,
    },
    {
      name: `V8 heap committed, ${total} fills vs 100`,
      value: end.heapTotal,
      unit: 'MB',
      baseline: first.heapTotal,
      ratio: end.heapTotal / first.heapTotal,
    },
    ...(end.malloc !== undefined && first.malloc !== undefined
      ? [
          {
            name: `malloc heaps resident (brk + arenas), ${total} fills vs 100`,
            value: end.malloc,
            unit: 'MB',
            baseline: first.malloc,
            ratio: end.malloc / first.malloc,
          },
        ]
      : []),
    {
      name: `heap used after GC, ${total} fills vs ${warm.fills}`,
      value: end.heapUsed,
      unit: 'MB',
      baseline: warm.heapUsed,
      ratio: end.heapUsed / warm.heapUsed,
    },
    {
      name: 'old generation left per fill after two scavenges (20 fills after a full GC, lowest of 3)',
      value: oldKbPerFillAfterScavenges,
      unit: 'KB',
    },
    {
      name: `external (Buffers, ArrayBuffers), ${total} fills vs ${warm.fills}`,
      value: external(end),
      unit: 'MB',
      baseline: external(warm),
      ratio: external(end) / external(warm),
    },
  ];
}

export async function run(): Promise<BenchRow[]> {
  const total = Number(process.env.BENCH_MEMORY_FILLS ?? 10_000);
  const root = path.resolve(import.meta.dirname, '..');
  const child = await bundleChild(root);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', child.file, String(total)], {
      maxBuffer: 1 << 20,
    });
    const report = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as MemoryReport;
    const samples: MemorySample[] = report.samples;
    process.stderr.write(
      `memory samples (fills rss heapTotal heapUsed external malloc, MB):\n${samples
        .map((s) =>
          [s.fills, s.rss, s.heapTotal, s.heapUsed, s.external, s.malloc ?? NaN]
            .map((v) => Math.round(v * 10) / 10)
            .join(' '),
        )
        .join('\n')}\n`,
    );
    return rows(report, total);
  } finally {
    await rm(child.dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run());
}
