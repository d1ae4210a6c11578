/** Small rules about a template's field list that detection's proposals and the diff share. */
import { parseTemplateContent, type TemplateField } from '../../template/index.js';

/** Whether one field alone passes the template's validation on a PDF of `pageCount` pages. */
export function fieldSchemaProblem(field: TemplateField, pageCount: number): boolean {
  try {
    parseTemplateContent({ fields: [field] }, pageCount);
    return false;
  } catch {
    return true;
  }
}

/** The fields with ids made unique (a repeated id gets `_2`, `_3`…), in order. */
export function uniqueFieldIds(fields: readonly TemplateField[]): TemplateField[] {
  const seen = new Set<string>();
  return fields.map((f) => {
    let id = f.id;
    for (let n = 2; seen.has(id); n++) id = `${f.id}_${n}`;
    seen.add(id);
    return id === f.id ? f : { ...f, id };
  });
}

/** What changed between two versions' fields, matched by id. */
export interface FieldDiff {
  added: TemplateField[];
  removed: TemplateField[];
  /** `keys`: the field's properties whose values differ, sorted. */
  changed: Array<{ id: string; before: TemplateField; after: TemplateField; keys: string[] }>;
}

export function diffFields(from: readonly TemplateField[], to: readonly TemplateField[]): FieldDiff {
  const before = new Map(from.map((f) => [f.id, f]));
  const after = new Map(to.map((f) => [f.id, f]));
  const changed: FieldDiff['changed'] = [];
  for (const [id, b] of before) {
    const a = after.get(id);
    if (!a) continue;
    const record = (f: TemplateField) => f as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])]
      .filter((k) => JSON.stringify(record(b)[k]) !== JSON.stringify(record(a)[k]))
      .sort();
    if (keys.length > 0) changed.push({ id, before: b, after: a, keys });
  }
  return {
    added: to.filter((f) => !before.has(f.id)),
    removed: from.filter((f) => !after.has(f.id)),
    changed,
  };
}
