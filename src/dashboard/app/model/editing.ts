/**
 * The editor's document (the working template plus the detection's proposals) and every edit of it, as
 * pure functions: each returns a new document and leaves the old one as it was (undo keeps it).
 */
import { FIELD_KINDS } from './field-kinds.js';
import { carry, clampToPage, groupDelta, resizeBy, roundRect, type Handle } from './geometry.js';
import { freeId, keepOrFree } from './ids.js';
import type { FieldStyle, FieldType, PageSize, Proposal, Rect, TemplateField, TemplateJson } from './types.js';

export interface Doc {
  title?: string;
  style?: FieldStyle;
  fields: readonly TemplateField[];
  /** Detected fields not accepted or rejected yet. */
  proposals: readonly Proposal[];
}

export function docFrom(json: TemplateJson, proposals: readonly Proposal[] = []): Doc {
  return { title: json.title, style: json.style, fields: json.fields, proposals };
}

/** What PUT …/working takes: the template JSON, without the proposals and without empty properties. */
export function jsonOf(doc: Doc): TemplateJson {
  const out: TemplateJson = { fields: [...doc.fields] };
  if (doc.title !== undefined && doc.title !== '') out.title = doc.title;
  if (doc.style && Object.keys(doc.style).length > 0) out.style = doc.style;
  return out;
}

function ids(doc: Doc): Set<string> {
  return new Set(doc.fields.map((f) => f.id));
}

/** The field with its rect replaced and everything placed inside it (lines, options, parts, rows) carried along. */
export function withRect(f: TemplateField, rect: Rect): TemplateField {
  const from = f.rect;
  if (sameRect(from, rect)) return f;
  const move = (r: Rect) => carry(r, from, rect);
  const out: TemplateField = { ...f, rect: roundRect(rect) };
  if (f.lines) out.lines = f.lines.map(move);
  if (f.rows) out.rows = f.rows.map(move);
  if (f.options) out.options = f.options.map((o) => ({ ...o, rect: move(o.rect) }));
  if (f.parts) out.parts = Object.fromEntries(Object.entries(f.parts).map(([k, r]) => [k, move(r)]));
  return out;
}

export function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function mapFields(doc: Doc, change: (f: TemplateField) => TemplateField): Doc {
  let changed = false;
  const fields = doc.fields.map((f) => {
    const g = change(f);
    if (g !== f) changed = true;
    return g;
  });
  return changed ? { ...doc, fields } : doc;
}

/** A new field of `type` at `rect` on page `pageNum`; its id is the next free one for the type. */
export function addField(doc: Doc, type: FieldType, pageNum: number, rect: Rect, page: PageSize) {
  const id = freeId(type, ids(doc));
  const field: TemplateField = { id, type, pageNum, rect: clampToPage(rect, page) };
  return { doc: { ...doc, fields: [...doc.fields, field] }, id };
}

export function removeFields(doc: Doc, remove: readonly string[]): Doc {
  if (remove.length === 0) return doc;
  const gone = new Set(remove);
  return { ...doc, fields: doc.fields.filter((f) => !gone.has(f.id)) };
}

/**
 * Properties of one field replaced (`undefined` removes one). Changing the type drops what only the old
 * type reads; changing the rect carries the field's parts along.
 */
export function updateField(doc: Doc, id: string, patch: Partial<TemplateField>): Doc {
  return mapFields(doc, (f) => {
    if (f.id !== id) return f;
    let next: TemplateField = { ...f };
    for (const [k, v] of Object.entries(patch) as Array<[keyof TemplateField, unknown]>) {
      if (k === 'rect') continue;
      if (v === undefined) delete next[k];
      else Object.assign(next, { [k]: v });
    }
    if (patch.rect) next = withRect(next, patch.rect);
    if (patch.type && patch.type !== f.type) next = forType(next, patch.type);
    return next;
  });
}

/** Drops the properties the new type does not read (a radio group's options on a text field would be refused). */
function forType(f: TemplateField, type: FieldType): TemplateField {
  const keep = FIELD_KINDS[type].sections;
  const out: TemplateField = { ...f, type };
  if (!keep.includes('options')) delete out.options;
  if (!keep.includes('lines')) delete out.lines;
  if (!keep.includes('parts')) delete out.parts;
  if (!keep.includes('cells')) {
    delete out.cells;
    delete out.maxLength;
  }
  if (!keep.includes('square')) delete out.square;
  if (!keep.includes('format')) delete out.format;
  if (!keep.includes('rows')) delete out.rows;
  if (!keep.includes('rotation')) delete out.rotation;
  if (!keep.includes('style')) delete out.style;
  return out;
}

