/**
 * CPU time and memory of process trees, read from /proc (Linux): a server's figures include its
 * Chromium, which runs in child processes that `process.cpuUsage()` never sees. CPU is user + system
 * of every thread of every process in the tree, plus what its reaped children spent (cutime, cstime),
 * so a child that exits between two readings keeps counting; take differences of two readings.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat; 100 on every Linux this runs on (getconf CLK_TCK). */
const TICKS_PER_SECOND = 100;

interface Stat {
  ppid: number;
  /** utime + stime + cutime + cstime, in ticks. */
  ticks: number;
}

function readStat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // exited meanwhile
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): field n is rest[n - 3].
  const field = (n: number) => Number(rest[n - 3]);
  return { ppid: field(4), ticks: field(14) + field(15) + field(16) + field(17) };
}

/** Every live process, by parent. */
function children(): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (!stat) continue;
    const list = byParent.get(stat.ppid) ?? [];
    list.push(Number(name));
    byParent.set(stat.ppid, list);
  }
  return byParent;
}

/** The pids of the trees under `roots`, not descending into `exclude` (those are counted on their own). */
export function treePids(roots: number[], exclude: number[] = []): number[] {
  const byParent = children();
  const skip = new Set(exclude);
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid) || (skip.has(pid) && !roots.includes(pid))) continue;
    seen.add(pid);
    stack.push(...(byParent.get(pid) ?? []));
  }
  return [...seen];
}

/** CPU milliseconds spent so far by the trees under `roots` (minus the trees under `exclude`). */
export function treeCpuMs(roots: number[], exclude: number[] = []): number {
  let ticks = 0;
  for (const pid of treePids(roots, exclude)) ticks += readStat(pid)?.ticks ?? 0;
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** A `kB` line of /proc/<pid>/status or smaps_rollup, in bytes (0 when the process is gone). */
function kbLine(file: string, key: string): number {
  try {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(file, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The kernel's record of a process's peak resident set (VmHWM), every thread included. */
export function peakRss(pid: number): number {
  return kbLine(`/proc/${pid}/status`, 'VmHWM');
}

/**
 * Proportional set size of a tree now (reading smaps costs tens of ms of CPU per large process): shared pages (Chromium's processes share most of theirs)
 * divided among the processes that map them, so the sum is what the tree holds, not a multiple of it.
 */
export function treePss(roots: number[], exclude: number[] = []): number {
  let bytes = 0;
  for (const pid of treePids(roots, exclude)) bytes += kbLine(`/proc/${pid}/smaps_rollup`, 'Pss');
  return bytes;
}

/** The live children of `pid`. */
export function childrenOf(pid: number): number[] {
  return children().get(pid) ?? [];
}

/** A process's command name (/proc/<pid>/comm), '' when it is gone. */
export function commOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}
