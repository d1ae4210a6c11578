/**
 * Markdown layout is linear in its input: a word of several MB is cut
 * into lines cluster by cluster without being shaped whole, so 8x the word
 * costs about 8x the CPU (shaped whole, 1 MB takes 5x the time per MB of
 * 0.1 MB, and a 10 MB word runs past 90 s).
 *
 * Two checks at sizes small enough for seconds, not tens of seconds (a 1.3 MB
 * and a 4 MB word take 28 s):
 * - the CPU ratio of a 256 KB word to a 32 KB one, interleaved (test/helpers/scaling.ts): a
 *   scan of the rest of the word per line is quadratic and costs x64 where this is ~x8;
 * - the longest text handed to the shaper stays the same when the word grows 8x. Shaping the
 *   whole word (the defect this guards) is linear at these sizes and turns superlinear only past ~2 MB,
 *   where fontkit holds millions of glyphs at once: the length it was handed shows it at any size.
 * Each run's word is a letter no other run used: the shaper caches runs by their text, and a
 * cached whole word would make the second run of a size cheaper than the first.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { Shaper } from '../src/text/index.js';
import { expectLinearTime } from './helpers/scaling.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
let used = 0;

/** A Markdown document of one word of `size` copies of a letter no earlier call used. */
function word(size: number): string {
  const letter = LETTERS[used++ % LETTERS.length]!;
  return letter.repeat(size);
}

/** The two word lengths compared, in characters (one UTF-16 unit each). */
const SMALL_WORD = 32_000;
const LARGE_WORD = 256_000;

describe('Markdown: time linear in the input', () => {
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
  });

  it('a 256 KB word costs under 8^1.5 times the CPU of a 32 KB word (quadratic: 64x)', async () => {
    engine = createEngine({ now: () => new Date('2024-01-01T00:00:00Z') });
    await engine.generate({ data: [{ content: 'warm' }] });
    const pdf = await expectLinearTime(
      'one long word',
      (size) => engine!.generate({ data: [{ content: word(size) }] }),
      SMALL_WORD,
      LARGE_WORD,
      { rounds: 2 },
    );
    expect(pdf.length).toBeGreaterThan(10_000);
  }, 120_000);

  it('the shaper is never handed the whole word: its longest text does not grow with the word', async () => {
    engine = createEngine({ now: () => new Date('2024-01-01T00:00:00Z') });
    const longest = async (size: number): Promise<number> => {
      let most = 0;
      const shape = Shaper.prototype.shape;
      const spy = vi.spyOn(Shaper.prototype, 'shape').mockImplementation(function (this: Shaper, face, text, rtl) {
        most = Math.max(most, text.length);
        return shape.call(this, face, text, rtl);
      });
      try {
        await engine!.generate({ data: [{ content: word(size) }] });
      } finally {
        spy.mockRestore();
      }
      return most;
    };
    // Lengths of text in UTF-16 units (counted work), not times.
    const unitsAt32k = await longest(SMALL_WORD);
    const unitsAt256k = await longest(LARGE_WORD);
    expect(unitsAt256k, `longest text shaped: ${unitsAt32k} units for a 32 KB word, ${unitsAt256k} for 256 KB`).toBe(
      unitsAt32k,
    );
    expect(unitsAt256k, 'the shaper was handed less than the smaller word').toBeLessThan(SMALL_WORD);
  }, 120_000);
});
