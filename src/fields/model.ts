/**
 * The field vocabulary every floor above the writers shares: the field types of the spec's
 * table, a template field's schema and its rects (points from the top-left corner of the
 * page as shown). src/template builds a template of these fields; src/fill draws them.
 */
import { z } from 'zod';
import { styling } from '../schema/index.js';

/**
 * The signing kinds: boxes a packet's signer signs, initials or dates. A template holds them like
 * any field (a packet of the template gives them to its signers); a fill never fills them.
 */
export const SIGNING_FIELD_TYPES = ['signature', 'initial', 'signatureDate'] as const;

/**
 * Field types of the spec's table (plus `decimalNumber`, the hosted builder's name for `number`),
 * then the signing kinds.
 */
export const FIELD_TYPES = [
  'shortText',
  'longText',
  'email',
  'ssn',
  'ein',
  'date',
  'radioGroup',
  'imageFile',
  'checkbox',
  'number',
  'decimalNumber',
  'dollar',
  'integer',
  'percent',
  'charList',
  'textWrap',
  'fullName',
  'usAddress',
  'phone',
  ...SIGNING_FIELD_TYPES,
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

const finite = z.number().refine(Number.isFinite, { error: 'Must be a finite number' });

/** A TopLeftRect (src/geometry): points from the page's top-left corner as displayed (as the hosted builder and its clients use). */
const rect = z.object({
  x: finite,
  y: finite,
  width: finite.refine((n) => n > 0, { error: 'Must be greater than 0' }),
  height: finite.refine((n) => n > 0, { error: 'Must be greater than 0' }),
});

/** The same styling a fill request may set: the template's levels of the precedence chain. */
export const templateStyle = styling;
export type TemplateStyle = z.output<typeof templateStyle>;

export const templateField = z.object({
  id: z.string().min(1),
  alias: z.string().min(1).optional(),
  type: z.enum(FIELD_TYPES),
  /** 0-based page index. */
  pageNum: z.number().int().min(0),
  rect,
  /** Output format, e.g. `MM/DD/YYYY` for dates and signature dates, `$0,0.00` style hints for numbers. */
  format: z.string().optional(),
  style: templateStyle.optional(),
  /** charList: number of boxes (the rect is split evenly). */
  cells: z.number().int().positive().optional(),
  /** textWrap: one rect per line, top to bottom. */
  lines: z.array(rect).optional(),
  /** radioGroup: the options, each with its own rect; the value selects one by id. */
  options: z.array(z.object({ id: z.string().min(1), rect, exportValue: z.string().optional() })).optional(),
  /** fullName / usAddress: one rect per part (firstName, mi, lastName / street1, street2, city, state, zip, country). */
  parts: z.record(z.string(), rect).optional(),
  /** Array column for overflow repeat: one rect per row, top to bottom. */
  rows: z.array(rect).optional(),
  /** Interactive output: the field starts read-only. */
  readOnly: z.boolean().optional(),
  /** Interactive output: name of the AcroForm field (derived from alias/id when absent). */
  name: z.string().optional(),
  /** charList from a comb field: max characters. */
  maxLength: z.number().int().positive().optional(),
  /** Checkbox: render as a square box. */
  square: z.boolean().optional(),
  /**
   * The value is drawn turned counterclockwise by this many degrees, as on the page shown (a
   * fillable PDF's widget with /MK /R); the rect is the turned box. Text, charList, checkbox.
   */
  rotation: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).optional(),
  /** For templates imported from AcroForms: the field is filled in place (see interactive output). */
  acroFieldName: z.string().optional(),
});
export type TemplateField = z.output<typeof templateField>;
