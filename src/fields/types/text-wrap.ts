import type { FieldTypeModule } from '../contract.js';
import { asText, describe, fail, ok, place, textWidget } from '../values.js';

/** textWrap: a string (newlines) or an array of strings; each line starts in the next line box. */
export const textWrap: FieldTypeModule = {
  type: 'textWrap',
  arrayIsValue: true,
  format: ({ field, raw, box, at, style }) => {
    let paragraphs: string[];
    if (Array.isArray(raw)) {
      const items = raw.map(asText);
      const bad = items.findIndex((s) => s === undefined);
      if (bad >= 0) return fail(`Expected strings (one per line), element ${bad} is ${describe(raw[bad])}`);
      paragraphs = (items as string[]).flatMap((s) => s.split(/\r?\n/));
    } else {
      const s = asText(raw);
      if (s === undefined) return fail(`Expected a string or an array of strings, received ${describe(raw)}`);
      paragraphs = s.split(/\r?\n/);
    }
    const boxes = field.lines?.length ? field.lines.map((r) => place(r, at)) : [box];
    if (paragraphs.length > boxes.length)
      return fail(`At most ${boxes.length} lines fit, received ${paragraphs.length}`);
    return ok({ '': paragraphs.join('\n') }, [{ kind: 'lines', boxes, paragraphs, style }]);
  },
  interactive: (input) => textWidget(input, true),
};
