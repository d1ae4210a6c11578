'use strict';
/**
 * Runs a CommonJS bundle with V8's code cache (Node 20 has no module.enableCompileCache, and
 * its ES-module loader neither caches compiled code nor decodes source quickly): the crash
 * test's 200 children each pay parsing and compiling ~6 MB of engine code otherwise (a third
 * of their CPU time before they are ready, measured).
 *   node code-cache-loader.cjs <bundle.cjs> [arguments of the bundle...]
 * The cache is <bundle.cjs>.v8cache. With SAVE_CODE_CACHE=1 a `save` line on stdin writes it
 * (after the run, so it holds the functions compiled while working too) and ends the process.
 * A rejected cache (another V8, other flags) only costs time: it is said on stderr.
 */
const { readFileSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { Script } = require('node:vm');

const file = path.resolve(process.argv[2]);
const cacheFile = `${file}.v8cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
// The bundle must not use import(): functions restored from a code cache lose the callback
// that would load the module (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING); build it with esbuild's
// `supported: { 'dynamic-import': false }`, so packages outside it are required.
const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
if (cachedData && script.cachedDataRejected) process.stderr.write(`code cache rejected: ${cacheFile}\n`);
if (process.env.SAVE_CODE_CACHE === '1') {
  // A `save` line: other lines on stdin are the bundle's own (the crash child's `go`).
  let seen = '';
  process.stdin.on('data', (d) => {
    seen += String(d);
    if (!/^save$/m.test(seen)) return;
    writeFileSync(cacheFile, script.createCachedData());
    process.exit(0);
  });
}
// The bundle sees its own arguments where a directly started script would.
process.argv.splice(1, 1);
process.argv[1] = file;
const bundle = new Module(file, null);
bundle.filename = file;
bundle.paths = Module._nodeModulePaths(path.dirname(file));
script
  .runInThisContext()
  .call(bundle.exports, bundle.exports, Module.createRequire(file), bundle, file, path.dirname(file));
