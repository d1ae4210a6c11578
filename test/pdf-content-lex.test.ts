/**
 * The kernel's content lexer in columns (src/pdf/content/tokens.ts): a sheet of tiles has hundreds of
 * thousands of tokens, so the split reads typed arrays and makes a string only for operators and names.
 * Counted: the strings made, the columns' kinds; and the values equal Number() of each number's text.
 */
import { describe, expect, it } from 'vitest';
import { contentTokens, lexContent, TOKEN } from '../src/pdf/index.js';

const bytes = (s: string): Uint8Array => Buffer.from(s, 'latin1');

describe('lexContent', () => {
  it('keeps a page of operators in typed columns with a string only per operator and name', () => {
    // 500 text objects and paths: 500 × (BT, Tf, Td, Tj, ET, re, f) operators, 500 names, 500 × 7 numbers, 500 strings.
    const unit = 'BT /F1 12 Tf 10.5 -180.25 Td (Alpha) Tj ET 0 0 100 .5 re f\n';
    const lex = lexContent(bytes(unit.repeat(500)))!;
    expect(lex.count).toBe(500 * 16);
    expect(lex.kind).toBeInstanceOf(Uint8Array);
    expect(lex.start).toBeInstanceOf(Uint32Array);
    expect(lex.value).toBeInstanceOf(Float64Array);
    const kinds = new Map<number, number>();
    for (let t = 0; t < lex.count; t++) kinds.set(lex.kind[t]!, (kinds.get(lex.kind[t]!) ?? 0) + 1);
    expect(Object.fromEntries(kinds)).toEqual({
      [TOKEN.op]: 500 * 7,
      [TOKEN.name]: 500,
      [TOKEN.number]: 500 * 7,
      [TOKEN.string]: 500,
    });
    // Strings made: one per operator and name, none per number.
    expect(lex.text.filter((s) => s !== undefined)).toHaveLength(500 * 8);
    expect(lex.strings.size).toBe(500);
    // The columns grew past their first guess: the last unit's numbers are where they belong.
    expect([...lex.value.subarray(lex.count - 14, lex.count - 2)]).toEqual([
      12, 0, 10.5, -180.25, 0, 0, 0, 0, 0, 0, 100, 0.5,
    ]);
    // Numbers only: the columns grow at a number token, which keeps its value.
    const sevens = lexContent(bytes('7 '.repeat(3000)))!;
    expect(sevens.count).toBe(3000);
    expect(sevens.value.subarray(0, 3000).every((v) => v === 7)).toBe(true);
    // Without decoding, a string is delimited and its bytes are not made.
    const bare = lexContent(bytes(unit.repeat(500)), false)!;
    expect(bare.count).toBe(lex.count);
    expect(bare.strings.size).toBe(0);
  });

  it('reads every number as Number() reads its text, and the same tokens as contentTokens', () => {
    const words = [
      '0',
      '-0',
      '+.5',
      '5.',
      '.25',
      '-3.14159',
      '0.1',
      '1234567.891',
      '123456789012345678',
      '0.30000000000000004',
    ];
    const odd = ['1.2.3', '-', '.', '+-1', '1e5'];
    const src = `${words.join(' ')} ${odd.join(' ')} /N [<4142> (a\\)b)] true Do`;
    const lex = lexContent(bytes(src))!;
    const tokens = contentTokens(bytes(src))!;
    expect(tokens).toHaveLength(lex.count);
    words.forEach((w, t) => {
      expect(lex.kind[t]).toBe(TOKEN.number);
      expect(Object.is(lex.value[t], Number(w))).toBe(true);
    });
    odd.forEach((w, k) => expect(tokens[words.length + k]).toMatchObject({ kind: 'op', op: w }));
    expect(tokens.slice(-7).map((t) => t.kind)).toEqual(['name', 'open', 'string', 'string', 'close', 'other', 'op']);
    expect(tokens.slice(-7).map((t) => src.slice(t.start, t.end))).toEqual([
      '/N',
      '[',
      '<4142>',
      '(a\\)b)',
      ']',
      'true',
      'Do',
    ]);
    expect(lexContent(bytes('(unclosed'))).toBeUndefined();
  });
});
