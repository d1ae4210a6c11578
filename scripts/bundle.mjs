// The esbuild bundles of the entry points that start processes and threads (issue 29):
// the CLI (dist/bundle/castpress.mjs, which bin/castpress.js runs when it is newer than
// every source, and the same as one CommonJS file, dist/bundle/castpress.cjs, which it runs with
// V8's code cache on Node without module.enableCompileCache) and the worker thread of batch, the queue worker and the server's render
// pool (dist/bundle/worker-entry.mjs). One file per entry plus shared chunks, all in one
// folder two levels below the package root, as src/<capability>/ is: paths the sources
// build from import.meta.url (../../package.json, ../../assets/, ./worker-entry.mjs) hold.
// Pure-JS dependencies are inlined; native, optional and file-reading packages stay in
// node_modules. `node scripts/bundle.mjs [--force] [--sourcemap]` builds them (npm run build, npm test).
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

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

/**
 * - src/pdf/pdf-lib-crypto.ts becomes a plain import of pdf-lib's crypto module, the same file
 *   the bundle's pdf-lib is made of (by file URL from node_modules it would be a second pdf-lib);
 * - fontkit's brotli decoder (WOFF2 only: 1.4 MB of code and a dictionary decoded when it is
 *   imported) is left out of the bundle and required from node_modules, beside fontkit as fontkit
 *   itself would, on the first WOFF2 font.
 * - fontkit builds four Unicode tries when it is imported (character properties, and the Arabic,
 *   Indic and Universal shapers' tables; a sixth of the top-level code a cold \`castpress fill\` ran):
 *   each becomes an object whose get() builds it on first use, as fontkit only ever calls get().
 * - html-entities, which pdf-lib (XMP, form XFA) and its HTML parser import, builds its tables of
 *   named references when it is imported (a profile of \`castpress fill\` showed it): in a bundle it is
 *   a stand-in whose encode/decode require it from node_modules on first call.
 * - zod's \`z.locales\` (every language's error messages, half of zod's code: the bundle compiled it
 *   in every process) holds only \`en\`, the locale zod configures itself with; the project sets
 *   its own messages (src/schema/issues.ts) and names no other locale.
 * - pdf-lib's standard-font encodings (Symbol, ZapfDingbats, WinAnsi) are inflated and parsed from
 *   JSON when pdf-lib is imported, and its text extraction builds a reverse WinAnsi table from them
 *   then too: 3–4 ms of a cold \`castpress fill\` in a CPU profile, while only text drawn in or read
 *   from one of the standard 14 fonts uses them. Both are built on first read.
 */
