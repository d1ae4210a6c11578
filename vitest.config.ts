import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/slow-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The 15 slowest tests are listed at the end of a run (test/slowest-reporter.ts).
    reporters: ['default', './test/slowest-reporter.ts'],
    // Rendering and Chromium tests are CPU-heavy; the CI machine has two cores.
    pool: 'forks',
    // --expose-gc: test/helpers/scaling.ts collects garbage between the runs it compares.
    poolOptions: { forks: { maxForks: 2, minForks: 1, execArgv: ['--expose-gc'] } },
    // The longest files first (workflow-crash above all), so none of them is the run's tail.
    sequence: { sequencer: SlowFirstSequencer },
    // One `npm pack` + install per run, shared by docs.test.ts and package.test.ts (test/helpers/installed-package.ts).
    globalSetup: ['./test/helpers/shared-install-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
