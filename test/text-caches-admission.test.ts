import { PDFDocument, rgb } from '@cantoo/pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { FillCache } from '../src/fill/index.js';
import { FontRegistry } from '../src/fonts/index.js';
import { SecondSight, Shaper, TextLayout, TextSetter, type LaidLine, type TextStyle } from '../src/text/index.js';

// What an engine keeps across documents is what recurs: a value seen once (a name, an amount)
// stays with its document. Kept, such values lived until evicted thousands of fills later and
// then died in V8's old generation, which grew by tens of MB (bench/memory.ts). Counted here:
// entries kept after many distinct inputs.

const style: TextStyle = { fontFamily: 'Noto Sans', fontWeight: 'normal', fontSize: 10 };
let registry: FontRegistry;

beforeAll(() => {
  registry = new FontRegistry({ systemDirectories: [] });
});

describe('SecondSight', () => {
  it('admits a key offered the second time, and remembers up to its size', () => {
    const seen = new SecondSight(1024);
    expect(seen.seen('Ada')).toBe(false);
    expect(seen.seen('Ada')).toBe(true);
    expect(seen.seen('Grace')).toBe(false);
    // 10,000 other keys take most slots: "Ada" is seen once again, at worst.
    for (let i = 0; i < 10_000; i++) seen.seen(`value ${i}`);
    seen.seen('Ada');
    expect(seen.seen('Ada')).toBe(true);
  });
});

describe("the fill's layout cache keeps values on their second sight", () => {
  it('10,000 values seen once keep nothing; values seen twice are kept, at most 4,096', () => {
    const cache = new FillCache().layouts;
    let computed = 0;
    const compute = (): LaidLine[] => {
      computed++;
      return [];
    };
    for (let i = 0; i < 10_000; i++) cache.get(`Lovelace ${i}`, style, 200, compute);
    expect(cache.size).toBe(0);
    expect(computed).toBe(10_000);

    cache.get('Yes', style, 200, compute);
    cache.get('Yes', style, 200, compute);
    expect(cache.size).toBe(1);
    computed = 0;
    cache.get('Yes', style, 200, compute);
    expect(computed, 'a kept value is not laid out again').toBe(0);

    for (let round = 0; round < 2; round++) for (let i = 0; i < 10_000; i++) cache.get(`x${i}`, style, 200, compute);
    expect(cache.size).toBe(4096);
  });
});

describe("an engine's shaper keeps runs that recur across documents", () => {
  it("300 documents, each laying out and drawing a word of its own, leave the engine's shaper empty", async () => {
    const shaper = new Shaper();
    const layout = new TextLayout(registry, { shaper });
    for (let i = 0; i < 300; i++) {
      const doc = await PDFDocument.create();
      const setter = new TextSetter(doc, registry, { layout });
      const [line] = setter.layout([{ text: `Lovelace${i}`, style }]);
      setter.drawLine(doc.addPage([200, 100]), line!, 10, 50, rgb(0, 0, 0));
    }
    expect(shaper.size).toBe(0);

    // A word two documents use is kept by the engine's shaper.
    for (let i = 0; i < 2; i++) {
      const setter = new TextSetter(await PDFDocument.create(), registry, { layout });
      setter.layout([{ text: 'Total', style }]);
    }
    expect(shaper.size).toBe(1);
  });
});
