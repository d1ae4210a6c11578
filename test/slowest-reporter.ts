/**
 * A vitest reporter that prints the 15 slowest tests at the end of a run (a suite that
 * fits in minutes; the list says where the minutes go). Registered in vitest.config.ts beside the
 * default reporter; a command line that names its own reporters (`.ci/run`) names this one too,
 * since `--reporter` on the command line replaces the configured list.
 */
import type { Reporter, TestModule } from 'vitest/node';
import path from 'node:path';

const SHOWN = 15;

export default class SlowestTests implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows: Array<{ ms: number; name: string }> = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const ms = test.diagnostic()?.duration;
        if (ms !== undefined)
          rows.push({ ms, name: `${path.relative(process.cwd(), mod.moduleId)} > ${test.fullName}` });
      }
    }
    if (rows.length === 0) return;
    rows.sort((a, b) => b.ms - a.ms);
    const lines = rows
      .slice(0, SHOWN)
      .map(
        (r) =>
          `${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.name.length > 160 ? `${r.name.slice(0, 157)}...` : r.name}`,
      );
    process.stdout.write(`\nSlowest ${Math.min(SHOWN, rows.length)} tests:\n${lines.join('\n')}\n`);
  }
}
