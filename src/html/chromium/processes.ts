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

interface Stat {
  pid: number;
  ppid: number;
  cpuTicks: number;
  rssBytes: number;
  /** Start time, clock ticks after boot: tells a process from a later one that got its pid. */
  start: number;
}

function readStat(pid: number): Stat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      ppid: Number(f[1]),
      cpuTicks: Number(f[11]) + Number(f[12]),
      rssBytes: Number(f[21]) * PAGE_SIZE,
      start: Number(f[19]),
    };
  } catch {
    return null;
  }
}

function readCmdline(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return null;
  }
}

/** Process ids in /proc now; empty without /proc. */
function listPids(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const n of names) if (/^\d+$/.test(n)) out.push(Number(n));
  return out;
}

/**
 * After a gap this long between readings the pids known to be outside the tree are read again: the
 * machine's pids wrap (pid_max is 32768 on many systems), so one of them may now be a new renderer.
 */
const OUTSIDERS_KEPT_MS = 3000;

/**
 * One browser's process tree, kept up to date cheaply. The browser is found once (the child process
 * whose command line carries the marker: one scan of /proc); each reading then lists /proc's pids (one
 * directory read) and reads the `stat` of the tree's processes and of pids that appeared since the last
 * reading, never every process on the machine: a reading on a machine of 150 processes costs ~10 files,
 * not ~300. A pid that appeared is in the tree when its parent is; one that is not stays known as an
 * outsider while it lives, so it is read once.
 */
export class ProcessTree {
  readonly marker: string;
  #root: Stat | null = null;
  /** Members by pid with their start time (browser first, then in the order found). */
  #members = new Map<number, { start: number; type: string }>();
  /** Pids seen outside the tree, with no need to read them again while they live. */
  #outsiders = new Set<number>();
  #readAt = -Infinity;
  /** /proc files read by this tree so far (stat and cmdline), for tests and diagnostics. */
  filesRead = 0;

  constructor(marker: string) {
    this.marker = marker;
  }

  /** The tree's processes now (browser first); empty when the browser is not found or is gone. */
  read(): ChromiumProcess[] {
    const now = performance.now();
    if (now - this.#readAt > OUTSIDERS_KEPT_MS) this.#outsiders.clear();
    this.#readAt = now;
    const pids = listPids();
    if (!this.#root) return this.#find(pids);
    const present = new Set(pids);
    for (const pid of this.#outsiders) if (!present.has(pid)) this.#outsiders.delete(pid);
    const out: ChromiumProcess[] = [];
    // Members first: a member that is gone (or whose pid now names another process) leaves the tree.
    for (const [pid, m] of this.#members) {
      const s = present.has(pid) ? this.#stat(pid) : null;
      if (!s || s.start !== m.start) {
        this.#members.delete(pid);
        continue;
      }
      out.push({ pid, ppid: s.ppid, cpuTicks: s.cpuTicks, rssBytes: s.rssBytes, type: m.type });
    }
    if (!this.#members.has(this.#root.pid)) {
      this.#members.clear();
      return [];
    }
    // Newcomers: read once; a child of a member (or of a newer member) joins, the rest are outsiders.
    const fresh: Stat[] = [];
    for (const pid of pids) {
      if (this.#members.has(pid) || this.#outsiders.has(pid)) continue;
      const s = this.#stat(pid);
      if (s) fresh.push(s);
    }
    for (let grew = true; grew;) {
      grew = false;
      for (let i = 0; i < fresh.length; i++) {
        const s = fresh[i]!;
        if (!this.#members.has(s.ppid)) continue;
        const type = /--type=(\S+)/.exec(this.#cmdline(s.pid) ?? '')?.[1] ?? '';
        this.#members.set(s.pid, { start: s.start, type });
        out.push({ pid: s.pid, ppid: s.ppid, cpuTicks: s.cpuTicks, rssBytes: s.rssBytes, type });
        fresh.splice(i--, 1);
        grew = true;
      }
    }
    for (const s of fresh) this.#outsiders.add(s.pid);
    return out;
  }

  /** First reading: every process's stat, the command lines of this process's children only. */
  #find(pids: number[]): ChromiumProcess[] {
    const all: Stat[] = [];
    for (const pid of pids) {
      const s = this.#stat(pid);
      if (s) all.push(s);
    }
    // Playwright starts the browser itself, so its command line is looked for among this process's children
    // first (a few files); a wrapper that forks instead of exec'ing puts it further down.
    const marked = (s: Stat): boolean => (this.#cmdline(s.pid) ?? '').includes(this.marker);
    const root =
      all.find((s) => s.ppid === process.pid && marked(s)) ?? all.find((s) => s.ppid !== process.pid && marked(s));
    if (!root) return [];
    this.#root = root;
    const tree: Stat[] = [root];
    this.#members.set(root.pid, { start: root.start, type: '' });
    for (let i = 0; i < tree.length; i++) {
      const parent = tree[i]!.pid;
      for (const s of all) {
        if (s.ppid !== parent) continue;
        tree.push(s);
        this.#members.set(s.pid, { start: s.start, type: /--type=(\S+)/.exec(this.#cmdline(s.pid) ?? '')?.[1] ?? '' });
      }
    }
    for (const s of all) if (!this.#members.has(s.pid)) this.#outsiders.add(s.pid);
    return tree.map(({ pid, ppid, cpuTicks, rssBytes }) => ({
      pid,
      ppid,
      cpuTicks,
      rssBytes,
      type: this.#members.get(pid)?.type ?? '',
    }));
  }

  #stat(pid: number): Stat | null {
    this.filesRead++;
    return readStat(pid);
  }

  #cmdline(pid: number): string | null {
    this.filesRead++;
    return readCmdline(pid);
  }
}

/** Resident memory of the whole tree, bytes (shared pages are counted once per process: an upper bound). */
export function treeRssBytes(tree: ChromiumProcess[]): number {
  return tree.reduce((sum, p) => sum + p.rssBytes, 0);
}
