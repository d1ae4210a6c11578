/**
 * The lean marked-content scan's shortcuts for Chromium's glyph runs (`Tj` and `Td` told apart without
 * a lookup, hex strings walked in place) read operators as its general path does.
 */
import { describe, expect, it } from 'vitest';
import { markUncovered } from '../src/pdf/structure/marked-content.js';

describe('the lean scan on glyph runs', () => {
  const wrap = (content: string): string | undefined => {
    const out = markUncovered(Buffer.from(content, 'latin1'));
    return out && Buffer.from(out).toString('latin1');
  };

  it('takes Tj and TJ for painting, and Td, TD, Tf, T* for state', () => {
    expect(wrap('BT 1 0 Td <0041> Tj ET')).toBe('\n/Artifact BMC\nBT 1 0 Td <0041> Tj ET\nEMC\n');
    expect(wrap('BT 1 0 Td [<0041> -20 <0042>] TJ ET')).toBe(
      '\n/Artifact BMC\nBT 1 0 Td [<0041> -20 <0042>] TJ ET\nEMC\n',
    );
    // Moves and font changes paint nothing: no wrapper.
    expect(wrap('BT /F1 9 Tf 1 0 Td 2 3 TD T* ET')).toBeUndefined();
  });

  it('reads hex strings of any length, with white space, and refuses one left open', () => {
    expect(wrap('/P <</MCID 1 >>BDC BT <00 41\n0042> Tj ET EMC <0043> Tj')).toBe(
      '/P <</MCID 1 >>BDC BT <00 41\n0042> Tj ET EMC\n/Artifact BMC\n <0043> Tj\nEMC\n',
    );
    // `Tj` inside a hex string is no operator; an unterminated one does not lex.
    expect(wrap('<54 6a> pop')).toBeUndefined();
    expect(wrap('BT <0041 Tj ET')).toBeUndefined();
  });
});
