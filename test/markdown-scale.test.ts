/**
 * Markdown layout is linear in its input (#23): a word of several MB is cut
 * into lines cluster by cluster without being shaped whole, so twice the word
 * costs about twice the time (it was superlinear: 1 MB took 5x the time per MB
 * of 0.1 MB, a 10 MB word ran past 90 s).
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

describe('Markdown: time linear in the input', () => {
  it('a 4 MB word costs at most 1.5x the linear share of a 1.3 MB word (quadratic would be 3x that)', async () => {
    const engine = createEngine({ now: () => new Date('2024-01-01T00:00:00Z') });
    try {
      await engine.generate({ data: [{ content: 'warm' }] });
      let small = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 2; i++)
        small = Math.min(small, await timed(() => engine.generate({ data: [{ content: 'x'.repeat(1_300_000) }] })));
      let pdf: Uint8Array | undefined;
      const large = await timed(async () => {
        pdf = await engine.generate({ data: [{ content: 'y'.repeat(4_000_000) }] });
      });
      expect(pdf!.length).toBeGreaterThan(100_000);
      const linear = 4_000_000 / 1_300_000;
      expect(large / small).toBeLessThan(1.5 * linear);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
