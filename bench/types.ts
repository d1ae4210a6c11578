/** One line of the benchmark table: a measurement and, where it has one, its anchor from the same run. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** The anchor measured in the same run (same unit). */
  baseline?: number;
  /** value / baseline (or the figure the row's goal is stated in). */
  ratio?: number;
  /** The goal, e.g. "<= 0.1". */
  goal?: string;
}

export interface BenchModule {
  run(): Promise<BenchRow[]>;
}

/** Median of `n` timed runs after `warmup` untimed ones, in milliseconds. */
export async function timeMedian(fn: () => Promise<unknown>, n = 7, warmup = 2): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/**
 * Medians of subject and anchor run alternately, after `warmup` rounds of both:
 * on a shared machine, load that comes and goes then weighs on both alike.
 */
export async function interleaved(
  subject: () => Promise<unknown>,
  anchor: () => Promise<unknown>,
  n: number,
  warmup = 3,
): Promise<[number, number]> {
  for (let i = 0; i < warmup; i++) {
    await subject();
    await anchor();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await subject();
    a.push(performance.now() - t);
    t = performance.now();
    await anchor();
    b.push(performance.now() - t);
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return [median(a), median(b)];
}
