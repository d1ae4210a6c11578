import type { FontWeight } from '../fonts/index.js';

export interface TextStyle {
  fontFamily: string;
  fontWeight: FontWeight;
  fontSize: number;
}

/** A piece of text in one style; `data` is carried through layout untouched (links, colours...). */
export interface Span<D = unknown> {
  text: string;
  style: TextStyle;
  data?: D;
}

export interface PlacedRun<D = unknown> {
  /** The characters of this run, logical order. */
  text: string;
  /** Offset from the line's left edge, points. */
  x: number;
  width: number;
  style: TextStyle;
  data?: D;
  /**
   * Addition to the contract: the face the run is drawn with (a FontRegistry
   * face id). Runs built by hand may leave it out; drawLine then resolves it.
   */
  faceId?: string;
  /** Addition: true when the run is right-to-left (its glyphs are drawn mirrored in order). */
  rtl?: boolean;
  /** Addition: position of the run in logical (reading) order within its line. */
  order?: number;
}

export interface LaidLine<D = unknown> {
  /** Visual order, left to right. */
  runs: PlacedRun<D>[];
  width: number;
  /** Max over runs, points above baseline (positive). */
  ascent: number;
  /** Max over runs, points below baseline (positive). */
  descent: number;
  /** Line advance (ascent + descent + line gap), or lineHeight × font size when asked. */
  height: number;
  /** Addition: true when the paragraph this line belongs to is right-to-left (callers may align right). */
  rtl?: boolean;
}

export interface LayoutOptions {
  /** Wrap at word boundaries (anywhere between CJK chars); undefined = no wrapping. */
  maxWidth?: number;
  /** Multiplier of font size; default the font's own metrics. */
  lineHeight?: number;
}

export interface FontMetrics {
  ascent: number;
  descent: number;
  lineHeight: number;
}
