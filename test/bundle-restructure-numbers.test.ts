/**
 * The bundle's seam on restructure's number types (scripts/bundle-seams.mjs `numberMethodNames`, issue
 * 29): restructure, fontkit's binary reader, built as the bundle builds it and as it ships, each run in
 * its own process. The seamed one names each type's stream methods once, when the type is made; both
 * read and write every number type alike, and fontkit on top of them lays out text to the same glyphs
 * and positions and writes the same subset font bytes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { numberMethodNames } from '../scripts/bundle-seams.mjs';
import { repoRoot } from './helpers/cli.js';
import { useSeamProbes } from './helpers/seam-probes.js';

const NUMBER_JS = path.join(repoRoot, 'node_modules', 'restructure', 'src', 'Number.js');
const FONT = path.join(repoRoot, 'fonts', 'NotoSans-Regular.ttf');

/**
 * Prints, for every number type restructure exports, its method names and what it reads from fixed
 * bytes and writes back; then fontkit's layout of a few texts and the SHA-256 of their subset font.
 */
const PROBE = `
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as r from 'restructure';
import fontkit from '@cantoo/fontkit';
const bytes = Buffer.from(Array.from({ length: 16 }, (_, i) => (i * 37 + 200) & 255));
const numbers = Object.keys(r).filter((name) => r[name] instanceof r.Number).sort().map((name) => {
  const type = r[name];
  const stream = new r.DecodeStream(bytes);
  const read = [type.decode(stream), type.decode(stream)];
  const written = read.map((value) => Buffer.from(type.toBuffer(value)).toString('hex'));
  return { name, methods: [type.readMethod, type.writeMethod], read, written };
});
const font = fontkit.create(readFileSync(process.argv[2]));
const subset = font.createSubset();
const layout = ['Ada Lovelace', '1234567 (W-9), #42!', 'e\\u0301 o\\u0323\\u0302 fi ffl', '\\u0391\\u03B8\\u03AE\\u03BD\\u03B1'].map((text) => {
  const run = font.layout(text);
  for (const glyph of run.glyphs) subset.includeGlyph(glyph);
  return { glyphs: run.glyphs.map((g) => g.id), positions: run.positions.map((p) => [p.xAdvance, p.yAdvance, p.xOffset, p.yOffset]) };
});
const subsetSha = createHash('sha256').update(subset.encode()).digest('hex');
process.stdout.write(JSON.stringify({ numbers, layout, subsetSha }));
`;

interface Probe {
  numbers: { name: string; methods: (string | null)[]; read: number[]; written: string[] }[];
  layout: { glyphs: number[]; positions: number[][] }[];
  subsetSha: string;
}

const probes = useSeamProbes(PROBE, 'castpress-restructure-seam-');

async function probe(which: 'seamed' | 'plain'): Promise<Probe> {
  return JSON.parse(await probes.run(which, [FONT])) as Probe;
}

describe("restructure's number types as the bundle builds them", () => {
  it('the seam applies to the restructure installed, and refuses a source it does not recognise', async () => {
    const source = await readFile(NUMBER_JS, 'utf8');
    const seamed = numberMethodNames(source);
    expect(seamed).toMatch(/return stream\[this\.readMethod\]\(\);/);
    expect(seamed).toMatch(/return stream\[this\.writeMethod\]\(val\);/);
    expect(seamed).not.toMatch(/`read\$\{this\.fn\}`\]\(\)/);
    // Changed the ways an upgrade could change it: the name built elsewhere, or the method read otherwise.
    expect(numberMethodNames(source.replace('this.fn += this.endian;', 'this.fn = this.type + this.endian;'))).toBe(
      undefined,
    );
    expect(numberMethodNames(source.replace('return stream[`read${this.fn}`]();', 'return this.read(stream);'))).toBe(
      undefined,
    );
    expect(numberMethodNames(source.replace('(val);', '(val, this.endian);'))).toBeUndefined();
  });

  it('names the methods once per type, and reads, writes and lays out as restructure and fontkit do', async () => {
    const [seamed, plain] = await Promise.all([probe('seamed'), probe('plain')]);
    // Every 8-, 16-, 24- and 32-bit integer, float and double type, both byte orders, and the fixed-point types.
    expect(seamed.numbers.length).toBeGreaterThanOrEqual(26);
    for (const n of seamed.numbers) {
      const fn = n.methods[0]?.replace(/^read/, '');
      expect(n.methods, n.name).toEqual([`read${fn}`, `write${fn}`]);
      expect(fn, n.name).toMatch(/^(U?Int(8|(16|24|32)(BE|LE))|(Float|Double)(BE|LE))$/);
    }
    // JSON writes the plain types' missing names as null.
    expect(plain.numbers.every((n) => n.methods.every((m) => m === null))).toBe(true);
    const values = (p: Probe) => p.numbers.map(({ name, read, written }) => ({ name, read, written }));
    expect(values(seamed)).toEqual(values(plain));
    expect(seamed.layout).toEqual(plain.layout);
    expect(seamed.layout[0]!.glyphs).toHaveLength(12);
    expect(seamed.subsetSha).toBe(plain.subsetSha);
  });
});
