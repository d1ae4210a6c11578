// The esbuild bundles of the entry points that start processes and threads:
// the CLI (dist/bundle/castpress.mjs, which bin/castpress.js runs when it is newer than
// every source, and the same as one CommonJS file, dist/bundle/castpress.cjs, which it runs with
// V8's code cache on Node without module.enableCompileCache) and the worker thread of batch, the queue worker and the server's render
// pool (dist/bundle/worker-entry.mjs). One file per entry plus shared chunks, all in one
// folder two levels below the package root, as src/<capability>/ is: paths the sources
// build from import.meta.url (../../package.json, ../../assets/, ./worker-entry.mjs) hold.
// Pure-JS dependencies are inlined; native, optional and file-reading packages stay in
// node_modules. `node scripts/bundle.mjs [--force] [--sourcemap]` builds them (npm run build, npm test).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seams } from './bundle-seams.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_DIR = path.join(root, 'dist', 'bundle');
/**
 * Which sources each file of dist/bundle holds, from esbuild's metafile of the same build:
 * `{ "<file>.mjs": { "<input path>": bytes in that file } }`, input paths relative to the
 * package root (`src/cli/fill.ts`, `../node_modules/zod/v4/core/core.js`, `castpress-seams:zod-locales`).
 * The bundle carries no `// path` comments (minified whitespace): test/cli-startup.test.ts and
 * test/cold-start-thread.test.ts read this to prove what a process does not compile.
 */
export const BUNDLE_INPUTS = path.join(root, 'dist', 'bundle-inputs.json');
/**
 * dist/bundle/<bundle file>.sources: the sources of the build that made that file, one path from the
 * package root a line, which bin/bundle.js stats to decide whether the file is fresh.
 */
export const sourcesFile = (name) => path.join(BUNDLE_DIR, `${name}.sources`);

/**
 * Left to node_modules: native addons (sharp, libsql, @napi-rs/canvas), packages that read their
 * own files or start their own threads and processes (playwright-core, pdfjs-dist, bullmq's Lua
 * scripts, piscina), the server's stack (fastify, graphql: one instance shared with plugins),
 * and what only a developer has (tsx, esbuild, vitest). prom-client stays out too: the server
 * loads it with import() only when it serves metrics, and a CommonJS package split into its own
 * chunk that way keeps only a default export (`prom.Registry` was undefined in the bundle).
 */
export const EXTERNAL = [
  'sharp',
  'libsql',
  '@napi-rs/canvas',
  'canvas',
  'playwright-core',
  'playwright',
  'pdfjs-dist',
  'pg',
  'pg-*',
  'ioredis',
  'bullmq',
  'piscina',
  'fastify',
  '@fastify/*',
  'graphql',
  'nodemailer',
  'prom-client',
  'tsx',
  'esbuild',
  'vitest',
];

/** esbuild options shared by the bundles here and the crash test's child (test/workflow-crash.test.ts). */
export function bundleOptions(entryPoints, outdir) {
  return {
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    // Less source for V8 to scan and pre-parse at every start: no comments or indentation (the
    // fill's 1.7 MB chunk held comments with non-ASCII characters, which also made Node decode it
    // as two-byte text) and shorter forms of the same code. A cold fill: -9 % CPU (bench/README.md,
    // fifth round). Names are kept as written (no minifyIdentifiers): stack traces read as the
    // sources do, and that measured no faster.
    minifyWhitespace: true,
    minifySyntax: true,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    external: EXTERNAL,
    plugins: [seams],
    // Inlined CommonJS packages call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __castpressRequire } from 'node:module'; const require = __castpressRequire(import.meta.url);",
    },
    logLevel: 'warning',
  };
}

/**
 * esbuild options of one CommonJS file that test/helpers/code-cache-loader.cjs runs with V8's code
 * cache (the crash test's child): Node 20's ES-module loader neither caches compiled code nor skips
 * decoding, and vm.Script's cachedData applies to a script only.
 * import() becomes require() (a function restored from a code cache has lost the callback that
 * import() needs: ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING); the ES-module-only packages outside
 * the bundle (pdfjs-dist) load through Node's require(esm). `import.meta.url` is the file's URL.
 */
