/**
 * File order for the suite (issue 29): the longest files start first, so the last minutes of a
 * run are not one long file alone on one fork while the other fork idles. vitest orders by its
 * own cache of durations, which a fresh checkout (CI) does not have: it then runs larger files
 * first, which puts workflow-crash (a short file, the longest run) near the end. Files named here
 * go first, longest first, by their time in CI; the rest follow in vitest's order.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each took in the last clean CI run (2 cores, idle, maxForks 2); only the order matters. */
const CI_SECONDS: Readonly<Record<string, number>> = {
  'test/workflow-crash.test.ts': 335,
  'test/package.test.ts': 72,
  'test/html-hostile.test.ts': 67,
  'test/queue.test.ts': 56,
  'test/graphql-signing-viewer.test.ts': 55,
  'test/html-deadline.test.ts': 48,
  'test/packets-assemble.test.ts': 41,
  'test/server-load.test.ts': 39,
  'test/packets-docx-network.test.ts': 36,
  'test/html-offline.test.ts': 28,
  'test/server-stall.test.ts': 28,
  'test/determinism.test.ts': 27,
  'test/server-packet-limits.test.ts': 26,
  'test/html-corpus.test.ts': 24,
  'test/acroform-fill.test.ts': 23,
  'test/markdown-scale.test.ts': 23,
  'test/packet-e2e.test.ts': 22,
  'test/graphql-signing-page.test.ts': 22,
};

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const seconds = (spec: TestSpecification) =>
      CI_SECONDS[path.relative(this.ctx.config.root, spec.moduleId).split(path.sep).join('/')] ?? -1;
    // Array.prototype.sort is stable: files not named keep vitest's order.
    return ordered
      .map((spec, i) => ({ spec, i, s: seconds(spec) }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map((x) => x.spec);
  }
}
