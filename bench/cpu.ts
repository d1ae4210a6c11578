/**
 * CPU time beside wall time, so a busy machine can be told from a bottleneck: on a shared machine
 * wall time says how long the run waited for a core, CPU time what the run cost. Read from Linux's
 * /proc (ticks of 10 ms); elsewhere the per-thread figures are empty and only process totals remain.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10;

/** utime + stime of a /proc stat line, in ms. */
function statMs(line: string): number {
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** CPU of a whole process (every thread, living or ended), in ms; undefined when it cannot be read. */
export function processCpuMs(pid: number): number | undefined {
  try {
    return statMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** CPU of each living thread of a process, by thread id, in ms. */
export function threadCpuMs(pid: number | 'self' = 'self'): Map<number, number> {
  const times = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return times;
  }
  for (const tid of tids) {
    try {
      times.set(Number(tid), statMs(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
    } catch {
      // ended between the listing and the read
    }
  }
  return times;
}

/** Where this process's CPU went during a stretch of work. */
export interface CpuSplit {
  wallMs: number;
  /** Every thread, ended ones included (process.cpuUsage). */
  totalMs: number;
  /** The main thread (its thread id is the process id). */
  mainMs: number;
  /** Threads started during the stretch: worker threads (the pool's). */
  newThreadsMs: number;
  /** The busiest of those. */
  busiestNewThreadMs: number;
  /** Threads that existed before and are not the main one: V8's GC and compiler threads, libuv's pool. */
  helpersMs: number;
}

/**
 * Follows this process's threads from `start()` to `stop()`. Threads are sampled every
 * `everyMs`, so a worker thread that ends before `stop()` keeps the CPU it had at its last sample
 * (the part after it is counted in `totalMs` only).
 */
export class CpuWatch {
  readonly #before = threadCpuMs();
  readonly #seen = new Map<number, number>();
  readonly #cpu0 = process.cpuUsage();
  readonly #wall0 = performance.now();
  readonly #timer: NodeJS.Timeout;

  constructor(everyMs = 100) {
    this.#timer = setInterval(() => this.#sample(), everyMs);
  }

  #sample(): void {
    for (const [tid, ms] of threadCpuMs()) this.#seen.set(tid, ms);
  }

  stop(): CpuSplit {
    clearInterval(this.#timer);
    this.#sample();
    const cpu = process.cpuUsage(this.#cpu0);
    const main = process.pid;
    let mainMs = 0;
    let newThreadsMs = 0;
    let busiestNewThreadMs = 0;
    let helpersMs = 0;
    for (const [tid, ms] of this.#seen) {
      const used = ms - (this.#before.get(tid) ?? 0);
      if (tid === main) mainMs = used;
      else if (this.#before.has(tid)) helpersMs += used;
      else {
        newThreadsMs += used;
        busiestNewThreadMs = Math.max(busiestNewThreadMs, used);
      }
    }
    return {
      wallMs: performance.now() - this.#wall0,
      totalMs: (cpu.user + cpu.system) / 1000,
      mainMs,
      newThreadsMs,
      busiestNewThreadMs,
      helpersMs,
    };
  }
}

/**
 * Throughput ratio of `b` against `a` on an idle machine of `cores` cores, estimated from CPU:
 * a run can go no faster than its busiest thread, nor than its whole CPU spread over the cores.
 */
export function idleRatio(a: CpuSplit, b: CpuSplit, cores: number): number {
  const floor = (s: CpuSplit) => Math.max(s.busiestNewThreadMs, s.mainMs, s.totalMs / cores);
  return floor(a) / floor(b);
}
