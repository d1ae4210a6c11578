import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/slow-first-sequencer.js';

// Node 20 (OpenSSL 3) parses every certificate NODE_EXTRA_CA_CERTS names when a process starts,
// before any code runs (nodejs/node#40524): ~70 ms of CPU for each Node process the suite starts
// (forks, CLI runs, crash-test children) on a machine that names its system bundle there, as this
// workplace does for its proxy. No test talks TLS to a server off the machine, so the suite's
// processes start without it; npm, which may reach the registry, gets it back
// (test/helpers/installed-package.ts). Set here, before vitest starts its forks.
if (process.env.NODE_EXTRA_CA_CERTS) {
  process.env.CASTPRESS_NPM_EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
}

/**
 * Files that run in shared worker threads (issue 29): each imported the engine's sources through
 * vite-node in a fresh fork, ~4 s a file under load, more than most of them take to run. These
 * import the engine in-process and leave nothing behind (no servers or browsers left open, no
 * process.env or global changes; a file that spies on a module's function restores the spy itself,
 * as fill-parse-once, signing-revision-work and verify-work do: with isolate false the next file in
 * the thread shares the module, and nothing here sets restoreMocks), so a thread runs them one after
 * another and imports the engine once. A new file runs isolated until
 * it is added here (after running this list twice in one thread: `npx vitest run --project shared`).
 * Files that compare CPU times (test/helpers/scaling.ts: fill-types, markdown, markdown-scale...)
 * stay isolated: process.cpuUsage() counts every thread of the process, here the other file's too.
 * Files that start servers, Chromium or child processes share too when they close them in
 * afterAll/finally (a worker thread can spawn; vitest runs the two projects one after the other, so
 * the forks and the threads never hold more than two workers between them).
 * Left isolated on purpose, beside the scaling.ts users (fill-types, html-gcpm, html-hostile,
 * markdown, markdown-scale, packets-tags, server-filename, signing-identity, signing-junk,
 * text-layout, validation-generate):
 * - pdf-hostile: asserts process.cpuUsage() itself (not through scaling.ts);
 * - packets-generated-scan: asserts that pdf.js was never loaded in the process (globalThis.pdfjsLib),
 *   which any earlier file in the thread breaks: it needs a fresh module state;
 * - completion-browser, workflow-crash (the adopted marks) and the files another slice of #29 was
 *   changing in the same round (cli-startup, demo-serve, docs, graphql-signing-viewer, html-corpus,
 *   package, packet-signer-types, packets-docx-network, queue, server-load, server-stall): not
 *   reviewed for sharing yet.
 */
