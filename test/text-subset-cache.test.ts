import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  rgb,
} from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { FontRegistry } from '../src/fonts/index.js';
import { SubsetCache, TextSetter, type TextStyle } from '../src/text/index.js';
import { field, template } from './fixtures/fill/templates.js';
import { pageText, qpdfCheck, readText } from './helpers/pdf.js';

const style: TextStyle = { fontFamily: 'Noto Sans', fontWeight: 'normal', fontSize: 12 };
const black = rgb(0, 0, 0);

let registry: FontRegistry;
beforeAll(() => {
  registry = new FontRegistry({ systemDirectories: [] });
});

/** A one-line document drawn through `cache`, not yet saved. */
async function draft(
  lines: string[],
  cache?: SubsetCache,
  s: TextStyle = style,
): Promise<{ doc: PDFDocument; setter: TextSetter; draw(text: string, y: number): void }> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([500, 60 + 20 * lines.length]);
  const setter = new TextSetter(doc, registry, { subsets: cache });
  const draw = (text: string, y: number): void => {
    setter.drawText(page, text, 10, y, s, black);
  };
  lines.forEach((text, i) => draw(text, 40 + 20 * i));
  return { doc, setter, draw };
}

async function written(lines: string[], cache?: SubsetCache, s?: TextStyle): Promise<Uint8Array> {
  const { doc } = await draft(lines, cache, s);
  return doc.save();
}

/** Every embedded font program (FontFile2/FontFile3), as the compressed bytes stored in the file. */
async function fontPrograms(bytes: Uint8Array): Promise<Uint8Array[]> {
  const doc = await PDFDocument.load(bytes);
  const out: Uint8Array[] = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.get(PDFName.of('Type')) !== PDFName.of('FontDescriptor')) continue;
    const ref = obj.get(PDFName.of('FontFile2')) ?? obj.get(PDFName.of('FontFile3'));
    const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : undefined;
    if (stream instanceof PDFRawStream) out.push(stream.getContents());
  }
  return out;
}

/** The glyph codes shown on page 1, in content order (hex strings of the TJ arrays joined). */
async function shownCodes(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const contents = doc.getPage(0).node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
  let text = '';
  for (const s of streams)
    if (s instanceof PDFRawStream) text += new TextDecoder('latin1').decode(decodePDFRawStream(s).decode());
  const codes: string[] = [];
  for (const [, array] of text.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    for (const [, hex] of array.matchAll(/<([0-9a-f]*)>/gi)) codes.push(...(hex.match(/.{4}/g) ?? []));
  }
  return codes;
}

async function lineTexts(bytes: Uint8Array): Promise<string[]> {
  return (await pageText(bytes))[0].split('\n');
}

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

