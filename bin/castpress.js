#!/usr/bin/env node
// The castpress command. It runs, in this order:
//  - the esbuild bundle dist/bundle/castpress.mjs (`npm run build`; `npm test` builds it too),
//    whenever it is newer than every source (bin/bundle.js): one file and a few chunks instead
//    of hundreds of modules, the fast start a process that fills one PDF needs;
//  - in a checkout without a fresh bundle, the TypeScript sources through tsx, so an edited
//    src/ is what runs, whatever an old build holds;
//  - in an installed package without a bundle, tsc's build (dist/).
import module from 'node:module';
import { existsSync } from 'node:fs';
import { freshBundle } from './bundle.js';

// V8's code cache between runs, where Node has it (22.1 and later; Node 20 does not).
if (typeof module.enableCompileCache === 'function') module.enableCompileCache();

const bundle = freshBundle('castpress.mjs');
const sources = new URL('../src/cli/index.ts', import.meta.url);
let main;
if (bundle) {
  ({ main } = await import(bundle));
} else if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(sources.href));
} else {
  ({ main } = await import(new URL('../dist/cli/index.js', import.meta.url).href));
}
const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
