// The bundles' seams: esbuild load hooks that change, in the bundle only, what a
// dependency does when it is imported or first used, never what it answers. Each rewrite checks
// that the source reads as expected and fails the build when it does not (an upgrade changed it):
// shipping it unseamed would silently bring back the cost it removes. scripts/bundle.mjs applies
// them to every bundle; test/helpers/seam-probes.ts builds a probe with and without them.
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';

/**
 * What the seams change:
 * - src/pdf/parse/pdf-lib-crypto.ts becomes a plain import of pdf-lib's crypto module, the same file
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
 * - restructure, fontkit's binary reader, named the stream method of every number it read or wrote
 *   with a template string built at each call (`stream[`read${this.fn}`]()`): a new string, looked
 *   up in V8's string table every time, for each of the thousands of numbers a cold fill decodes
 *   from a font's tables (GPOS, GDEF, hmtx, loca). The names are built once per number type.
 */
export const seams = {
  name: 'castpress-seams',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]pdf[\\/](?:[^\\/]+[\\/])*pdf-lib-crypto\.ts$/ }, async (args) => {
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
      // it unseamed would silently bring back a fifth of a cold fill. Update the seams.
      const missed = (what) => ({
        errors: [{ text: `scripts/bundle-seams.mjs: ${what}: the fontkit seams need updating for this fontkit` }],
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
    // A dependency's file rewritten by `transform`; one it no longer recognises (an upgrade) fails the build.
    const rewritten = (filter, transform, what) =>
      build.onLoad({ filter }, async (args) => {
        const seamed = transform(await readFile(args.path, 'utf8'));
        if (!seamed)
          return { errors: [{ text: `scripts/bundle-seams.mjs: ${what} does not read as expected: update its seam` }] };
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
    rewritten(/[\\/]restructure[\\/]src[\\/]Number\.js$/, numberMethodNames, "restructure's Number.js");
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
      "scripts/bundle-seams.mjs: fontkit's Unicode properties trie does not read as expected: built on first use for every code point",
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
 * mark in it (a CPU profile). Here the five anchor arrays become lazy pointers
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
      "scripts/bundle-seams.mjs: fontkit's mark-attachment lookups do not read as expected: their anchors are decoded whole",
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

/**
 * restructure's src/Number.js with the names of the stream methods a number type reads and writes
 * with (`readUInt16BE`, `writeInt32LE`…) built once, when the type is made, instead of at every
 * read and write: the same method is called with the same arguments. Undefined if the source does
 * not read as expected.
 */
export function numberMethodNames(source) {
  const read = 'return stream[`read${this.fn}`]();';
  const write = 'return stream[`write${this.fn}`](val);';
  const named =
    /^( *)if \(this\.type\[this\.type\.length - 1\] !== '8'\) \{\r?\n *this\.fn \+= this\.endian;\r?\n *\}$/m;
  const once = (part) => source.split(part).length === 2;
  if (!once(read) || !once(write) || (source.match(new RegExp(named.source, 'gm')) ?? []).length !== 1)
    return undefined;
  return source
    .replace(
      named,
      (block, indent) =>
        `${block}\n${indent}// Built once (scripts/bundle-seams.mjs): a name built at each call is looked up anew.\n` +
        `${indent}this.readMethod = \`read\${this.fn}\`;\n${indent}this.writeMethod = \`write\${this.fn}\`;`,
    )
    .replace(read, 'return stream[this.readMethod]();')
    .replace(write, 'return stream[this.writeMethod](val);');
}