const seams = {
  name: 'castpress-seams',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]pdf[\\/]pdf-lib-crypto\.ts$/ }, async (args) => {
      const main = await build.resolve('@cantoo/pdf-lib', {
        kind: 'import-statement',
        resolveDir: path.dirname(args.path),
      });
      if (main.errors.length > 0) return { errors: main.errors };
      const crypto = path.join(path.dirname(realpathSync(main.path)), 'core', 'crypto.js');
      return {
        contents: `export const importPdfLibCrypto = () => import(${JSON.stringify(crypto)});`,
        loader: 'js',
        resolveDir: path.dirname(args.path),
      };
    });
    build.onLoad({ filter: /[\\/]@cantoo[\\/]fontkit[\\/]dist[\\/]module\.mjs$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const tries = /^var (\w+) = new unicode_trie_default\((.+)\);$/gm;
      const count = source.match(tries)?.length ?? 0;
      // A fontkit these seams no longer recognise (an upgrade) fails the build, loudly: shipping
      // it unseamed would silently bring back a fifth of a cold fill (issue 29). Update the seams.
      const missed = (what) => ({
        errors: [{ text: `scripts/bundle.mjs: ${what}: the fontkit seams need updating for this fontkit` }],
      });
      if (count !== 4) return missed(`fontkit holds ${count} top-level Unicode tries, not 4`);
      const ascii = asciiOfPropertiesTrie(source);
      if (!ascii) return missed("fontkit's Unicode properties trie does not read as expected");
      const lazy = source.replace(tries, (_, name, data) =>
        name === 'trie'
          ? `var ${name} = { ascii: ${JSON.stringify(ascii)}, get(codePoint) { return codePoint >= 0 && codePoint < 128 ? this.ascii[codePoint] : (this.trie ??= new unicode_trie_default(${data})).get(codePoint); } };`
          : `var ${name} = { get(codePoint) { return (this.trie ??= new unicode_trie_default(${data})).get(codePoint); } };`,
      );
      const seamed = lazyMarkArrays(lazy);
      if (seamed === lazy) return missed("fontkit's mark-attachment lookups do not read as expected");
      return { contents: seamed, loader: 'js', resolveDir: path.dirname(args.path) };
    });
    // A pdf-lib file rewritten by `transform`; one it no longer recognises (an upgrade) fails the build.
    const rewritten = (filter, transform, what) =>
      build.onLoad({ filter }, async (args) => {
        const seamed = transform(await readFile(args.path, 'utf8'));
        if (!seamed)
          return { errors: [{ text: `scripts/bundle.mjs: ${what} does not read as expected: update its seam` }] };
        return { contents: seamed, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    rewritten(
      /[\\/]@cantoo[\\/]pdf-lib[\\/]es[\\/]packages[\\/]standard-fonts[\\/]Encoding\.js$/,
      lazyEncodings,
      "pdf-lib's Encoding.js",
    );
    rewritten(
      /[\\/]@cantoo[\\/]pdf-lib[\\/]es[\\/]api[\\/]extraction[\\/]FontDecoder\.js$/,
      lazyWinAnsiReverse,
      "pdf-lib's FontDecoder.js",
    );
    build.onResolve({ filter: /^html-entities$/ }, (args) => ({
      path: 'lazy-html-entities',
      namespace: 'castpress-seams',
      pluginData: args.resolveDir,
    }));
    build.onLoad({ filter: /^lazy-html-entities$/, namespace: 'castpress-seams' }, (args) => ({
      contents: [
        "import { createRequire } from 'node:module';",
        'let entities;',
        "const load = () => (entities ??= createRequire(require.resolve('@cantoo/pdf-lib'))('html-entities'));",
        'export function encode(...args) { return load().encode(...args); }',
        'export function decode(...args) { return load().decode(...args); }',
        'export function decodeEntity(...args) { return load().decodeEntity(...args); }',
      ].join('\n'),
      loader: 'js',
      resolveDir: args.pluginData,
    }));
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)$/.test(args.resolveDir)
        ? { path: 'zod-locales', namespace: 'castpress-seams', pluginData: path.join(args.resolveDir, '..', 'locales') }
        : undefined,
    );
    build.onLoad({ filter: /^zod-locales$/, namespace: 'castpress-seams' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      loader: 'js',
      resolveDir: args.pluginData,
    }));
    build.onResolve({ filter: /^brotli\/decompress(\.js)?$/ }, (args) => ({
      path: 'lazy-brotli',
      namespace: 'castpress-seams',
      pluginData: args.resolveDir,
    }));
    build.onLoad({ filter: /^lazy-brotli$/, namespace: 'castpress-seams' }, (args) => ({
      contents: [
        "import { createRequire } from 'node:module';",
        'let decode;',
        "export default function brotliDecompress(...args) { decode ??= createRequire(require.resolve('@cantoo/fontkit'))('brotli/decompress.js'); return decode(...args); }",
      ].join('\n'),
      loader: 'js',
      resolveDir: args.pluginData,
    }));
  },
};

/**
 * The values of fontkit's Unicode character-properties trie (category, combining class, script,
 * packed in one number) for code points 0-127, read here from the trie's data as
 * unicode-trie reads it: text that is all ASCII (a W-9's names and numbers) is shaped without
 * building the trie (inflating 30 KB, a tenth of a cold fill's layout). Undefined if the
 * source does not hold the trie as expected (with a warning; the bundle build then fails).
 */