/** The fields moved together by (dx, dy) points, each group on its own page kept on it. */
export function moveFields(doc: Doc, move: readonly string[], dx: number, dy: number, pages: readonly PageSize[]): Doc {
  const chosen = new Set(move);
  const byPage = new Map<number, Rect[]>();
  for (const f of doc.fields) if (chosen.has(f.id)) byPage.set(f.pageNum, [...(byPage.get(f.pageNum) ?? []), f.rect]);
  const deltas = new Map([...byPage].map(([p, rects]) => [p, groupDelta(rects, dx, dy, pages[p] ?? infinitePage)]));
  return mapFields(doc, (f) => {
    const d = chosen.has(f.id) ? deltas.get(f.pageNum) : undefined;
    if (!d || (d.x === 0 && d.y === 0)) return f;
    return withRect(f, { ...f.rect, x: f.rect.x + d.x, y: f.rect.y + d.y });
  });
}

const infinitePage: PageSize = { width: Number.MAX_SAFE_INTEGER, height: Number.MAX_SAFE_INTEGER };

export function resizeField(doc: Doc, id: string, handle: Handle, dx: number, dy: number, pages: readonly PageSize[]) {
  return mapFields(doc, (f) =>
    f.id === id ? withRect(f, resizeBy(f.rect, handle, dx, dy, pages[f.pageNum] ?? infinitePage)) : f,
  );
}

/** The fields made wider or taller by (dw, dh) points (negative: narrower, shorter), each kept on its page. */
export function growFields(doc: Doc, grow: readonly string[], dw: number, dh: number, pages: readonly PageSize[]): Doc {
  const chosen = new Set(grow);
  return mapFields(doc, (f) =>
    chosen.has(f.id) ? withRect(f, resizeBy(f.rect, 'se', dw, dh, pages[f.pageNum] ?? infinitePage)) : f,
  );
}

/** Rects replaced by id (align): each field's parts carried along. */
export function setRects(doc: Doc, rects: ReadonlyMap<string, Rect>): Doc {
  return mapFields(doc, (f) => {
    const r = rects.get(f.id);
    return r ? withRect(f, r) : f;
  });
}

/**
 * Copies of `fields` added, moved by `offset` points (kept on their page) with new ids. A copy has no
 * alias or interactive name: two fields under one alias take one value, which a copy rarely means.
 */
export function pasteFields(doc: Doc, fields: readonly TemplateField[], offset: number, pages: readonly PageSize[]) {
  const taken = ids(doc);
  const added: TemplateField[] = [];
  for (const f of fields) {
    const id = freeId(f.id, taken);
    taken.add(id);
    const { alias: _alias, name: _name, acroFieldName: _acro, ...rest } = f;
    const page = pages[f.pageNum] ?? infinitePage;
    const d = groupDelta([f.rect], offset, offset, page);
    added.push(withRect({ ...rest, id }, { ...f.rect, x: f.rect.x + d.x, y: f.rect.y + d.y }));
  }
  return { doc: { ...doc, fields: [...doc.fields, ...added] }, ids: added.map((f) => f.id) };
}

/** Proposals (by index) become fields, keeping their id unless a field has it already. */
export function acceptProposals(doc: Doc, indexes: readonly number[]) {
  const chosen = new Set(indexes);
  const taken = ids(doc);
  const added: TemplateField[] = [];
  doc.proposals.forEach((p, i) => {
    if (!chosen.has(i)) return;
    const id = keepOrFree(p.field.id, taken);
    taken.add(id);
    added.push({ ...p.field, id });
  });
  const proposals = doc.proposals.filter((_, i) => !chosen.has(i));
  return { doc: { ...doc, fields: [...doc.fields, ...added], proposals }, ids: added.map((f) => f.id) };
}

export function rejectProposals(doc: Doc, indexes: readonly number[]): Doc {
  const chosen = new Set(indexes);
  return { ...doc, proposals: doc.proposals.filter((_, i) => !chosen.has(i)) };
}

/** The document style replaced (empty values removed: the next level of the precedence applies). */
export function setDocumentStyle(doc: Doc, style: FieldStyle): Doc {
  return { ...doc, style: pruneStyle(style) };
}

export function pruneStyle(style: FieldStyle): FieldStyle | undefined {
  const entries = Object.entries(style).filter(([, v]) => v !== undefined && v !== '');
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as FieldStyle);
}
