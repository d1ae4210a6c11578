// Runs dist/bundle/castpress.cjs (the CLI as one CommonJS file, scripts/bundle.mjs) with V8's
// code cache, on Node without module.enableCompileCache (before 22.1): Node 20's ES-module
// loader parses and compiles every chunk a command loads again in every process, a large part
// of a cold `castpress fill` (bench/README.md, issue 29).
// The cache is per user ($XDG_CACHE_HOME or ~/.cache, castpress/v8/), one file whose name is a
// hash of what must match for V8's cached code to apply: the bundle's SHA-256 (its first line,
// written by the build: a new castpress is a new bundle) and length, Node's and V8's versions,
// the platform, and Node's and V8's flags. It is written after the command's work, so the
// functions compiled while working are in it, and atomically (temporary file + rename). It is
// never trusted blindly: V8 checks its own version, flags and the source's length and rejects a
// cache that does not match; the script is then compiled as it would be without one, and the
// cache is written again. A cache folder that cannot be made, read or written only costs time.
// CommonJS, as all of bin/ (bin/package.json, bin/castpress.js).
'use strict';
const { createHash } = require('node:crypto');
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { homedir } = require('node:os');
const path = require('node:path');
const { Script } = require('node:vm');

/** How long a cache of another build of the same command is kept after it was written. */
const CACHE_KEPT_MS = 7 * 24 * 3600 * 1000;

/** The per-user folder of castpress's code caches, or undefined without a home to hold it. */
function cacheFolder(env = process.env) {
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME))
    return path.join(env.XDG_CACHE_HOME, 'castpress', 'v8');
  try {
    const home = homedir();
    return home ? path.join(home, '.cache', 'castpress', 'v8') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cache file's name for `command` run from a bundle whose first line is `firstLine`, `length`
 * bytes long, in this process. One cache per command: each holds the functions its command
 * compiled (a cache written by one command would be accepted, and not rewritten, by the others).
 */
function cacheName(command, firstLine, length) {
  const key = createHash('sha256')
    .update([firstLine, length, process.version, process.versions.v8, process.platform, process.arch].join('\0'))
    .update(`\0${process.execArgv.join(' ')}\0${process.env.NODE_OPTIONS ?? ''}`)
    .digest('hex');
  return `cli-${command}-${key.slice(0, 32)}.v8cache`;
}

function readOrUndefined(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes the cache whole or not at all (temporary file + rename), and drops the command's caches
 * of other builds written over a week ago.
 */
function writeCache(folder, command, name, data) {
  const temp = path.join(folder, `.${name}.${process.pid}.tmp`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, path.join(folder, name));
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // No folder to hold it (a path through a file): nothing was written.
    }
    return false;
  }
  try {
    // Other builds' caches of the command, unless one was written lately: two castpress installs (or
    // Node versions) in use side by side would otherwise delete each other's cache at every run.
    const stale = Date.now() - CACHE_KEPT_MS;
    for (const old of readdirSync(folder)) {
      if (old === name || !old.startsWith(`cli-${command}-`) || !/^cli-[a-z-]+-[0-9a-f]{32}\.v8cache$/.test(old))
        continue;
      const file = path.join(folder, old);
      if (statSync(file).mtimeMs < stale) rmSync(file, { force: true });
    }
  } catch {
    // Another process's clean-up got there first: nothing is lost.
  }
  return true;
}

/**
 * Runs the CommonJS bundle `file` for `command` (a name of lowercase letters and dashes), compiled
 * with the code cache when there is a usable one, and returns its exports and `save()`, to call once the command has done its work: it writes the
 * cache when there was none or V8 rejected it, and says whether it wrote one.
 */
function loadWithCodeCache(file, command) {
  const bytes = readFileSync(file);
  const folder = cacheFolder();
  const newline = bytes.indexOf(10);
  const name = folder
    ? cacheName(command, bytes.subarray(0, Math.max(newline, 0)).toString('latin1'), bytes.length)
    : undefined;
  const cachedData = name ? readOrUndefined(path.join(folder, name)) : undefined;
  // ASCII only (scripts/bundle.mjs): read as latin1, the one-byte string V8 reads fastest.
  const script = new Script(Module.wrap(bytes.toString('latin1')), { filename: file, cachedData });
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  const bundle = new Module(file, null);
  bundle.filename = file;
  bundle.paths = Module._nodeModulePaths(path.dirname(file));
  // In require's cache as a required file would be (a module list, test/helpers/module-log.mjs, sees it).
  Module._cache[file] = bundle;
  script
    .runInThisContext()
    .call(bundle.exports, bundle.exports, Module.createRequire(file), bundle, file, path.dirname(file));
  bundle.loaded = true;
  return {
    exports: bundle.exports,
    save: () => (stale && name ? writeCache(folder, command, name, script.createCachedData()) : false),
  };
}

module.exports = { cacheFolder, cacheName, loadWithCodeCache };
