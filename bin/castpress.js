#!/usr/bin/env node
// The castpress command. It runs, in this order:
//  - on Node without module.enableCompileCache (before 22.1), the CommonJS bundle
//    dist/bundle/castpress.cjs (castpress-fill.cjs for `fill`, castpress-worker.cjs for `worker`) with V8's code cache
//    (bin/code-cache.js), whenever it is newer than every source (bin/bundle.js): a cold
//    `castpress fill` then compiles none of the code
//    its first run compiled (the cache is per user: see bin/code-cache.js);
//  - the esbuild bundle dist/bundle/castpress.mjs (`npm run build`; `npm test` builds it too),
//    whenever it is newer than every source: one file and a few chunks instead of hundreds of
//    modules, the fast start a process that fills one PDF needs (with Node's compile cache where
//    Node has it);
//  - in a checkout without a fresh bundle, the TypeScript sources through tsx, so an edited
//    src/ is what runs, whatever an old build holds;
//  - in an installed package without a bundle, tsc's build (dist/).
// This folder is CommonJS (bin/package.json): Node's ES-module loader, which an ES-module bin
// would start, costs a cold `castpress fill` ~20 million instructions (callgrind, issue 29), and
// the ES-module paths below reach it through import() only when they run.
'use strict';
const Module = require('node:module');
const { existsSync } = require('node:fs');
const path = require('node:path');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { freshBundle, OWN_SCRIPT_COMMANDS } = require('./bundle.js');

// V8's code cache between runs, where Node has it (22.1 and later; Node 20 does not).
const compileCache = typeof Module.enableCompileCache === 'function';
if (compileCache) Module.enableCompileCache();

// Commands only: `--help` and `--version` compile little, and load less from the ES-module bundle
// than the whole cache would hold. CASTPRESS_CODE_CACHE=0: the ES-module bundle always (no cache).
// (src/cli/index.ts's commands; one missing here only runs from the ES-module bundle.)
const COMMANDS = ['fill', 'generate', 'import-template', 'batch', 'worker', 'serve', 'verify'];
const command = process.argv[2];
// OWN_SCRIPT_COMMANDS (`fill`, `worker`) have a file of their own, holding that command only: a smaller cache to read.
const cjs =
  compileCache || process.env.CASTPRESS_CODE_CACHE === '0' || !COMMANDS.includes(command)
    ? undefined
    : (OWN_SCRIPT_COMMANDS.includes(command) && freshBundle(`castpress-${command}.cjs`)) ||
      freshBundle('castpress.cjs');
const bundle = cjs ? undefined : freshBundle('castpress.mjs');
const sources = path.join(__dirname, '..', 'src', 'cli', 'index.ts');

async function run() {
  let main;
  let saveCache;
  if (cjs) {
    const { loadWithCodeCache } = require('./code-cache.js');
    const loaded = loadWithCodeCache(fileURLToPath(cjs), command);
    ({ main } = loaded.exports);
    saveCache = loaded.save;
  } else if (bundle) {
    ({ main } = await import(bundle));
  } else if (existsSync(sources)) {
    const { register } = await import('tsx/esm/api');
    register();
    ({ main } = await import(pathToFileURL(sources).href));
  } else {
    ({ main } = await import(pathToFileURL(path.join(__dirname, '..', 'dist', 'cli', 'index.js')).href));
  }
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exitCode = code;
  // After the command's work, so the functions it compiled are in the cache (first run only); not
  // after a failure, which may have stopped before most of the work (a server keeps running: -1).
  if (code === 0 || code === -1) saveCache?.();
}

// As an ES module's top-level await did: an error thrown out of the command is printed, exit 1.
run().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