export function cjsBundleOptions(entry, outfile) {
  const esm = bundleOptions([entry], '');
  return {
    entryPoints: esm.entryPoints,
    bundle: true,
    platform: esm.platform,
    target: esm.target,
    external: esm.external,
    plugins: esm.plugins,
    outfile,
    format: 'cjs',
    splitting: false,
    define: { 'import.meta.url': '__castpressImportMetaUrl' },
    banner: { js: "var __castpressImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    supported: { 'dynamic-import': false },
    // The brotli seam's require.resolve of fontkit is meant to resolve at run time.
    logLevel: 'error',
  };
}

/**
 * dist/bundle/castpress.cjs: the CLI as one CommonJS file, which bin/castpress.js runs with V8's
 * code cache (bin/code-cache.js) on Node without module.enableCompileCache. ASCII only (a file
 * with one other character is read into a two-byte string: slower to read and to compile; esbuild
 * leaves a few in regular-expression literals, written here as \u escapes, which mean the same
 * there), no `#!` line (the file is compiled as a function body), and a first line naming the
 * SHA-256 of the rest, part of the cache's key. With `only`, dist/bundle/castpress-<only>.cjs: the
 * same CLI holding that one command (the others' modules are stand-ins that throw if loaded; the
 * bin runs it for that command only). Returns esbuild's metafile of the build.
 */
async function buildCliScript(only) {
  const { build } = await import('esbuild');
  const file = path.join(BUNDLE_DIR, only ? `castpress-${only}.cjs` : 'castpress.cjs');
  const options = cjsBundleOptions(path.join(root, 'src/cli/index.ts'), file);
  const own = OWN_SCRIPT[only] ?? { inline: [], pureSources: false };
  const { metafile, outputFiles } = await build({
    ...options,
    external: options.external.filter((name) => !own.inline.includes(name)),
    plugins: only
      ? [onlyCommand(only), ...(own.pureSources ? [pureSources] : []), ...options.plugins]
      : options.plugins,
    absWorkingDir: root,
    metafile: true,
    write: false,
    charset: 'ascii',
    minifyWhitespace: true,
    minifySyntax: true,
  });
  const body = asciiOnly(outputFiles[0].text.replace(/^#!.*\n/, ''));
  const hash = createHash('sha256').update(body).digest('hex');
  await writeFile(file, `${CLI_SCRIPT_HASH}${hash}\n${body}`);
  return metafile;
}

/**
 * Commands with a CommonJS file of their own (bin/castpress.js runs it for them), as bin/bundle.js
 * names them (the bin ships without scripts/, so the list lives there). Read with Node's own require:
 * bin/ is CommonJS, whoever imports this file.
 */
export const OWN_SCRIPT_COMMANDS = createRequire(import.meta.url)('../bin/bundle.js').OWN_SCRIPT_COMMANDS;

/**
 * What a command's own file holds beyond the command (bin/bundle.js OWN_SCRIPT_COMMANDS):
 * - `inline`: packages the other bundles leave in node_modules, held here because the command loads
 *   them at every start, so that the code cache covers them too. bullmq and ioredis for `worker` (bullmq
 *   alone is 244 files required one by one otherwise, ~0.1 s of CPU at each start; it inlines its Lua
 *   and SQL scripts so that bundlers can carry it, and requires pg, which stays outside, only when it
 *   uses it). ioredis goes with it: one copy for BullMQ and the connection src/batch opens.
 * - `pureSources`: the project's own modules marked free of side effects at import (src/ has no import
 *   made for its side effects only), so esbuild leaves out those whose exports the command never uses.
 *   The worker's main thread uses a few of src/batch's exports, and src/batch/index.ts also re-exports
 *   the batch runners, with the whole engine behind them (its threads load the engine from
 *   worker-entry.mjs): 3.7 MB without the mark, 1.8 MB with it, most of that bullmq and ioredis.
 */
const OWN_SCRIPT = { worker: { inline: ['bullmq', 'ioredis'], pureSources: true } };

/** Marks each module under src/ side-effect free (see OWN_SCRIPT). */
const pureSources = {
  name: 'castpress-pure-sources',
  setup(build) {
    const src = path.join(root, 'src') + path.sep;
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData?.pureSources || !args.importer.startsWith(src)) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { pureSources: true },
      });
      if (resolved.errors.length > 0 || resolved.external || !resolved.path.startsWith(src)) return undefined;
      return { path: resolved.path, namespace: resolved.namespace, sideEffects: false };
    });
  },
};

/**
 * The modules src/cli/index.ts imports when a command runs, other than `command`'s, as stand-ins: the
 * other commands, and the engine that `--version` loads (the bin runs a command's own file for that
 * command only; `worker` has no other use for the engine in its main thread).
 */
