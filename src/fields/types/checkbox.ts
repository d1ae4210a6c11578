import type { FieldTypeModule } from '../contract.js';
import { describe, fail, ok } from '../values.js';

/** checkbox: a boolean (or "true"/"false"); checked draws the request's character (default X) filling the box. */
export const checkbox: FieldTypeModule = {
  type: 'checkbox',
  format: ({ field, raw, box, style, options }) => {
    const b = raw === true || raw === 'true' ? true : raw === false || raw === 'false' ? false : undefined;
    if (b === undefined) return fail(`Expected a boolean, received ${describe(raw)}`);
    if (!b) return ok({ checked: 'false' }, []);
    return ok({ checked: 'true' }, [
      { kind: 'mark', box, char: options.checkboxCharacter, square: field.square ?? options.checkboxSquare, style },
    ]);
  },
  interactive: (input) => {
    const f = input.filled;
    const char = input.checkboxCharacter;
    const square = f.field.square ?? input.checkboxSquare;
    // The same mark as flat output, drawn into the on-state appearance (so it shows whenever the box is checked).
    const checkMark =
      char === undefined
        ? undefined
        : (target: Parameters<typeof input.paintMark>[0], width: number, height: number) =>
            input.paintMark(target, width, height, char, square);
    return [
      {
        ...input.common,
        name: input.name,
        kind: 'checkbox',
        rect: input.at(f.field.rect),
        value: f.values.checked === 'true',
        checkMark,
      },
    ];
  },
  ownFieldValue: (filled) => filled.values.checked === 'true',
  importAcro: (facts) => (facts.kind === 'checkbox' ? {} : undefined),
};