const SHARED_FILES = [
  'test/acroform-choice.test.ts',
  'test/acroform-comb.test.ts',
  'test/acroform-fill.test.ts',
  'test/acroform-flat-vs-interactive.test.ts',
  'test/acroform-graphemes.test.ts',
  'test/acroform-interactive.test.ts',
  'test/acroform-wild.test.ts',
  'test/batch.test.ts',
  'test/bundle-pdf-lib-encodings.test.ts',
  'test/cli-messages.test.ts',
  'test/cli-resource-warnings.test.ts',
  'test/cli-verify.test.ts',
  'test/cli.test.ts',
  'test/cold-start-fontkit.test.ts',
  'test/cold-start-thread.test.ts',
  'test/completion-audit.test.ts',
  'test/completion-events.test.ts',
  'test/completion-signed-uploads.test.ts',
  'test/demo.test.ts',
  'test/determinism.test.ts',
  'test/engine-results.test.ts',
  'test/engine.test.ts',
  'test/fields-registry.test.ts',
  'test/fill-basic.test.ts',
  'test/fill-formats.test.ts',
  'test/fill-golden.test.ts',
  'test/fill-interactive.test.ts',
  'test/fill-options.test.ts',
  'test/fill-parse-once.test.ts',
  'test/fill-prefix.test.ts',
  'test/fill-repeat.test.ts',
  'test/fill-signature-fields.test.ts',
  'test/fill-style.test.ts',
  'test/fonts-catalogue.test.ts',
  'test/fonts-packages.test.ts',
  'test/fonts-post-header.test.ts',
  'test/fonts-registry.test.ts',
  'test/fonts-remote-catalogue.test.ts',
  'test/form-marks-rotated.test.ts',
  'test/format.test.ts',
  'test/graphql-cost.test.ts',
  'test/graphql-serve.test.ts',
  'test/graphql-signing-page.test.ts',
  'test/graphql.test.ts',
  'test/guide-blocks.test.ts',
  'test/harness.test.ts',
  'test/house-file-size.test.ts',
  'test/html-deadline.test.ts',
  'test/html-fonts-embed.test.ts',
  'test/html-fonts.test.ts',
  'test/html-forms-writer.test.ts',
  'test/html-forms.test.ts',
  'test/html-inpage-once.test.ts',
  'test/html-isolation.test.ts',
  'test/html-metadata.test.ts',
  'test/html-offline.test.ts',
  'test/html-page-code.test.ts',
  'test/html-page-context-work.test.ts',
  'test/html-page-room.test.ts',
  'test/html-paged.test.ts',
  'test/html-render.test.ts',
  'test/html-resource-warnings.test.ts',
  'test/html-sheets.test.ts',
  'test/images.test.ts',
  'test/markdown-commonmark.test.ts',
  'test/markdown-defaults.test.ts',
  'test/markdown-golden.test.ts',
  'test/markdown-undecodable-image.test.ts',
  'test/packet-e2e.test.ts',
  'test/packet-links.test.ts',
  'test/packet-static-docs.test.ts',
  'test/packet-templates-by-reference.test.ts',
  'test/packet-title.test.ts',
  'test/packets-assemble.test.ts',
  'test/packets-docx.test.ts',
  'test/packets-plan.test.ts',
  'test/packets-request.test.ts',
  'test/packets-sign.test.ts',
  'test/pdf-active-content.test.ts',
  'test/pdf-append-pages.test.ts',
  'test/pdf-document-info.test.ts',
  'test/pdf-kernel-writer.test.ts',
  'test/pdf-load.test.ts',
  'test/pdf-merge.test.ts',
  'test/pdf-update.test.ts',
  'test/per-signer-packet.test.ts',
  'test/pixel-compare.test.ts',
  'test/resources-address.test.ts',
  'test/resources-http.test.ts',
  'test/robustness.test.ts',
  'test/serve-per-signer.test.ts',
  'test/serve-tsa.test.ts',
  'test/server-anvil.test.ts',
  'test/server-faults.test.ts',
  'test/server-full-disk.test.ts',
  'test/server-lifecycle.test.ts',
  'test/server-openapi.test.ts',
  'test/server-ops.test.ts',
  'test/server-org.test.ts',
  'test/server-packet-limits.test.ts',
  'test/server-parts.test.ts',
  'test/server-robustness.test.ts',
  'test/server-tenants.test.ts',
  'test/server.test.ts',
  'test/signing-appearance.test.ts',
  'test/signing-certify.test.ts',
  'test/signing-conformance.test.ts',
  'test/signing-date.test.ts',
  'test/signing-diff.test.ts',
  'test/signing-ltv.test.ts',
  'test/signing-pad.test.ts',
  'test/signing-revision-issuer.test.ts',
  'test/signing-revision-work.test.ts',
  'test/signing-seal.test.ts',
  'test/signing-timestamp.test.ts',
  'test/signing-trust.test.ts',
  'test/signing-tsa-serve.test.ts',
  'test/signing-tsa.test.ts',
  'test/template-store.test.ts',
  'test/text-scripts.test.ts',
  'test/text-smoke.test.ts',
  'test/text-subset-cache.test.ts',
  'test/validation-all-at-once.test.ts',
  'test/validation-fill.test.ts',
  'test/verify-work.test.ts',
  'test/webhook-lanes.test.ts',
  'test/welds-crash.test.ts',
  'test/welds-org.test.ts',
  'test/welds-store.test.ts',
  'test/welds.test.ts',
  'test/workflow-acceptance.test.ts',
  'test/workflow-merge-payload.test.ts',
  'test/workflow-routing.test.ts',
  'test/workflow-stored-fields.test.ts',
  'test/workflow.test.ts',
];

export default defineConfig({
  test: {
    // No include here: a project that extends this config would add its include to it (arrays merge).
    // The 15 slowest tests are listed at the end of a run (test/slowest-reporter.ts).
    reporters: ['default', './test/slowest-reporter.ts'],
    // Rendering and Chromium tests are CPU-heavy; the CI machine has two cores.
    pool: 'forks',
    poolOptions: {
      // --expose-gc: test/helpers/scaling.ts collects garbage between the runs it compares.
      forks: { maxForks: 2, minForks: 1, execArgv: ['--expose-gc'] },
      // The shared files (project "shared"): isolate false keeps a thread and its module cache
      // from one file to the next. vitest decides isolation per pool, not per project, so the
      // shared files get a pool of their own; the forks stay one fresh process per file.
      threads: { maxThreads: 2, minThreads: 1, isolate: false },
    },
    // The longest files first (workflow-crash above all), so none of them is the run's tail.
    sequence: { sequencer: SlowFirstSequencer },
    // One `npm pack` + install per run, shared by docs.test.ts and package.test.ts (test/helpers/installed-package.ts).
    globalSetup: ['./test/helpers/shared-install-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        // Every file not listed in SHARED_FILES, as before: one fresh fork per file. Runs first:
        // the long files are here, longest first.
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED_FILES, sequence: { groupOrder: 0 } },
      },
      {
        // Runs once the isolated files are done (groups of a run do not overlap), so the two pools
        // never hold more than two workers between them.
        extends: true,
        test: { name: 'shared', include: SHARED_FILES, pool: 'threads', sequence: { groupOrder: 1 } },
      },
    ],
  },
});
