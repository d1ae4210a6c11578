/**
 * Seeded junk: mutated and truncated signed files never crash verifyPdf (a result or a typed
 * error), never verify as valid once a covered byte changed, and sealing truncated files gives
 * typed errors only. A failing case replays with its seed.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CastpressError } from '../src/errors/index.js';
import { createSigningIdentity, sealPdf, verifyPdf, type SigningIdentity } from '../src/signing/index.js';
import { seededRandom } from './helpers/random.js';
import { makePdf, tempDir } from './helpers/signing.js';
import { expectLinearTime } from './helpers/scaling.js';

let remove: () => Promise<void>;
let identity: SigningIdentity;
let sealed: Uint8Array;

beforeAll(async () => {
  let dir: string;
  ({ dir, remove } = await tempDir());
  identity = await createSigningIdentity({ dataDir: path.join(dir, 'data') });
  sealed = await sealPdf(await sealPdf(await makePdf(2), identity, { name: 'One' }), identity, { name: 'Two' });
});
afterAll(async () => remove());

async function outcome(p: Promise<unknown>): Promise<unknown> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof CastpressError) return e;
    throw e;
  }
}

describe('signing junk', () => {
  it('300 mutated copies of a twice-signed file: verifyPdf answers, and never valid', async () => {
    const random = seededRandom(1717);
    for (let i = 0; i < 300; i++) {
      const bad = Uint8Array.from(sealed);
      const changes = 1 + Math.floor(random() * 4);
      for (let k = 0; k < changes; k++) {
        const at = Math.floor(random() * bad.length);
        const old = bad[at]!;
        let next = Math.floor(random() * 256);
        if (next === old) next = (old + 1) & 255;
        bad[at] = next;
      }
      const result = await outcome(verifyPdf(bad));
      if (result instanceof CastpressError) continue;
      expect((result as { valid: boolean }).valid, `case ${i}`).toBe(false);
    }
    // Each verification also parses every revision for the difference analysis: ~110 ms a copy here, 33 s in all on a loaded machine.
  }, 180_000);

  it('/ByteRange entries naming one gap are read in linear time (30,000 on a 200 KB gap took 45 s)', async () => {
    // n entries on one gap of 28n bytes: entries times gap grew with the square of the file.
    const file = (n: number) => {
      const gap = `<${'a'.repeat(28 * n)}>`;
      return new TextEncoder().encode(`%PDF-1.7\n${gap}${`/ByteRange [0 9 ${9 + gap.length} 0]\n`.repeat(n)}%%EOF`);
    };
    // 8x the file costs under 22.6x (quadratic: 64x).
    const result = await expectLinearTime('byte ranges', (n) => verifyPdf(file(n)), 750, 6_000);
    expect(result.valid).toBe(false);
    expect(result.signatures).toHaveLength(6_000);
    expect(new Set(result.signatures.map((s) => s.problems.join()))).toEqual(
      new Set(['Cannot read the signature value: the signature value is not DER']),
    );
  });

  it('truncated files: verifyPdf and sealPdf give results or typed errors, never a crash', async () => {
    const random = seededRandom(99);
    const source = await makePdf(1);
    for (let i = 0; i < 40; i++) {
      const cut = Math.floor(random() * sealed.length);
      const result = await outcome(verifyPdf(sealed.subarray(0, cut)));
      if (!(result instanceof CastpressError)) expect((result as { valid: boolean }).valid).toBe(false);
      await outcome(sealPdf(source.subarray(0, Math.floor(random() * source.length)), identity));
    }
  });
});
