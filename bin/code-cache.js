// Runs a CommonJS bundle of castpress (dist/bundle/castpress.cjs, scripts/bundle.mjs) with V8's
// code cache (issue 29). Node 20 has no module.enableCompileCache and its ES-module loader compiles
// every module again in every process; a vm.Script given the bytes V8 made in an earlier run skips
// parsing and compiling, including the functions that run compiled while that run worked.
//  - One cache per command (`fill` compiles other functions than `worker`), written when a process
//    that found none exits normally, as a temporary file renamed into place (a concurrent or killed
//    writer leaves no half file).
//  - Keyed by the bundle's build (its `// castpress-build <sha256>` line), Node's version and the
//    architecture; V8 also rejects a cache made with other flags: the run then compiles, as without
//    a cache, and writes a new one.
//  - Where: $CASTPRESS_CACHE_DIR, else node_modules/.cache/castpress beside the installed package,
//    or dist/code-cache in a checkout; a folder that cannot be made or written costs only the cache.
//    CASTPRESS_CODE_CACHE=0: bin/castpress.js runs the ES-module bundle instead (bench/cold-start.ts
//    compares both).
//  - Written only after a run that exits with 0: a failed run stops early and its cache would
//    hold less of what the next runs compile.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The folder of the code caches (see above). */
export function codeCacheDir(env = process.env) {
  if (env.CASTPRESS_CACHE_DIR) return path.resolve(env.CASTPRESS_CACHE_DIR);
  // A checkout: beside its build (dist/ is build output), not in a node_modules it may share.
  if (existsSync(path.join(root, 'src'))) return path.join(root, 'dist', 'code-cache');
  const parent = path.dirname(root);
  // Installed: <project>/node_modules/castpress, the cache in <project>/node_modules/.cache.
  const modules = path.basename(parent) === 'node_modules' ? parent : path.join(root, 'node_modules');
  return path.join(modules, '.cache', 'castpress');
}

/** The cache file of `bundle` (its source text) for `command` in this Node, or undefined for a bundle without a build line. */
export function codeCacheFile(source, command, dir = codeCacheDir()) {
  const build = /^\/\/ castpress-build ([0-9a-f]{16})/.exec(source)?.[1];
  if (!build) return undefined;
  const name = /^[a-z-]{1,32}$/.test(command) ? command : 'other';
  return path.join(dir, `${name}-${build}-${process.version}-${process.arch}.v8cache`);
}

function readCache(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCache(file, data) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch {
    // A read-only or full disk, a folder of another user, a file in the path: the next run compiles again.
    try {
      rmSync(temp, { force: true });
    } catch {
      // No temporary file could be made there either.
    }
  }
}

/**
 * Runs `file` (a CommonJS bundle) as node would run it as the main script, with the code cache of
 * `command`. The bundle sees process.argv as if started directly: [node, file, ...arguments].
 */
export function runWithCodeCache(file, command) {
  const source = readFileSync(file, 'utf8');
  const cacheFile = codeCacheFile(source, command);
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
    // At exit: the cache then holds the functions this run compiled, not only the top level.
    process.once('exit', (code) => {
      if (code === 0) writeCache(cacheFile, script.createCachedData());
    });
  }
  process.argv[1] = file;
  const main = new Module(file, null);
  main.filename = file;
  main.paths = Module._nodeModulePaths(path.dirname(file));
  main.loaded = true;
  const require = Module.createRequire(file);
  require.main = main;
  script.runInThisContext().call(main.exports, main.exports, require, main, file, path.dirname(file));
}
