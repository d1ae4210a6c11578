/** The field types as a select's options, in two groups: filled with data, filled by a signer. */
import { FIELD_KINDS, TYPE_GROUPS } from '../model/field-kinds.js';

export function TypeMenu() {
  return (
    <>
      {TYPE_GROUPS.map((g) => (
        <optgroup key={g.label} label={g.label}>
          {g.types.map((t) => (
            <option key={t} value={t}>
              {FIELD_KINDS[t].label}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}
