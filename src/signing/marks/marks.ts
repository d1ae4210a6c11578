/**
 * What a signer puts on a page: a drawn signature (vector strokes or an image), a typed
 * one in a handwriting font, initials, or plain text (full name, email, date). Validated
 * up front, so a bad mark never reaches the document.
 */
import { z } from 'zod';
import { PayloadTooLargeError, ValidationError } from '../../errors/index.js';
import { cleanTypedText } from '../../format/index.js';
import type { TopLeftRect } from '../../geometry/index.js';
import { formatPath, parseWith } from '../../schema/index.js';

/** A point of a stroke in the drawing's own units (signature_pad: CSS pixels, y down). */
export interface StrokePoint {
  x: number;
  y: number;
}

/** signature_pad's `toData()` item: one stroke with its points (extra keys ignored). */
export interface PointGroup {
  points: readonly StrokePoint[];
}

export type Stroke = readonly StrokePoint[] | PointGroup;

export type MarkInput =
  /** Vector strokes, as signature_pad's `toData()` gives them or as plain point lists. */
  | { type: 'drawn'; strokes: readonly Stroke[]; color?: string }
  /** A PNG or JPEG image of the signature. */
  | { type: 'image'; image: Uint8Array }
  /** Text in the handwriting font (Dancing Script, with per-glyph fallback for other scripts). */
  | { type: 'typed'; text: string; color?: string }
  /** Plain text (Noto Sans): a full name, an email, a formatted date. */
  | { type: 'text'; text: string; color?: string };

export interface SignatureMark {
  /** Page index, 0 for the first page. */
  page: number;
  /** In points, from the top-left corner of the page as displayed (crop box, /Rotate applied). */
  rect: TopLeftRect;
  /** `initials` only changes how the mark is described in errors; both are drawn alike. */
  role?: 'signature' | 'initials' | 'field';
  input: MarkInput;
  /**
   * Lines of plain text drawn under the mark in the lower part of its rect, e.g. who signed, when
   * and the certificate's fingerprint (a visible signature, as Acrobat's and DocuSign's boxes show).
   */
  caption?: readonly string[];
}

export const LIMITS = {
  strokes: 1000,
  points: 50_000,
  imageBytes: 5 * 1024 * 1024,
  textLength: 500,
  marks: 500,
  captionLines: 4,
} as const;

const finite = z.number().refine(Number.isFinite, 'Must be a finite number');
const coordinate = finite.refine((v) => Math.abs(v) <= 1e6, 'Must be within ±1e6');
const point = z.object({ x: coordinate, y: coordinate });
/** signature_pad's `{points, penColor, …}` groups become their point lists (keeps error paths precise). */
const stroke = z.preprocess(
  (v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && 'points' in v ? (v as { points: unknown }).points : v,
  z.array(point),
);
const color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Must be a #rrggbb colour')
  .optional();
// Controls, bidi overrides and zero-width characters are removed before drawing: text of only
// those (NUL and U+202E) would otherwise draw an empty or garbled mark, and an override can reorder what a reader sees.
const text = z
  .string()
  .max(LIMITS.textLength)
  .transform(cleanTypedText)
  .refine((t) => t.length > 0, 'Must not be empty (control, bidi and zero-width characters do not count)');

const inputSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('drawn'), strokes: z.array(stroke), color }),
  z.object({ type: z.literal('image'), image: z.instanceof(Uint8Array) }),
  z.object({ type: z.literal('typed'), text, color }),
  z.object({ type: z.literal('text'), text, color }),
]);

const markSchema = z.object({
  page: z.number().int().min(0),
  rect: z.object({
    x: finite,
    y: finite,
    width: finite.refine((v) => v > 0, 'Must be positive'),
    height: finite.refine((v) => v > 0, 'Must be positive'),
  }),
  role: z.enum(['signature', 'initials', 'field']).optional(),
  input: inputSchema,
  caption: z.array(text).min(1).max(LIMITS.captionLines).optional(),
});

export type ParsedMark = z.infer<typeof markSchema>;

/**
 * Size limits come first (413 on the offending property) so that an over-large drawing
 * is refused before its points are validated one by one.
 */
function checkSizes(marks: readonly unknown[]): void {
  if (marks.length > LIMITS.marks) throw new PayloadTooLargeError(`At most ${LIMITS.marks} marks per call`, 'marks');
  marks.forEach((m, i) => {
    const input = (m as { input?: { type?: unknown; strokes?: unknown; image?: unknown } } | null)?.input;
    if (input?.type === 'drawn' && Array.isArray(input.strokes)) {
      const property = formatPath(['marks', i, 'input', 'strokes']);
      if (input.strokes.length > LIMITS.strokes)
        throw new PayloadTooLargeError(`A drawing may have at most ${LIMITS.strokes} strokes`, property);
      let points = 0;
      for (const s of input.strokes as unknown[]) {
        const list = Array.isArray(s) ? s : (s as { points?: unknown } | null)?.points;
        if (Array.isArray(list)) points += list.length;
      }
      if (points > LIMITS.points)
        throw new PayloadTooLargeError(`A drawing may have at most ${LIMITS.points} points`, property);
    }
    if (input?.type === 'image' && input.image instanceof Uint8Array && input.image.byteLength > LIMITS.imageBytes) {
      throw new PayloadTooLargeError(
        `A signature image may be at most ${LIMITS.imageBytes} bytes`,
        formatPath(['marks', i, 'input', 'image']),
      );
    }
  });
}

export function parseMarks(marks: unknown): ParsedMark[] {
  if (!Array.isArray(marks)) throw ValidationError.of('marks', 'Expected an array');
  if (marks.length === 0) throw ValidationError.of('marks', 'Must contain at least 1 item');
  checkSizes(marks);
  const parsed = parseWith(z.array(markSchema), marks, ['marks']);
  parsed.forEach((m, i) => {
    if (m.input.type === 'drawn' && !m.input.strokes.some((s) => s.length > 0)) {
      throw ValidationError.of(formatPath(['marks', i, 'input', 'strokes']), 'The drawing is empty');
    }
  });
  return parsed;
}
