import { describe, expect, it } from 'vitest';
import { graphemes } from '../src/acroform/appearance/appearance.js';

// Comb fields put one grapheme per cell. Printable ASCII takes a short cut that skips the
// Intl.Segmenter (building it cost every process ~25-50 ms at import); both paths
// must cut the same way.
describe('graphemes (comb cells)', () => {
  it('gives one cell per printable ASCII character, as the segmenter does', () => {
    const ascii = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    expect(graphemes(ascii)).toEqual(Array.from(segmenter.segment(ascii), (g) => g.segment));
    expect(graphemes('')).toEqual([]);
  });

  it('keeps combining marks, emoji sequences and CR LF with their base characters', () => {
    expect(graphemes('Ame\u0301lie')).toEqual(['A', 'm', 'e\u0301', 'l', 'i', 'e']);
    expect(graphemes('a\u{1F469}\u200D\u{1F4BB}b')).toEqual(['a', '\u{1F469}\u200D\u{1F4BB}', 'b']);
    expect(graphemes('1\r\n2')).toEqual(['1', '\r\n', '2']);
    expect(graphemes('\u{1F1EB}\u{1F1F7}7')).toEqual(['\u{1F1EB}\u{1F1F7}', '7']);
  });
});
