export interface ProgressState {
  done: number;
  failed: number;
  skipped: number;
  total: number;
  startedAt: number;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const s = Math.round(seconds);
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${s}s`;
}

/** `[#######.......]  512/1000  51%  23.4 jobs/s  ETA 21s  (3 failed)` */
export function progressLine(p: ProgressState, now: number, width = 24): string {
  const finished = p.done + p.failed + p.skipped;
  const ratio = p.total > 0 ? finished / p.total : 1;
  const filled = Math.round(ratio * width);
  const elapsed = (now - p.startedAt) / 1000;
  const rate = elapsed > 0 ? (p.done + p.failed) / elapsed : 0;
  const remaining = p.total - finished;
  const eta = rate > 0 ? remaining / rate : Number.POSITIVE_INFINITY;
  const failed = p.failed ? `  (${p.failed} failed)` : '';
  const skipped = p.skipped ? `  (${p.skipped} already done)` : '';
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]  ${finished}/${p.total}  ${Math.floor(ratio * 100)}%  ${rate.toFixed(1)} jobs/s  ETA ${duration(eta)}${failed}${skipped}`;
}

export interface ProgressReporter {
  update(p: ProgressState): void;
  finish(p: ProgressState): void;
}

/** A redrawn bar on a terminal; a plain line at most every `intervalMs` otherwise (logs, CI). */
export function createProgressReporter(stream: NodeJS.WriteStream, intervalMs = 2000): ProgressReporter {
  let last = 0;
  const tty = Boolean(stream.isTTY);
  return {
    update(p) {
      const now = Date.now();
      if (tty) {
        if (now - last < 100) return;
        last = now;
        stream.write(`\r${progressLine(p, now)}\x1b[K`);
      } else if (now - last >= intervalMs) {
        last = now;
        stream.write(`${progressLine(p, now)}\n`);
      }
    },
    finish(p) {
      stream.write(`${tty ? '\r' : ''}${progressLine(p, Date.now())}${tty ? '\x1b[K' : ''}\n`);
    },
  };
}
