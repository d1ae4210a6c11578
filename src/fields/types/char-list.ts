import type { FieldTypeModule } from '../contract.js';
import { asText, describe, fail, ok } from '../values.js';

/** charList: one character per equal cell, at most `cells` (or `maxLength`); a comb field when interactive. */
export const charList: FieldTypeModule = {
  type: 'charList',
  format: ({ field, raw, box, style }) => {
    const s = asText(raw);
    if (s === undefined) return fail(`Expected a string, received ${describe(raw)}`);
    const chars = [...s];
    const cells = field.cells ?? field.maxLength ?? chars.length;
    if (chars.length > cells) return fail(`At most ${cells} characters fit (one per box), received ${chars.length}`);
    return ok({ '': s }, [{ kind: 'cells', box, chars, cells, style }]);
  },
  interactive: (input) => {
    const f = input.filled;
    const value = f.values[''] ?? '';
    return [
      {
        ...input.common,
        name: input.name,
        kind: 'comb',
        rect: input.at(f.field.rect),
        value,
        maxLength: f.field.cells ?? f.field.maxLength ?? Math.max(1, [...value].length),
      },
    ];
  },
  importAcro: (facts) =>
    facts.kind === 'text' && facts.comb && facts.maxLength !== undefined ? { cells: facts.maxLength } : undefined,
};