function onlyCommand(command) {
  const index = path.join(root, 'src', 'cli', 'index.ts');
  return {
    name: 'castpress-only-command',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\/[a-z/-]+\.js$/ }, (args) =>
        args.kind === 'dynamic-import' && args.importer === index && args.path !== `./${command}.js`
          ? { path: args.path, namespace: 'castpress-other-command' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'castpress-other-command' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`castpress-${command}.cjs holds the ${command} command only, not ${args.path}`)});`,
        loader: 'js',
      }));
    },
  };
}

/**
 * `source` with every character outside ASCII written as a \u escape, which means the same character in
 * a string, a regular expression or an identifier: what esbuild's `charset: 'ascii'` leaves in regular
 * expression literals. A file with one such character is read into a two-byte string (slower to read and
 * to compile): the CLI's script above and the crash test's child.
 */
export function asciiOnly(source) {
  // eslint-disable-next-line no-control-regex
  return source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The first line of dist/bundle/castpress.cjs up to the SHA-256 of the rest (bin/code-cache.js reads it). */
export const CLI_SCRIPT_HASH = '//castpress-cli sha256=';

/**
 * Builds the bundles unless they are fresh (newer than every input, bin/bundle.js) or `force`.
 * Skipping matters besides time: `npm pack` (test/package.test.ts) runs the build while other
 * test files run processes and threads from the bundle, which must not vanish under them.
 */
export async function buildBundles(force = false, { sourcemap = false } = {}) {
  const { freshBundle } = await import('../bin/bundle.js');
  if (
    !force &&
    freshBundle('castpress.mjs') &&
    freshBundle('worker-entry.mjs') &&
    freshBundle('castpress.cjs') &&
    OWN_SCRIPT_COMMANDS.every((command) => freshBundle(`castpress-${command}.cjs`)) &&
    existsSync(BUNDLE_INPUTS)
  )
    return false;
  const { build } = await import('esbuild');
  await rm(BUNDLE_DIR, { recursive: true, force: true });
  await rm(BUNDLE_INPUTS, { force: true });
  const { metafile } = await build({
    ...bundleOptions(
      { castpress: path.join(root, 'src/cli/index.ts'), 'worker-entry': path.join(root, 'src/batch/worker.ts') },
      BUNDLE_DIR,
    ),
    absWorkingDir: root,
    metafile: true,
    // `--sourcemap`: a .map beside each file (12 MB, not built by default); `node --enable-source-maps`
    // then prints stack frames as src/ file:line instead of a minified line's column.
    ...(sourcemap ? { sourcemap: 'linked' } : {}),
  });
  const scripts = [await buildCliScript()];
  for (const command of OWN_SCRIPT_COMMANDS) scripts.push(await buildCliScript(command));
  const inputs = {};
  for (const [file, output] of Object.entries(Object.assign({}, metafile.outputs, ...scripts.map((m) => m.outputs))))
    inputs[path.basename(file)] = Object.fromEntries(
      Object.entries(output.inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput]),
    );
  // What bin/bundle.js checks a bundle against: every source of the build that made it (the
  // ES-module entries share their chunks, so each answers for all of that build's sources).
  const sources = [
    ['castpress.mjs', metafile],
    ['worker-entry.mjs', metafile],
  ];
  for (const script of scripts)
    for (const file of Object.keys(script.outputs)) sources.push([path.basename(file), script]);
  // Written after the bundle: a bundle without them is rebuilt (above), never read without them.
  for (const [name, build] of sources)
    await writeFile(
      sourcesFile(name),
      sourcesOf(build)
        .map((f) => `${f}\n`)
        .join(''),
    );
  await writeFile(BUNDLE_INPUTS, `${JSON.stringify(inputs)}\n`);
  return true;
}

/**
 * The files under src/ a build read (esbuild's metafile inputs, paths from the package root),
 * sorted: tree-shaken ones too, as a change to one may bring code into the output.
 */
function sourcesOf(metafile) {
  return Object.keys(metafile.inputs)
    .filter((input) => input.startsWith('src/'))
    .sort();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildBundles(process.argv.includes('--force'), {
    sourcemap: process.argv.includes('--sourcemap'),
  });
  if (!built) console.error('dist/bundle is newer than every source: not rebuilt (--force to rebuild)');
}