export function asciiOfPropertiesTrie(source) {
  const base64 = /^var data_trie_default = "([A-Za-z0-9+/=]+)";$/m.exec(source)?.[1];
  if (!/^var trie = new unicode_trie_default\(decodeBase642\(data_trie_default\)\);$/m.test(source) || !base64) {
    console.warn(
      "scripts/bundle.mjs: fontkit's Unicode properties trie does not read as expected: built on first use for every code point",
    );
    return undefined;
  }
  return asciiOfTrie(Buffer.from(base64, 'base64'));
}

/** Code points 0-127 of a serialised UnicodeTrie (header: highStart, errorValue, length; raw deflate of 32-bit words). */
export function asciiOfTrie(bytes) {
  const words = inflateRawSync(bytes.subarray(12));
  const word = (i) => words.readUInt32LE(4 * i);
  // A BMP code point's value: index block (code point >> 5), shifted by 2, plus its offset in the block.
  return Array.from({ length: 128 }, (_, cp) => word((word(cp >> 5) << 2) + (cp & 31)));
}

/**
 * fontkit decodes a GPOS lookup whole the first time a feature names it, and a mark-attachment
 * lookup (MarkToBase, MarkToLigature, MarkToMark) holds an anchor per base glyph per mark class:
 * Noto Sans's `mark` feature made a cold W-9 fill decode ~200 ms of anchors for text with no
 * mark in it (a CPU profile, issue 29). Here the five anchor arrays become lazy pointers
 * (restructure decodes them, with the same parent, on first read), and the lookup checks they
 * exist only once a mark and its base are found in the coverage tables, instead of first: the
 * checks between are pure, so the result of every lookup is the same. If fontkit's source no
 * longer reads as expected, it is returned as it is (with a warning; the bundle build then fails).
 */
export function lazyMarkArrays(source) {
  const pointers =
    /((?:mark|base|ligature|mark1|mark2)Array): new (\w+)\.Pointer\((\w+)\.uint16, (MarkArray|BaseArray|LigatureArray)\)/g;
  const guards = [
    ['t.markCoverage || !t.baseCoverage', 't.markArray', 't.baseArray', 'if (baseIndex === -1) return false;'],
    ['t.markCoverage || !t.ligatureCoverage', 't.markArray', 't.ligatureArray', 'if (ligIndex === -1) return false;'],
    ['t.mark1Coverage || !t.mark2Coverage', 't.mark1Array', 't.mark2Array', 'if (mark2Index === -1) return false;'],
  ];
  const once = (text, part) => text.split(part).length === 2;
  if (
    source.match(pointers)?.length !== 6 ||
    !guards.every(([c, a, b, use]) => once(source, `if (!${c} || !${a} || !${b}) return false;`) && once(source, use))
  ) {
    console.warn(
      "scripts/bundle.mjs: fontkit's mark-attachment lookups do not read as expected: their anchors are decoded whole",
    );
    return source;
  }
  let out = source.replace(
    pointers,
    (_, field, r, r2, type) => `${field}: new ${r}.Pointer(${r2}.uint16, ${type}, { lazy: true })`,
  );
  for (const [c, a, b, use] of guards) {
    out = out.replace(`if (!${c} || !${a} || !${b}) return false;`, `if (!${c}) return false;`);
    out = out.replace(use, `${use}\n        if (!${a} || !${b}) return false;`);
  }
  return out;
}

/**
 * pdf-lib's standard-fonts/Encoding.js with its three encodings built on first read instead of when
 * the module is evaluated: \`Encodings\` keeps its keys, and each reads the same Encoding object every
 * time (the first read of any builds all three, from the same JSON as before). Undefined if the
 * source does not read as expected (the bundle build then fails).
 */
