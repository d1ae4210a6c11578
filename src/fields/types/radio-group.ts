import type { FieldTypeModule } from '../contract.js';
import type { FilledField } from '../filled.js';
import { describe, fail, ok, place } from '../values.js';

/** The option a filled radio group chose, as its export value ('' when none). */
function chosenValue(filled: FilledField): string {
  const chosen = (filled.field.options ?? []).find((o) => filled.values[o.id] !== undefined);
  return chosen ? (chosen.exportValue ?? chosen.id) : '';
}

/** radioGroup: the id of an option (an option's exportValue also matches); a dot in that option's box. */
export const radioGroup: FieldTypeModule = {
  type: 'radioGroup',
  format: ({ field, raw, at, style }) => {
    if (typeof raw !== 'string') return fail(`Expected the id of an option, received ${describe(raw)}`);
    const opts = field.options ?? [];
    const chosen = opts.find((o) => o.id === raw) ?? opts.find((o) => o.exportValue === raw);
    if (!chosen) return fail(`No option "${raw}"; options: ${opts.map((o) => o.id).join(', ') || '(none)'}`);
    return ok({ [chosen.id]: chosen.exportValue ?? chosen.id }, [{ kind: 'dot', box: place(chosen.rect, at), style }]);
  },
  interactive: (input) => {
    const f = input.filled.field;
    const options = (f.options ?? []).map((o) => ({ exportValue: o.exportValue ?? o.id, rect: input.at(o.rect) }));
    return [
      {
        ...input.common,
        name: input.name,
        kind: 'radio',
        rect: input.at(f.rect),
        value: chosenValue(input.filled),
        options,
      },
    ];
  },
  ownFieldValue: chosenValue,
  // The importer groups a radio field's widgets by page into options (src/acroform/form-import.ts).
  importAcro: (facts) => (facts.kind === 'radio' ? {} : undefined),
};
