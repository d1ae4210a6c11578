import type { AcroFieldFacts, InteractiveFieldSpec } from '../acroform/index.js';
import type { Content, FilledField, ResolvedStyle, VerticalAlignment } from './filled.js';
import type { FieldType, TemplateField } from './model.js';
import type { PdfRect, TopLeftRect } from '../geometry/index.js';
import type { DrawTarget } from '../text/index.js';

export type { AcroFieldFacts };

/** The request's defaults that shape how a value is drawn. */
export interface FormatOptions {
  checkboxCharacter: string;
  checkboxSquare: boolean;
}

/** Template rects moved by the row offset (overflow columns repeat the field's geometry down the page). */
export interface Placement {
  dx: number;
  dy: number;
}

/** A value formatted for its field: strings per part (what an AcroForm writer stores) and what to draw flat. */
export interface Formatted {
  values: Record<string, string>;
  contents: Content[];
}

export type FormatOutcome = { ok: true; result: Formatted } | { ok: false; message: string };

/** One value (unwrapped from its value object, never empty) to validate and format for `field`. */
export interface FormatInput {
  field: TemplateField;
  raw: unknown;
  /** The field's rect moved by `at`. */
  box: TopLeftRect;
  at: Placement;
  style: ResolvedStyle;
  options: FormatOptions;
}

/** What every widget of one filled field shares. */
export type WidgetCommon = Pick<InteractiveFieldSpec, 'pageIndex' | 'style' | 'readOnly' | 'rotation'>;

/** One filled field to write as interactive fields (useInteractiveFields). */
export interface InteractiveInput {
  filled: FilledField;
  /** The field's name (with the value's array indices). */
  name: string;
  common: WidgetCommon;
  /** A template rect of the field (moved like the value) → the widget's rect in the page's user space. */
  at: (r: TopLeftRect) => PdfRect;
  /** The request's checkbox character (undefined: viewers' usual drawn check mark). */
  checkboxCharacter?: string;
  checkboxSquare: boolean;
  /** Draws a mark exactly as flat output does, into a widget appearance of `width` × `height`. */
  paintMark: (target: DrawTarget, width: number, height: number, char: string, square: boolean) => void;
}

/**
 * One field type: everything the engine does with a value of that type, in one module.
 * Flat drawing is the `contents` that `format` returns (text, cells, lines, mark, dot,
 * image: src/fill/render draws each kind); interactive writing is `interactive`.
 */
export interface FieldTypeModule {
  readonly type: FieldType;
  /** Validates a value and formats it: what is stored and what is drawn, or a message for the 400. */
  format(input: FormatInput): FormatOutcome;
  /**
   * Why a template field's `format` cannot be used for this type (the 400 on
   * `template.fields[i].format`); types without it ignore `format`. Date and numeric types
   * check their grammar in src/format.
   */
  formatProblem?(format: string): string | undefined;
  /** Level 5 of the style precedence; default `middle`. */
  verticalAlignment?(field: TemplateField): VerticalAlignment;
  /** An array value is this type's own value (textWrap's lines), not a page repeat; only an array of arrays repeats. */
  readonly arrayIsValue?: boolean;
  /** The widgets of a filled field; none for types that stay drawn into the page (images). */
  interactive(input: InteractiveInput): InteractiveFieldSpec[];
  /** The value for a fillable PDF's own field (acroFieldName); default the single value or ''. */
  ownFieldValue?(filled: FilledField): string | boolean;
  /** The boxes debug output outlines; default the rect and every rect the field holds. */
  debugBoxes?(field: TemplateField): TopLeftRect[];
  /**
   * Set for the signing kinds (signature, initial, signatureDate): a packet's signer fills the
   * field while signing, so fill data never fills it (fill says so for a key that names only
   * such fields, as for an unknown key) and flat output leaves it undrawn. Interactive output
   * writes it empty: `signature` as an empty signature field (src/acroform's signature writer),
   * `text` through `interactive`, given a filled field with no value.
   */
  readonly signedAs?: 'signature' | 'text';
  /** Claims a widget of a fillable PDF (checked in the registry's import order): the field's type-specific properties. */
  importAcro?(facts: AcroFieldFacts): Partial<TemplateField> | undefined;
}
