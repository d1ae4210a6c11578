/** Building blocks shared by the fill and generate request schemas. */
import { z } from 'zod';
import { once } from './once.js';

const FONT_SIZE_MIN = 5;
const FONT_SIZE_MAX = 30;

/** Integer 5–30; a numeric string is accepted because some clients (dotnet) send one. */
export const fontSize = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z.number().int().min(FONT_SIZE_MIN).max(FONT_SIZE_MAX),
);

/** 6-digit hex colour, `#` optional on input, normalised to `#RRGGBB`. */
export const hexColor = z
  .string()
  .regex(/^#?[0-9a-fA-F]{6}$/, { error: 'Must be a 6-digit hex colour such as #3E3E57' })
  .transform((s) => `#${s.replace('#', '').toUpperCase()}`);

export const alignment = z.enum(['left', 'center', 'right']);
export const fontWeight = z.enum(['normal', 'bold', 'italic', 'boldItalic']);
/** `center` is accepted as a synonym of `middle` (clients disagree). */
export const verticalAlignment = z.preprocess(
  (v) => (v === 'center' ? 'middle' : v),
  z.enum(['top', 'middle', 'bottom']),
);
export const outputFormat = z.enum(['pdf', 'url']);
export const fontFamily = z.string().trim().min(1);

const LENGTH_UNITS = ['mm', 'cm', 'in', 'px', 'em', 'rem', 'pt', 'pc'] as const;
export type LengthUnit = (typeof LENGTH_UNITS)[number];
const lengthPattern = new RegExp(`^\\s*(\\d+(?:\\.\\d+)?|\\.\\d+)(${LENGTH_UNITS.join('|')})\\s*$`);
const zeroPattern = /^\s*0+(\.0+)?\s*$/;

/**
 * The `page` schema of generate requests (lengths, margins, page-count position), built on
 * first use: a process that only fills never builds it (nothing runs at import).
 */
export const pageOptions = once(() => {
  /** A length with one of the supported units; a bare number means pixels, a bare 0 is 0. */
  const cssLength = z.preprocess(
    (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? `${v}px` : v),
    z
      .string()
      .refine((s) => lengthPattern.test(s) || zeroPattern.test(s), {
        error: `Must be a non-negative length with a unit (${LENGTH_UNITS.join(', ')}), e.g. "20mm"`,
      })
      .transform((s) => (zeroPattern.test(s) ? '0px' : s.replace(/\s+/g, ''))),
  );

  /** CSS margin shorthand: one to four lengths. */
  const cssMarginShorthand = z.preprocess(
    (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? `${v}px` : v),
    z
      .string()
      .refine(
        (s) => {
          const parts = s.trim().split(/\s+/);
          return (
            parts.length >= 1 && parts.length <= 4 && parts.every((p) => lengthPattern.test(p) || zeroPattern.test(p))
          );
        },
        { error: `Must be one to four lengths with units (${LENGTH_UNITS.join(', ')}), e.g. "1in 20mm"` },
      )
      .transform((s) =>
        s
          .trim()
          .split(/\s+/)
          .map((p) => (zeroPattern.test(p) ? '0px' : p))
          .join(' '),
      ),
  );

  const pageCountPosition = z.enum(['topLeft', 'topRight', 'topCenter', 'bottomLeft', 'bottomRight', 'bottomCenter']);

  // Multipart clients send `page` as a JSON string.
  return z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    },
    z.object({
      width: cssLength.optional(),
      height: cssLength.optional(),
      margin: cssMarginShorthand.optional(),
      marginTop: cssLength.optional(),
      marginRight: cssLength.optional(),
      marginBottom: cssLength.optional(),
      marginLeft: cssLength.optional(),
      pageCount: pageCountPosition.optional(),
    }),
  );
});

export type PageOptions = z.output<ReturnType<typeof pageOptions>>;

/** Lenient boolean for multipart/form clients: "true"/"false" strings. */
export const bool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());
