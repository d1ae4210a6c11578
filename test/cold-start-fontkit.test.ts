/**
 * The bundle's fontkit seams (scripts/bundle-seams.mjs), counted rather than timed: fontkit
 * built once as the bundle builds it (with the seams) and once as it ships, each run in its own
 * process on the engine's default face (fonts/NotoSans-Regular.ttf). Both lay out the same texts to
 * the same glyphs and positions, marks included (the mark-attachment anchors the seam decodes on
 * first read are the ones fontkit decoded up front); laying out text with no mark reads a fraction
 * of what fontkit read before (a quarter for "Ada Lovelace") (every anchor of the `mark` and `mkmk` lookups: a fifth
 * of a cold `castpress fill` of the W-9 in a CPU profile).
 */
import { createRequire } from 'node:module';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleOptions } from '../scripts/bundle.mjs';
import { asciiOfPropertiesTrie, lazyMarkArrays } from '../scripts/bundle-seams.mjs';
import { repoRoot } from './helpers/cli.js';
import { useSeamProbes } from './helpers/seam-probes.js';
/** upstream fontkit's Unicode data (a package fontkit's own dependencies bring; no types of its own). */
const unicode = createRequire(import.meta.url)('unicode-properties') as Record<
  'getCategory' | 'getCombiningClass' | 'getScript',
  (codePoint: number) => string
>;
const FONT = path.join(repoRoot, 'fonts', 'NotoSans-Regular.ttf');

/**
 * Lays out each text given as an argument (after the first, the font) in a fresh font and prints, per
 * text, the glyph ids and positions and how many numbers fontkit read from the font's stream for it.
 */
const PROBE = `
import { readFileSync } from 'node:fs';
import fontkit from '@cantoo/fontkit';
const [file, ...texts] = process.argv.slice(2);
const font = fontkit.create(readFileSync(file));
const stream = font.stream;
let reads = 0;
for (const name of ['readUInt8', 'readUInt16BE', 'readInt16BE', 'readUInt32BE', 'readInt32BE']) {
  const read = stream[name];
  stream[name] = function (...args) { reads++; return read.apply(this, args); };
}
const out = [];
for (const text of texts) {
  const before = reads;
  const run = font.layout(text);
  out.push({
    text,
    glyphs: run.glyphs.map((g) => g.id),
    positions: run.positions.map((p) => [p.xAdvance, p.yAdvance, p.xOffset, p.yOffset]),
    reads: reads - before,
  });
}
process.stdout.write(JSON.stringify(out));
`;

interface Laid {
  text: string;
  glyphs: number[];
  positions: number[][];
  reads: number;
}

const probes = useSeamProbes(PROBE, 'castpress-fontkit-seam-');

async function layOut(probe: 'seamed' | 'plain', texts: string[]): Promise<Laid[]> {
  return JSON.parse(await probes.run(probe, [FONT, ...texts])) as Laid[];
}

