import type { FieldError } from '../errors/index.js';
import { fieldType } from '../fields/index.js';
import { formatPath, type FillRequest } from '../schema/index.js';
import type { Template } from '../template/index.js';

/**
 * Keys of `data` that fill nothing, one entry per key and fill. A key that names no field of the
 * template (neither an id nor an alias): `{property: "data.nmae", message: 'no field has the id
 * or alias "nmae" (did you mean "name"?)'}`. A key that names only signing fields (signature,
 * initial, signatureDate), which a packet's signer fills while signing: `{property: "data.sig",
 * message: '"sig" names a signature field: signing fields are signed, not filled'}`. Only the
 * top-level keys of each fill are keys: what a value holds (a fullName's parts, a value object's
 * styling) is the value's own business. The hosted API ignores such keys; a misspelled one then
 * fills nothing, so the engine reports them (a warning, or a 400 when the caller asks for `strict`).
 */
export function unknownDataKeys(template: Template, request: FillRequest): FieldError[] {
  const known = new Set<string>();
  // Keys of signing fields, with the kind named in the message (a key shared with a fill field fills that one).
  const signed = new Map<string, string>();
  for (const f of template.fields) {
    const keys = f.alias === undefined ? [f.id] : [f.id, f.alias];
    for (const key of keys) {
      if (fieldType(f.type).signedAs === undefined) known.add(key);
      else if (!signed.has(key)) signed.set(key, f.type);
    }
  }
  const found: FieldError[] = [];
  request.data.forEach((data, i) => {
    for (const key of Object.keys(data)) {
      if (known.has(key)) continue;
      const property = formatPath(request.dataWasArray ? ['data', i, key] : ['data', key]);
      const kind = signed.get(key);
      if (kind !== undefined) {
        found.push({
          property,
          message: `"${key}" names ${kind === 'initial' ? 'an' : 'a'} ${kind} field: signing fields are signed, not filled`,
        });
        continue;
      }
      const near = closest(key, known);
      found.push({
        property,
        message: `no field has the id or alias "${key}"${near === undefined ? '' : ` (did you mean "${near}"?)`}`,
      });
    }
  });
  return found;
}

/** Bounds the suggestion's cost on templates with many fields and bodies with long keys. */
const MAX_COMPARED = 2000;
const MAX_KEY_LENGTH = 64;

/** The known name nearest to `key` by edit distance, when it is near enough to be a slip (a third of the key, at least 1). */
function closest(key: string, known: ReadonlySet<string>): string | undefined {
  if (key.length > MAX_KEY_LENGTH) return undefined;
  const limit = Math.max(1, Math.floor(key.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  let compared = 0;
  for (const name of known) {
    if (compared++ >= MAX_COMPARED) break;
    if (Math.abs(name.length - key.length) >= bestDistance || name.length > MAX_KEY_LENGTH) continue;
    const d = editDistance(key.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost 1. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