describe('SubsetCache: font subsets shared by the documents of one engine', () => {
  it('two documents with the same glyphs share one encoded subset and its glyph ids; new glyphs grow it', async () => {
    const cache = new SubsetCache();
    const one = await written(['Hello world'], cache);
    expect(cache.stats).toEqual({ encodes: 1, reuses: 0, uncached: 0 });
    const two = await written(['world Hello'], cache);
    expect(cache.stats).toEqual({ encodes: 1, reuses: 1, uncached: 0 });

    const [p1] = await fontPrograms(one);
    const [p2] = await fontPrograms(two);
    expect(same(p1, p2)).toBe(true);
    // Same glyph, same code, although the second document uses them in another order.
    const c1 = await shownCodes(one);
    const c2 = await shownCodes(two);
    expect(c1).toHaveLength(11);
    expect(c2).toEqual([...c1.slice(6), c1[5], ...c1.slice(0, 5)]);

    const three = await written(['Hello there, wide world!'], cache);
    expect(cache.stats).toEqual({ encodes: 2, reuses: 1, uncached: 0 });
    const [p3] = await fontPrograms(three);
    expect(p3.length).toBeGreaterThan(p1.length);
    const c3 = await shownCodes(three);
    expect(c3.slice(0, 6)).toEqual(c1.slice(0, 6)); // 'Hello ' keeps its ids in the grown subset

    // The grown subset serves the earlier glyph sets too.
    const four = await written(['Hello'], cache);
    expect(cache.stats).toEqual({ encodes: 2, reuses: 2, uncached: 0 });
    expect(same((await fontPrograms(four))[0], p3)).toBe(true);

    expect(await lineTexts(one)).toEqual(['Hello world']);
    expect(await lineTexts(two)).toEqual(['world Hello']);
    expect(await lineTexts(three)).toEqual(['Hello there, wide world!']);
    expect(await lineTexts(four)).toEqual(['Hello']);
    for (const bytes of [one, two, three, four]) await qpdfCheck(bytes);
  });

  it('without a cache a document embeds exactly its own glyphs, in first-use order', async () => {
    const bytes = await written(['Hello world']);
    expect(await shownCodes(bytes)).toEqual([
      '0001',
      '0002',
      '0003',
      '0003',
      '0004',
      '0005',
      '0006',
      '0004',
      '0007',
      '0003',
      '0008',
    ]);
    expect(await lineTexts(bytes)).toEqual(['Hello world']);
  });

  it('a document using few glyphs does not take a much larger subset', async () => {
    const cache = new SubsetCache();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789 .,;:!?()-+=/';
    const big = await written([alphabet], cache);
    const small = await written(['Hi'], cache);
    expect(cache.stats).toEqual({ encodes: 2, reuses: 0, uncached: 0 });
    const [pb] = await fontPrograms(big);
    const [ps] = await fontPrograms(small);
    expect(ps.length).toBeLessThan(pb.length / 2);
    // ...but one within its spare glyphs does.
    await written(['Hi there'], cache);
    expect(cache.stats.reuses).toBe(0); // grows 'Hi' rather than take the 80-glyph subset
    await written(['the'], cache);
    expect(cache.stats.reuses).toBe(1);
    expect(await lineTexts(big)).toEqual([alphabet]);
    expect(await lineTexts(small)).toEqual(['Hi']);
  });

  it('over maxGlyphs a document gets a subset of its own, not kept', async () => {
    const cache = new SubsetCache({ maxGlyphs: 8 });
    const a = await written(['The quick brown fox'], cache);
    const b = await written(['The quick brown fox'], cache);
    expect(cache.stats).toEqual({ encodes: 0, reuses: 0, uncached: 2 });
    await written(['Hi'], cache);
    await written(['Hi'], cache);
    expect(cache.stats).toEqual({ encodes: 1, reuses: 1, uncached: 2 });
    expect(await lineTexts(a)).toEqual(['The quick brown fox']);
    expect(await lineTexts(b)).toEqual(['The quick brown fox']);
    expect(await shownCodes(a)).toEqual(await shownCodes(await written(['The quick brown fox'])));
  });

  it('right-to-left text and ligatures read back the same from a shared subset', async () => {
    const cache = new SubsetCache();
    const texts = ['لا سلام مُحَمَّد', 'שלום עולם זה טקסט בעברית', 'لا سلام'];
    const outputs: Uint8Array[] = [];
    for (const t of texts) outputs.push(await written([t], cache));
    // Arabic face, Hebrew face; the second Arabic line reuses the first one's subset.
    expect(cache.stats).toEqual({ encodes: 2, reuses: 1, uncached: 0 });
    for (const [i, bytes] of outputs.entries()) {
      const [page] = await readText(bytes);
      expect(page.items.map((it) => it.str).join('')).toBe(texts[i]);
      await qpdfCheck(bytes);
    }
  });

  it('documents written concurrently keep the subset they chose', async () => {
    const cache = new SubsetCache();
    // A is drawn first but written last; B and C grow the subset in between.
    const a = await draft(['alpha beta'], cache);
    const b = await draft(['alpha beta gamma'], cache);
    const c = await draft(['ALPHA BETA GAMMA delta 123'], cache);
    const bBytes = await b.doc.save();
    a.draw('more text for A after B was written: xyz', 60);
    const [cBytes, aBytes] = await Promise.all([c.doc.save(), a.doc.save()]);
    expect(await lineTexts(aBytes)).toEqual(['alpha beta', 'more text for A after B was written: xyz']);
    expect(await lineTexts(bBytes)).toEqual(['alpha beta gamma']);
    expect(await lineTexts(cBytes)).toEqual(['ALPHA BETA GAMMA delta 123']);
    expect(cache.stats.encodes + cache.stats.reuses).toBe(3);
    for (const bytes of [aBytes, bBytes, cBytes]) await qpdfCheck(bytes);
  });
});

describe('SubsetCache in the fill engine', () => {
  const engine = createEngine();
  afterAll(() => engine.close());

  it('interleaved fills on one engine each read back their own values', async () => {
    const f = field('shortText', { id: 'name', alias: 'name', rect: { x: 72, y: 100, width: 400, height: 20 } });
    const t = await template([f]);
    const values = [
      'Ada Lovelace',
      'Grace Hopper',
      'Émilie du Châtelet',
      'Ada',
      'Σοφία Κοβαλέφσκαγια',
      'Katherine Johnson 1918',
      'Ada Lovelace',
      'Hedy Lamarr!',
    ];
    const outputs = await Promise.all(values.map((name) => engine.fill(t, { data: { name } })));
    for (const [i, pdf] of outputs.entries()) {
      expect((await pageText(pdf))[0]).toContain(values[i]);
    }
    await qpdfCheck(outputs[4]!);
  });
});
