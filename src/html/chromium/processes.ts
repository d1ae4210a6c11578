import { readdirSync, readFileSync } from 'node:fs';

/**
 * Chromium's process tree read from /proc (Linux): the pool finds its browser
 * by a marker switch on the command line, then sums the resident memory of the
 * browser and its children (renderers, GPU, utility, zygotes) to decide when to
 * recycle it. Elsewhere (no /proc) every reading is empty and nothing is recycled
 * for memory.
 */
export interface ChromiumProcess {
  pid: number;
  ppid: number;
  /** utime + stime, clock ticks. */
  cpuTicks: number;
  /** Resident set, bytes. */
  rssBytes: number;
  /** `--type=` of the process ('' for the browser process). */
  type: string;
}

const PAGE_SIZE = 4096;

function readProcess(pid: number): (ChromiumProcess & { cmdline: string }) | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    return {
      pid,
      ppid: Number(f[1]),
      cpuTicks: Number(f[11]) + Number(f[12]),
      rssBytes: Number(f[21]) * PAGE_SIZE,
      type: /--type=(\S+)/.exec(cmdline)?.[1] ?? '',
      cmdline,
    };
  } catch {
    return null;
  }
}

function allProcesses(): Array<ChromiumProcess & { cmdline: string }> {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: Array<ChromiumProcess & { cmdline: string }> = [];
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue;
    const p = readProcess(Number(n));
    if (p) out.push(p);
  }
  return out;
}

/** The browser process launched with `marker` on its command line and all its descendants (browser first). */
export function chromiumTree(marker: string): ChromiumProcess[] {
  const all = allProcesses();
  const root = all.find((p) => p.type === '' && p.cmdline.includes(marker));
  if (!root) return [];
  const tree: Array<ChromiumProcess & { cmdline: string }> = [root];
  for (let i = 0; i < tree.length; i++) {
    const parent = tree[i]!.pid;
    for (const p of all) if (p.ppid === parent) tree.push(p);
  }
  return tree.map(({ cmdline: _cmdline, ...p }) => p);
}

/** Resident memory of the whole tree, bytes (shared pages are counted once per process: an upper bound). */
export function treeRssBytes(tree: ChromiumProcess[]): number {
  return tree.reduce((sum, p) => sum + p.rssBytes, 0);
}
