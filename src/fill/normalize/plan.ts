import { fieldType, type FilledField } from '../../fields/index.js';
import type { FieldError } from '../../errors/index.js';
import {
  formatPath,
  isValueObject,
  type FieldInput,
  type FillData,
  type FillRequest,
  type Styling,
} from '../../schema/index.js';
import type { Template, TemplateField } from '../../template/index.js';
import { pickStyling, resolveStyle } from './styles.js';
import type { FillPlan, PlannedPage } from './types.js';
import { formatValue, type FormatOptions, type Placement } from './values.js';

/** A value taken out of its value object(s), with the styling and readOnly they carried. */
interface Unwrapped {
  value: FieldInput;
  styling: Partial<Styling>;
  readOnly?: boolean;
  path: PropertyKey[];
}

function unwrap(v: FieldInput, path: PropertyKey[], outer?: Unwrapped): Unwrapped {
  const base: Unwrapped = { value: v, styling: { ...outer?.styling }, readOnly: outer?.readOnly, path };
  if (isValueObject(v)) {
    return {
      value: v.value,
      styling: { ...base.styling, ...pickStyling(v) },
      readOnly: v.readOnly ?? base.readOnly,
      path,
    };
  }
  return base;
}

/**
 * How one field's value spreads over the copies of its page:
 * - constant: the same value on every copy;
 * - explicit: an array for a field that takes no array, one element per repeat;
 * - column: an overflow column (template `rows`), the same list on every repeat;
 * - combined: an array of columns, one per repeat, each overflowing within it.
 */
type Spread =
  | { kind: 'constant'; item: Unwrapped }
  | { kind: 'explicit'; items: Unwrapped[] }
  | { kind: 'column'; items: Unwrapped[] }
  | { kind: 'combined'; columns: Unwrapped[][] };

function spreadOf(field: TemplateField, u: Unwrapped): Spread {
  if (!Array.isArray(u.value))
    return field.rows?.length ? { kind: 'column', items: [u] } : { kind: 'constant', item: u };
  const elements = u.value.map((el, i) => unwrap(el, [...u.path, i], u));
  const nested = elements.some((e) => Array.isArray(e.value));
  if (field.rows?.length) {
    if (!nested) return { kind: 'column', items: elements };
    return {
      kind: 'combined',
      columns: elements.map((e) =>
        Array.isArray(e.value) ? e.value.map((el, j) => unwrap(el, [...e.path, j], e)) : [e],
      ),
    };
  }
  // A type that takes an array as its value (textWrap's lines) repeats only for an array of arrays.
  if (fieldType(field.type).arrayIsValue && !nested) return { kind: 'constant', item: u };
  return { kind: 'explicit', items: elements };
}

/** A field's value in one fill; none for the signing kinds, which a packet's signer fills (src/fill/data-keys.ts says so). */
function lookup(data: FillData, field: TemplateField): { key: string; value: FieldInput } | undefined {
  if (fieldType(field.type).signedAs !== undefined) return undefined;
  for (const key of [field.alias, field.id]) {
    if (key === undefined || !Object.hasOwn(data, key)) continue;
    const value = data[key];
    if (value !== null && value !== undefined) return { key, value };
  }
  return undefined;
}

export interface PlanOptions {
  pageCount: number;
  format: FormatOptions;
}

/**
 * Decides every output page: which template page, which copy, and the
 * formatted value of each field on it. Errors (values that cannot be
 * formatted for their type) are collected, not thrown.
 */
export function planFill(
  template: Template,
  request: FillRequest,
  options: PlanOptions,
): { plan: FillPlan; errors: FieldError[] } {
  const errors = new Map<string, FieldError>();
  const pages: PlannedPage[] = [];
  const pagesPerFill: number[] = [];
  const fieldsByPage = new Map<number, TemplateField[]>();
  for (const f of template.fields) {
    if (f.pageNum >= options.pageCount) continue;
    const list = fieldsByPage.get(f.pageNum) ?? [];
    list.push(f);
    fieldsByPage.set(f.pageNum, list);
  }
  const requestStyle = pickStyling(request);

  request.data.forEach((data, fillIndex) => {
    const root: PropertyKey[] = request.dataWasArray ? ['data', fillIndex] : ['data'];
    const before = pages.length;
    for (let p = 0; p < options.pageCount; p++) {
      const spreads: Array<{ field: TemplateField; spread: Spread }> = [];
      for (const field of fieldsByPage.get(p) ?? []) {
        const found = lookup(data, field);
        if (!found) continue;
        spreads.push({ field, spread: spreadOf(field, unwrap(found.value, [...root, found.key])) });
      }
      const repeats = Math.max(
        1,
        ...spreads.map(({ spread: s }) =>
          s.kind === 'explicit' ? s.items.length : s.kind === 'combined' ? s.columns.length : 1,
        ),
      );
      const copies: PlannedPage[] = [];
      for (let e = 0; e < repeats; e++) {
        const columnOf = (field: TemplateField, s: Spread): Unwrapped[] =>
          s.kind === 'column' ? s.items : s.kind === 'combined' ? (s.columns[e] ?? []) : [];
        let overflowPages = 1;
        for (const { field, spread } of spreads) {
          if (spread.kind === 'column' || spread.kind === 'combined') {
            overflowPages = Math.max(overflowPages, Math.ceil(columnOf(field, spread).length / field.rows!.length));
          }
        }
        for (let o = 0; o < overflowPages; o++) {
          const filled: FilledField[] = [];
          for (const { field, spread } of spreads) {
            if (spread.kind === 'constant') addFilled(filled, field, spread.item, { dx: 0, dy: 0 });
            else if (spread.kind === 'explicit') {
              const item = spread.items[e];
              if (item) addFilled(filled, field, item, { dx: 0, dy: 0 });
            } else {
              const rows = field.rows!;
              const column = columnOf(field, spread);
              rows.forEach((row, r) => {
                const item = column[o * rows.length + r];
                if (item) addFilled(filled, field, item, { dx: row.x - field.rect.x, dy: row.y - field.rect.y });
              });
            }
          }
          copies.push({ templatePage: p, fillIndex, repeatNumber: 0, repeatTotal: 0, fields: filled });
        }
      }
      copies.forEach((c, i) => {
        c.repeatNumber = i + 1;
        c.repeatTotal = copies.length;
      });
      pages.push(...copies);
    }
    pagesPerFill.push(pages.length - before);
  });

  function addFilled(out: FilledField[], field: TemplateField, item: Unwrapped, at: Placement): void {
    const style = resolveStyle(field, { value: item.styling, request: requestStyle, template: template.style });
    const property = formatPath(item.path);
    const outcome = formatValue(field, item.value, style, at, options.format);
    if (!outcome.ok) {
      errors.set(`${property}\n${outcome.message}`, { property, message: outcome.message });
      return;
    }
    out.push({
      field,
      property,
      style,
      readOnly: item.readOnly ?? request.defaultReadOnly ?? field.readOnly ?? false,
      values: outcome.result.values,
      box: { x: field.rect.x + at.dx, y: field.rect.y + at.dy, width: field.rect.width, height: field.rect.height },
      contents: outcome.result.contents,
    });
  }

  return { plan: { pages, pagesPerFill }, errors: [...errors.values()] };
}