export function lazyEncodings(source) {
  const eager =
    /^const decompressedEncodings = decompressJson\(AllEncodingsCompressed\);\r?\nconst allUnicodeMappings = JSON\.parse\(decompressedEncodings\);$/m;
  const literal = /^export const Encodings = (\{[^}]*\});$/m;
  const body = literal.exec(source)?.[1];
  const keys = body ? [...body.matchAll(/^\s*(\w+): new Encoding\(/gm)].map((m) => m[1]) : [];
  if (!eager.test(source) || !body || keys.length !== 3 || (body.match(/new Encoding\(/g) ?? []).length !== 3)
    return undefined;
  const getters = keys.map((key) => `    get ${key}() { return (built ??= build()).${key}; },`);
  return source
    .replace(eager, 'let allUnicodeMappings;')
    .replace(
      literal,
      [
        'let built;',
        'const build = () => {',
        '    allUnicodeMappings = JSON.parse(decompressJson(AllEncodingsCompressed));',
        `    return ${body};`,
        '};',
        'export const Encodings = {',
        ...getters,
        '};',
      ].join('\n'),
    );
}

/**
 * pdf-lib's api/extraction/FontDecoder.js with its reverse WinAnsi table (code to code point, read from
 * the WinAnsi encoding) built on first use instead of when the module is evaluated, which read the
 * encodings too. Every use gets the same table. Undefined if the source does not read as expected.
 */
export function lazyWinAnsiReverse(source) {
  const start = 'const winAnsiReverse = (() => {';
  const uses = source.split('return winAnsiReverse;').length - 1;
  const at = source.indexOf(start);
  const end = at < 0 ? -1 : source.indexOf('\n})();', at);
  if (at < 0 || source.indexOf(start, at + 1) >= 0 || end < 0 || uses < 1) return undefined;
  const out =
    source.slice(0, at) +
    'let winAnsiReverseBuilt;\nconst winAnsiReverseOf = () => (winAnsiReverseBuilt ??= (() => {' +
    source.slice(at + start.length, end) +
    '\n})());' +
    source.slice(end + '\n})();'.length);
  const seamed = out.split('return winAnsiReverse;').join('return winAnsiReverseOf();');
  // Nothing else may read the table by its old name.
  return /\bwinAnsiReverse\b/.test(seamed) ? undefined : seamed;
}

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
 * bin runs it for that command only). Returns esbuild's metafile outputs.
 */
async function buildCliScript(only) {
  const { build } = await import('esbuild');
  const file = path.join(BUNDLE_DIR, only ? `castpress-${only}.cjs` : 'castpress.cjs');
  const options = cjsBundleOptions(path.join(root, 'src/cli/index.ts'), file);
  const { metafile, outputFiles } = await build({
    ...options,
    plugins: only ? [...options.plugins, onlyCommand(only)] : options.plugins,
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
  return metafile.outputs;
}

/**
 * Commands with a CommonJS file of their own (bin/castpress.js runs it for them), as bin/bundle.js
 * names them (the bin ships without scripts/, so the list lives there). Read with Node's own require:
 * bin/ is CommonJS, whoever imports this file.
 */
export const OWN_SCRIPT_COMMANDS = createRequire(import.meta.url)('../bin/bundle.js').OWN_SCRIPT_COMMANDS;

/** The modules src/cli/index.ts imports when a command runs, other than `command`'s, as stand-ins. */
function onlyCommand(command) {
  const index = path.join(root, 'src', 'cli', 'index.ts');
  return {
    name: 'castpress-only-command',
    setup(build) {
      build.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) =>
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
  let cjs = await buildCliScript();
  for (const command of OWN_SCRIPT_COMMANDS) cjs = { ...cjs, ...(await buildCliScript(command)) };
  const inputs = {};
  for (const [file, output] of Object.entries({ ...metafile.outputs, ...cjs }))
    inputs[path.basename(file)] = Object.fromEntries(
      Object.entries(output.inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput]),
    );
  // Written after the bundle: a bundle without it is rebuilt (above), never read without it.
  await writeFile(BUNDLE_INPUTS, `${JSON.stringify(inputs)}\n`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildBundles(process.argv.includes('--force'), {
    sourcemap: process.argv.includes('--sourcemap'),
  });
  if (!built) console.error('dist/bundle is newer than every source: not rebuilt (--force to rebuild)');
}
