import type { PdfRect } from '../geometry/index.js';
import type { CheckMarkPainter } from './appearance/toggle.js';
import type { FieldTextStyle } from './appearance/appearance.js';
import type { WidgetBox, WidgetRotation } from './appearance/canvas.js';

/** What `addInteractiveFields` (create.ts) is asked to write; field-dict.ts turns one spec into its dictionaries. */

/** One interactive field to add (the fill engine makes one per template field or subfield). */
export interface InteractiveFieldSpec {
  /** Field name; dots make a hierarchy (`a.b` is field `b` under `a`) unless the document's own form uses `a`. Specs sharing a name and kind become one field with several widgets. */
  name: string;
  /** `image`: a push button showing nothing of its own (an image field: the picture, if any, is page content under it). */
  kind: 'text' | 'comb' | 'checkbox' | 'radio' | 'combo' | 'list' | 'image';
  pageIndex: number;
  /** Text, comb, checkbox: the widget. Radio: the group's box (each option has its own rect). */
  rect: PdfRect;
  /** Text/comb: the text ('' = empty field). Checkbox: checked. Radio: the exportValue to select ('' = none). Combo/list: the export value chosen ('' = none; a combo shows any other text as typed). */
  value: string | boolean;
  /** Radio options, one widget each. */
  options?: Array<{ exportValue: string; rect: PdfRect }>;
  /** Combo/list: the choices in order; `label` is what is shown (default the export value). */
  choices?: Array<{ exportValue: string; label?: string }>;
  /** Text: shown as bullets, never stored in clear by viewers (/Ff Password). */
  password?: boolean;
  /** /Ff Required: viewers refuse to submit the form without a value. */
  required?: boolean;
  multiline?: boolean;
  /** Comb: number of cells (required). Text: maximum length. */
  maxLength?: number;
  style: FieldTextStyle;
  readOnly?: boolean;
  /** Checkbox: draws the checked mark (e.g. the request's checkbox character); default a drawn check mark. */
  checkMark?: CheckMarkPainter;
  /** Checkbox: the on state's name, which viewers report as the value when checked (default `Yes`). */
  onState?: string;
  /** List: several choices may be selected (/Ff MultiSelect); `selected` then holds them. */
  multiSelect?: boolean;
  /** List with `multiSelect`: the export values chosen (instead of `value`). */
  selected?: string[];
  /**
   * The widget's own border and background (/MK /BC, /MK /BG, /BS /W), drawn into its appearances.
   * `round` draws them as the ellipse inside the Rect (radio buttons). Absent: no border, no background.
   */
  box?: WidgetBox;
  /**
   * How far the content is turned counterclockwise in the page's user space (/MK /R): a page
   * shown turned by /Rotate needs the same turn for its text to read upright.
   */
  rotation?: WidgetRotation;
}
