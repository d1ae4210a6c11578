/**
 * File order for the suite: the longest files start first, so the last minutes of a
 * run are not one long file alone on one fork while the other fork idles. vitest orders by its
 * own cache of durations, which a fresh checkout (CI) does not have: it then runs larger files
 * first, which puts workflow-crash (a short file, the longest run) near the end. Files named here
 * go first, longest first, by their time in CI; the rest follow in vitest's order.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each took in the last clean-clone run (2 cores, idle-ish, maxForks 2); only the order matters.
 * package.test.ts is listed at what is left of it once docs.test.ts (earlier in the order) has made the
 * run's one install (test/helpers/installed-package.ts): started late, it finds the install ready
 * instead of holding a fork while it waits for it.
 */
const CI_SECONDS: Readonly<Record<string, number>> = {
  'test/workflow-crash.test.ts': 331,
  'test/docs.test.ts': 106,
  'test/html-hostile.test.ts': 96,
  'test/queue.test.ts': 79,
  'test/graphql-signing-viewer.test.ts': 68,
  'test/html-deadline.test.ts': 56,
  'test/server-stall.test.ts': 48,
  'test/server-load.test.ts': 44,
  'test/packets-assemble.test.ts': 43,
  'test/packets-docx-network.test.ts': 39,
  'test/server-packet-limits.test.ts': 32,
  'test/packet-signer-types.test.ts': 30,
  'test/html-offline.test.ts': 29,
  'test/acroform-fill.test.ts': 28,
  'test/acroform-flat-vs-interactive.test.ts': 23,
  'test/packet-e2e.test.ts': 28,
  'test/determinism.test.ts': 27,
  'test/html-corpus.test.ts': 26,
  'test/graphql-signing-page.test.ts': 24,
  'test/demo-serve.test.ts': 24,
  'test/cli.test.ts': 21,
  'test/package.test.ts': 20,
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
