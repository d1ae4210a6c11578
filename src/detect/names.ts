/**
 * Ids and aliases over a whole result: a proposal's alias is its tag's alias or its label in
 * camelCase (else its type), made unique with a number; the widgets of one form field share one
 * alias (one value fills them all, as in an imported template). Ids are unique: the alias, with a
 * number for a field's later widgets. Given in the result's order: same bytes, same ids.
 */
import { aliasOf } from './labels.js';
import type { FieldProposal } from './types.js';

function uniqueName(base: string, taken: Set<string>, numbered: boolean): string {
  let name = base;
  for (let n = numbered ? 1 : 2; numbered || taken.has(name); n++) {
    name = `${base}${n}`;
    numbered = false;
  }
  taken.add(name);
  return name;
}

export function withNames(proposals: FieldProposal[]): FieldProposal[] {
  const aliases = new Set<string>();
  const ids = new Set<string>();
  const byFormField = new Map<string, string>();
  return proposals.map((p) => {
    const formName = p.source === 'acroform' ? p.field.acroFieldName : undefined;
    let alias = formName !== undefined ? byFormField.get(formName) : undefined;
    if (alias === undefined) {
      const base = (p.source === 'tag' ? p.field.alias : undefined) ?? (p.label ? aliasOf(p.label) : '');
      alias = uniqueName(base || p.field.type, aliases, !base);
      if (formName !== undefined) byFormField.set(formName, alias);
    }
    const id = uniqueName(alias, ids, false);
    return { ...p, field: { ...p.field, id, alias } };
  });
}
