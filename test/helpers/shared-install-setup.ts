/**
 * vitest globalSetup: names one folder per run for the installed package
 * (test/helpers/installed-package.ts), so the test files that need `npm pack` + `npm install`
 * (docs.test.ts, package.test.ts) build and install it once per run instead of once each.
 * Nothing is created here: the first file that asks installs into the folder; the run's end
 * removes it.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the run's one installed package goes to (absent when the config has no such set-up). */
    sharedInstallDir: string;
  }
}

export default function setup(project: TestProject): () => Promise<void> {
  const dir = path.join(tmpdir(), `castpress-install-${process.pid}-${randomBytes(4).toString('hex')}`);
  project.provide('sharedInstallDir', dir);
  // A file that timed out may leave its npm install writing into the folder while it is removed
  // (ENOTEMPTY): retries let that finish instead of failing the run's teardown.
  return async () => {
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    await rm(`${dir}.lock`, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
}
