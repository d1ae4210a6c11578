#!/usr/bin/env node
// The castpress command. It runs, in this order:
//  - for the commands in CACHED, the CommonJS bundle dist/bundle/castpress.cjs with V8's code cache
//    (bin/code-cache.js), under the same freshness rule;
//  - the esbuild bundle dist/bundle/castpress.mjs (`npm run build`; `npm test` builds it too),
//    whenever it is newer than every source (bin/bundle.js): one file and a few chunks instead
//    of hundreds of modules, the fast start a process that fills one PDF needs;
//  - in a checkout without a fresh bundle, the TypeScript sources through tsx, so an edited
//    src/ is what runs, whatever an old build holds;
//  - in an installed package without a bundle, tsc's build (dist/).
import module from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freshBundle } from './bundle.js';

// V8's code cache between runs, where Node has it (22.1 and later; Node 20 does not).
if (typeof module.enableCompileCache === 'function') module.enableCompileCache();

/**
 * Commands that run from the CommonJS bundle with V8's code cache (bin/code-cache.js): the ones a
 * process is started for again and again (one fill per process, a queue worker, a batch). `serve`
 * keeps the ES-module bundle: a server starts once, and its stack (fastify and plugins) stays as
 * tested.
 */
const CACHED = new Set(['fill', 'generate', 'import-template', 'verify', 'batch', 'worker']);

const command = process.argv[2];
const cjs = CACHED.has(command) && process.env.CASTPRESS_CODE_CACHE !== '0' ? freshBundle('castpress.cjs') : undefined;
const bundle = cjs ? undefined : freshBundle('castpress.mjs');
const sources = new URL('../src/cli/index.ts', import.meta.url);
let main;
if (cjs) {
  const { runWithCodeCache } = await import('./code-cache.js');
  // The bundle runs its main as a directly started src/cli/index.ts does, and sets process.exitCode.
  runWithCodeCache(fileURLToPath(cjs), command);
} else if (bundle) {
  ({ main } = await import(bundle));
} else if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(sources.href));
} else {
  ({ main } = await import(new URL('../dist/cli/index.js', import.meta.url).href));
}
if (main) {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exitCode = code;
}
