/**
 * What a field's value becomes for one output page: the resolved style, the contents to draw
 * flat and the filled field an AcroForm writer stores. Field type modules (types/) produce
 * them; src/fill plans, draws and writes them.
 */
import type { FontWeight } from '../fonts/index.js';
import type { PreparedImage } from '../images/index.js';
import type { TemplateField } from './model.js';
import type { TopLeftRect } from '../geometry/index.js';
import type { Alignment, VerticalAlignment } from '../acroform/index.js';

// One alignment vocabulary: the field writer's (a floor below), which draws what these name.
export type { Alignment, VerticalAlignment };

/** Every styling property decided: the result of the five precedence levels. */
export interface ResolvedStyle {
  fontFamily: string;
  fontWeight: FontWeight;
  fontSize: number;
  /** `#RRGGBB`. */
  textColor: string;
  alignment: Alignment;
  verticalAlignment: VerticalAlignment;
}

/** One thing to draw, in template coordinates (TopLeftRect boxes). */
export type Content =
  | { kind: 'text'; box: TopLeftRect; text: string; style: ResolvedStyle; multiline: boolean }
  /** charList: one character centred in each of `cells` equal boxes. */
  | { kind: 'cells'; box: TopLeftRect; chars: string[]; cells: number; style: ResolvedStyle }
  /** textWrap: paragraphs flow through the line boxes, each paragraph starting a new box. */
  | { kind: 'lines'; boxes: TopLeftRect[]; paragraphs: string[]; style: ResolvedStyle }
  /** checkbox: a character filling the box (or a square centred in it). */
  | { kind: 'mark'; box: TopLeftRect; char: string; square: boolean; style: ResolvedStyle }
  /** radioGroup: a filled dot in the chosen option's box. */
  | { kind: 'dot'; box: TopLeftRect; style: ResolvedStyle }
  /** imageFile: `image` is filled in by the image loader; null leaves the field empty. */
  | { kind: 'image'; box: TopLeftRect; source: string; image?: PreparedImage | null };

/**
 * A field with its value decided for one output page: what to draw, and the
 * same information in the shape an AcroForm writer needs (strings per part).
 */
export interface FilledField {
  field: TemplateField;
  /** Where the value came from in the request, e.g. `data.name`, `data[1].items[3]`. */
  property: string;
  style: ResolvedStyle;
  /** Interactive output: value object's readOnly ?? request.defaultReadOnly ?? template field readOnly. */
  readOnly: boolean;
  /**
   * The formatted value per part: `''` for single-box fields, part names for
   * fullName/usAddress, the option id for radioGroup, `'checked'` for a checkbox.
   */
  values: Record<string, string>;
  /** Row offset applied (overflow columns): the box the value went to. */
  box: TopLeftRect;
  contents: Content[];
}