describe('fontkit as the bundle builds it', () => {
  it('the seam applies to the fontkit installed (no warning, six lazy anchor arrays)', async () => {
    const source = await readFile(
      path.join(repoRoot, 'node_modules', '@cantoo', 'fontkit', 'dist', 'module.mjs'),
      'utf8',
    );
    const seamed = lazyMarkArrays(source);
    expect(seamed).not.toBe(source);
    expect(seamed.match(/Array, \{ lazy: true \}\)/g)).toHaveLength(6);
  });

  it('answers code points 0-127 without the character-properties trie, with the values Unicode gives them', async () => {
    const source = await readFile(
      path.join(repoRoot, 'node_modules', '@cantoo', 'fontkit', 'dist', 'module.mjs'),
      'utf8',
    );
    const ascii = asciiOfPropertiesTrie(source);
    expect(ascii).toHaveLength(128);
    // The trie's packing (fontkit's unicode-properties data): category, combining class, script, width, number.
    const data = JSON.parse(
      /^var data_default = (\{ categories.*\});$/m.exec(source)![1]!.replace(/(\w+):/g, '"$1":'),
    ) as Record<'categories' | 'combiningClasses' | 'scripts' | 'eaw', string[]>;
    const bits = (n: number): number => (Math.log2(n) + 1) | 0;
    const [cat, ccc, script, eaw] = [data.categories, data.combiningClasses, data.scripts, data.eaw].map((l) =>
      bits(l.length - 1),
    );
    const field = (v: number, shift: number, width: number): number => (v >> shift) & ((1 << width) - 1);
    for (let cp = 0; cp < 128; cp++) {
      const v = ascii![cp]!;
      expect(
        [
          data.categories[field(v, ccc! + script! + eaw! + 10, cat!)],
          data.combiningClasses[field(v, script! + eaw! + 10, ccc!)],
          data.scripts[field(v, eaw! + 10, script!)],
        ],
        `U+${cp.toString(16)}`,
      ).toEqual([unicode.getCategory(cp), unicode.getCombiningClass(cp), unicode.getScript(cp)]);
    }
  });

  it('lays text out as fontkit does, marks included, and reads far less of the font for text with no mark', async () => {
    const texts = [
      'Ada Lovelace',
      '1234567 (W-9), #42! ~_~',
      'e\u0301 a\u0308\u0301 o\u0323\u0302 n\u0303', // marks on bases, a mark on a mark
      'Vi\u1EC7t Nam \u01FE fi ffl', // precomposed letters, ligatures
      '\u0391\u03B8\u03AE\u03BD\u03B1 \u041C\u043E\u0441\u043A\u0432\u0430 \u0439\u0306',
      'Ada Lovelace',
    ];
    const [seamed, plain] = await Promise.all([layOut('seamed', texts), layOut('plain', texts)]);
    for (let i = 0; i < texts.length; i++) {
      expect(seamed[i]!.glyphs, texts[i]).toEqual(plain[i]!.glyphs);
      expect(seamed[i]!.positions, texts[i]).toEqual(plain[i]!.positions);
    }
    // The marks were positioned (not left at zero offsets): the anchors were read when needed.
    expect(seamed[2]!.positions.some(([, , x, y]) => x !== 0 || y !== 0)).toBe(true);
    // First layout of a fresh font, no mark in the text: fontkit decodes the lookups its features name.
    expect(seamed[0]!.reads * 3).toBeLessThan(plain[0]!.reads);
  }, 300_000);

  it('a fontkit the seams do not recognise (an upgrade) fails the build instead of shipping unseamed', async () => {
    const source = await readFile(
      path.join(repoRoot, 'node_modules', '@cantoo', 'fontkit', 'dist', 'module.mjs'),
      'utf8',
    );
    // A copy of fontkit where the seams look for it, changed the way an upgrade could change it.
    const changed = {
      'no tries': source.replace(/^var (\w+) = new unicode_trie_default\(/gm, 'var $1 = makeTrie('),
      'mark lookups rewritten': source.replace(/, (MarkArray|BaseArray|LigatureArray)\)/g, ', $1, {})'),
    };
    const { plugins } = bundleOptions([], probes.dir);
    for (const [name, text] of Object.entries(changed)) {
      const file = path.join(
        probes.dir,
        name.replace(/ /g, '-'),
        'node_modules',
        '@cantoo',
        'fontkit',
        'dist',
        'module.mjs',
      );
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
      const attempt = build({
        entryPoints: [file],
        bundle: true,
        platform: 'node',
        format: 'esm',
        // fontkit's own imports stay imports: the build fails on the seams or not at all.
        packages: 'external',
        plugins,
        write: false,
        logLevel: 'silent',
      });
      await expect(attempt, name).rejects.toThrow(/the fontkit seams need updating/);
    }
    // The fontkit installed builds (useSeamProbes above built it with the same plugins).
  }, 300_000);
});
