/**
 * "Linear time" without a clock limit: the same operation at two sizes in one test.
 *
 * A limit in seconds fails on a busy machine and passes a quadratic scan on a fast one.
 * The ratio of the two sizes' costs does neither: 4x the input costs about 4x for a
 * linear scan and 16x for a quadratic one, whatever else the machine is doing. Cost is
 * this process's CPU time (every thread of it), which other processes on the machine
 * barely change, unlike wall time; the runs are interleaved (small, large, small, large...)
 * so that a slow spell hits both sizes, and each size keeps its cheapest run.
 *
 * Sizes 8x apart: a linear operation costs 8x, a quadratic one 64x, and the bound between them,
 * 8^1.5 ≈ 22.6, leaves a factor 2.8 either side. With 4x (bound 8) linear scans measured up to
 * x11 now and then: a larger input leaves a CPU cache or meets a garbage collection the smaller
 * one did not, which a linear cost per byte does not rule out.
 */
import { expect } from 'vitest';

/** CPU time (user + system, all threads of this process) spent by `fn`, in ms. */
async function cpuMs<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const before = process.cpuUsage();
  const value = await fn();
  const spent = process.cpuUsage(before);
  return { ms: (spent.user + spent.system) / 1000, value };
}

export interface Scaling<T> {
  /** Cost of the large size over cost of the small one (cheapest run of each). */
  ratio: number;
  /** The bound a linear operation stays under: (large/small)^1.5, 22.6 for sizes 8x apart (quadratic: 64). */
  linearBound: number;
  /** What `run(large)` returned (last run), for the test's own checks of the result. */
  result: T;
  /** Sizes, costs and repeats, for the failure message. */
  detail: string;
}

export interface ScalingOptions {
  /** Interleaved rounds of (small, large), after one warm-up of each (default 3). */
  rounds?: number;
  /** Each measurement repeats the run until the small size costs at least this much CPU (default 30 ms). */
  minMs?: number;
}

/**
 * Runs `run(small)` and `run(large)` interleaved and returns their cost ratio. A run cheaper
 * than `minMs` is repeated within one measurement (the same number of times at both sizes),
 * so that timer resolution and a stray GC do not decide the ratio. A synchronous operation is
 * passed as an async function.
 */
export async function scalingRatio<T>(
  run: (size: number) => Promise<T>,
  small: number,
  large: number,
  options: ScalingOptions = {},
): Promise<Scaling<T>> {
  const rounds = options.rounds ?? 3;
  const minMs = options.minMs ?? 30;
  // Warm-up (JIT, caches, lazily loaded modules), and how many repeats make the small size measurable.
  await run(small);
  await run(large);
  let repeats = 1;
  const measure = async (size: number) => {
    // Outside the measurement: let the event loop run (vitest's worker talks to its parent there), and
    // collect the garbage of earlier runs when the process allows it (vitest.config.ts: --expose-gc).
    await new Promise((r) => setImmediate(r));
    (globalThis as { gc?: () => void }).gc?.();
    return cpuMs<T>(async () => {
      let last: T | undefined;
      for (let i = 0; i < repeats; i++) last = await run(size);
      return last as T;
    });
  };
  // The cheaper of two measurements decides: one inflated by another thread's work (a concurrent GC
  // counts as this process's CPU) stopped the doubling at 16 repeats of a 0.16 ms run, and the rounds
  // then ranged 2.6–18.6 ms for the same work, which decided the ratio.
  const cheapest = async (size: number) => Math.min((await measure(size)).ms, (await measure(size)).ms);
  while (repeats < 1000 && (await cheapest(small)) < minMs) repeats *= 2;
  let result: T | undefined;
  let smallMs = Number.POSITIVE_INFINITY;
  let largeMs = Number.POSITIVE_INFINITY;
  const seen: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const s = await measure(small);
    const l = await measure(large);
    result = l.value;
    smallMs = Math.min(smallMs, s.ms);
    largeMs = Math.min(largeMs, l.ms);
    seen.push(`${s.ms.toFixed(1)}/${l.ms.toFixed(1)}`);
  }
  const ratio = largeMs / Math.max(smallMs, 0.001);
  const linearBound = (large / small) ** 1.5;
  const detail = `size ${small} → ${large}: CPU ${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms (x${ratio.toFixed(2)}, linear < x${linearBound.toFixed(1)}, quadratic x${((large / small) ** 2).toFixed(0)}); ${repeats} run(s) per measurement; rounds small/large ms: ${seen.join(', ')}`;
  return { ratio, linearBound, result: result as T, detail };
}

/**
 * Asserts that `run` costs less than (large/small)^1.5 times more at `large` than at `small`
 * (22.6x for sizes 8x apart, where a quadratic scan costs 64x); returns `run(large)`'s result.
 */
export async function expectLinearTime<T>(
  label: string,
  run: (size: number) => Promise<T>,
  small: number,
  large: number,
  options: ScalingOptions = {},
): Promise<T> {
  const s = await scalingRatio(run, small, large, options);
  if (process.env.SCALING_DEBUG) console.log(`${label}: ${s.detail}`);
  expect(s.ratio, `${label}: ${s.detail}`).toBeLessThan(s.linearBound);
  return s.result;
}
