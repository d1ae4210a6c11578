/**
 * What changed between a signed revision and a later one, object by object, and how far each
 * change goes (ISO 32000-2, 12.8.2.2 DocMDP; pyHanko's difference analysis in spirit):
 *
 * - `formFillingAndSigning` (DocMDP P=2): field values, appearances of fields that existed, a value in
 *   an existing empty signature field, new signature fields (signed or empty) and their widgets, the DSS, a document
 *   timestamp, the form's default resources, the document information;
 * - `annotations` (P=3): annotations added, changed or removed (widgets aside);
 * - `other`: anything else — page content or resources, pages added or removed, a field added or
 *   removed that is not a signature, a signed signature replaced, the catalog's other entries.
 *
 * An object is judged by its role in the earlier revision (what it was), a new object by its role
 * in the later one; objects that nothing reaches are left out (they change nothing shown).
 */
import { canonicalValue, type PdfObjectSnapshot, type PdfValue, type RevisionGraph } from '../../../pdf/index.js';
import { dictOf, fieldType, nameOf, refOf, refsIn, type Dict, type ObjectRole, type Role } from './roles.js';

export type ChangeLevel = 'none' | 'formFillingAndSigning' | 'annotations' | 'other';

export const LEVEL_RANK: Record<ChangeLevel, number> = { none: 0, formFillingAndSigning: 1, annotations: 2, other: 3 };

export interface ObjectChange {
  /** The object, as `"12 0"`. */
  object: string;
  change: 'added' | 'changed' | 'removed';
  role: Role;
  level: ChangeLevel;
  /** What changed, in words. */
  what: string;
  /** Part of long-term validation (DSS, document timestamp): allowed even under DocMDP P=1. */
  ltv: boolean;
  /** A read-only field's value or appearance: allowed only in a signer's own revision (diff-analysis.ts). */
  readOnly?: true;
}

export interface RevisionDiff {
  level: ChangeLevel;
  changes: ObjectChange[];
}

interface Finding {
  level: ChangeLevel;
  what: string;
  ltv?: boolean;
  readOnly?: true;
}

interface Ctx {
  a: RevisionGraph;
  b: RevisionGraph;
  ra: Map<string, ObjectRole>;
  rb: Map<string, ObjectRole>;
}

const FORM = 'formFillingAndSigning' as const;

function worst(findings: Finding[]): Finding {
  let out: Finding = { level: 'none', what: '', ltv: true };
  for (const f of findings) if (LEVEL_RANK[f.level] > LEVEL_RANK[out.level]) out = f;
  const over = findings.filter((f) => f.level === 'other');
  return {
    level: out.level,
    what: [...new Set(findings.filter((f) => f.level !== 'none').map((f) => f.what))].join('; '),
    ltv: findings.every((f) => f.ltv === true),
    // Read-only only when every change beyond form filling is a read-only field's fill.
    ...(over.length > 0 && over.every((f) => f.readOnly) ? { readOnly: true as const } : {}),
  };
}

function dictValue(s: PdfObjectSnapshot | undefined): Dict {
  const v = s?.value;
  return v !== null && typeof v === 'object' && v !== undefined && 'dict' in v ? v.dict : {};
}

/** Keys whose values differ between two dictionaries (strings compared as the text they spell). */
function changedKeys(x: Dict, y: Dict): string[] {
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  return [...keys].filter(
    (k) => JSON.stringify(canonicalValue(x[k] ?? null)) !== JSON.stringify(canonicalValue(y[k] ?? null)),
  );
}

/** A field whose /Ff (inherited through /Parent) has the ReadOnly bit. */
function isReadOnly(g: RevisionGraph, ref: string): boolean {
  const seen = new Set<string>();
  for (let r: string | undefined = ref; r !== undefined && !seen.has(r); r = refOf(dictOf(g, { ref: r })?.Parent)) {
    seen.add(r);
    const ff = dictOf(g, { ref: r })?.Ff;
    if (typeof ff === 'number') return (ff & 1) === 1;
  }
  return false;
}

/**
 * The change of a read-only field's value or appearance (castpress's mark fields and placeholder
 * signature fields are read-only: a signer's revision fills them, and its signature vouches), or of
 * the appearance of a signature field already signed (what a later signer must never redraw).
 */
function readOnlyFill(g: RevisionGraph, ref: string, what: string): Finding | undefined {
  if (fieldType(g, ref) === 'Sig' && signatureValueOf(g, ref) !== undefined)
    return { level: 'other', what: `${what} of a signed signature field replaced` };
  if (!isReadOnly(g, ref)) return undefined;
  return { level: 'other', what: `read-only field ${what}`, readOnly: true };
}

/** The value (/V) of a field or of its parent field. */
function signatureValueOf(g: RevisionGraph, ref: string): PdfValue | undefined {
  const seen = new Set<string>();
  for (let r: string | undefined = ref; r !== undefined && !seen.has(r); r = refOf(dictOf(g, { ref: r })?.Parent)) {
    seen.add(r);
    const v = dictOf(g, { ref: r })?.V;
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/** A signature field whose value is a document timestamp. */
function isTimestampField(g: RevisionGraph, ref: string): boolean {
  return nameOf(dictOf(g, dictOf(g, { ref })?.V)?.Type) === 'DocTimeStamp';
}

function signatureFieldAdded(ctx: Ctx, ref: string): Finding {
  if (fieldType(ctx.b, ref) !== 'Sig') return { level: 'other', what: 'form field added' };
  const signed = dictOf(ctx.b, dictOf(ctx.b, { ref })?.V) !== undefined;
  // A new empty signature field (a place for a later signature) is part of signing, as pyHanko's
  // SigFieldCreationRule and Acrobat read ISO 32000-2 12.8.2.2 (castpress's marks on a
  // document signed elsewhere are such fields).
  if (!signed) return { level: FORM, what: 'empty signature field added' };
  const ts = isTimestampField(ctx.b, ref);
  return { level: FORM, what: ts ? 'document timestamp field added' : 'signature field added', ltv: ts };
}

function fieldsChange(ctx: Ctx, before: string[], after: string[]): Finding[] {
  const had = new Set(before);
  const has = new Set(after);
  const out: Finding[] = before
    .filter((r) => !has.has(r))
    .map(() => ({ level: 'other' as const, what: 'form field removed' }));
  for (const r of after) if (!had.has(r)) out.push(signatureFieldAdded(ctx, r));
  return out;
}

function acroformChange(ctx: Ctx, before: Dict | undefined, after: Dict | undefined): Finding[] {
  const x = before ?? {};
  const y = after ?? {};
  return changedKeys(x, y).flatMap((key): Finding[] => {
    if (key === 'Fields') return fieldsChange(ctx, refsIn(ctx.a, x.Fields), refsIn(ctx.b, y.Fields));
    if (key === 'SigFlags') return [{ level: FORM, what: 'form /SigFlags', ltv: true }];
    if (key === 'DR' || key === 'DA' || key === 'NeedAppearances') return [{ level: FORM, what: `form /${key}` }];
    return [{ level: 'other', what: `form /${key} changed` }];
  });
}

function annotsChange(ctx: Ctx, before: string[], after: string[]): Finding[] {
  const had = new Set(before);
  const has = new Set(after);
  const out: Finding[] = before
    .filter((r) => !has.has(r))
    .map(() => ({ level: 'annotations' as const, what: 'annotation removed' }));
  for (const ref of after) {
    if (had.has(ref)) continue;
    const widget = nameOf(dictOf(ctx.b, { ref })?.Subtype) === 'Widget';
    if (!widget) out.push({ level: 'annotations', what: 'annotation added' });
    else if (ctx.rb.get(ref)?.role !== 'field')
      out.push({ level: 'annotations', what: 'widget of no form field added' });
    else if (ctx.ra.has(ref)) out.push({ level: 'other', what: 'existing form field widget put on a page' });
    else if (fieldType(ctx.b, ref) === 'Sig')
      out.push({
        level: FORM,
        what: 'signature widget added',
        ltv: isTimestampField(ctx.b, ref) || isTimestampField(ctx.b, refOf(dictOf(ctx.b, { ref })?.Parent) ?? ref),
      });
    else out.push({ level: 'other', what: 'form field widget added' });
  }
  return out;
}

/** Keys of a field or widget that form filling may change. */
const FILL_KEYS = new Set(['V', 'AS', 'AP', 'MK']);

/**
 * Keys of an empty signature field's widget that signing it may change: signers that fill an
 * existing field (@libpdf/core among them) make its widget invisible (/Rect [0 0 0 0], /F print).
 */
const SIGN_WIDGET_KEYS = new Set(['Rect', 'F', 'P', 'Type', 'Subtype']);

function fieldChange(ctx: Ctx, ref: string, x: Dict, y: Dict): Finding[] {
  const sig = fieldType(ctx.a, ref) === 'Sig';
  const signedNow = sig && (x.V === undefined || x.V === null) && y.V !== undefined && y.V !== null;
  return changedKeys(x, y).flatMap((key): Finding[] => {
    // An absent /Ff is 0 (pdf-lib writes the 0 when it fills a field).
    if (key === 'Ff' && (x.Ff ?? 0) === (y.Ff ?? 0)) return [];
    if (signedNow && SIGN_WIDGET_KEYS.has(key))
      return [{ level: FORM, what: `widget /${key} of the signature field signed` }];
    return [fieldKeyChange(ctx, ref, key, x, sig)];
  });
}

function fieldKeyChange(ctx: Ctx, ref: string, key: string, x: Dict, sig: boolean): Finding {
  {
    if (key === 'V' && sig) {
      if (x.V !== undefined && x.V !== null)
        return { level: 'other', what: 'signed signature field given another value' };
      const ts = isTimestampField(ctx.b, ref);
      return {
        level: FORM,
        what: ts ? 'document timestamp in an existing field' : 'existing signature field signed',
        ltv: ts,
      };
    }
    if (FILL_KEYS.has(key)) {
      const what = key === 'V' ? 'field value' : `widget /${key}`;
      return readOnlyFill(ctx.a, ref, what) ?? { level: FORM, what };
    }
    return { level: 'other', what: `form field /${key} changed` };
  }
}

/** Usage rights (/Perms /UR, /UR3: Reader-enabling) dropped, the rest of /Perms (DocMDP) kept: what editing in a tool other than Acrobat does. */
function permsChange(ctx: Ctx, before: PdfValue | undefined, after: PdfValue | undefined): Finding {
  const x = dictOf(ctx.a, before) ?? {};
  const y = dictOf(ctx.b, after) ?? {};
  const keys = changedKeys(x, y);
  if (keys.every((k) => (k === 'UR' || k === 'UR3') && y[k] === undefined))
    return { level: FORM, what: 'usage rights (/Perms /UR3) removed' };
  return { level: 'other', what: 'catalog /Perms changed' };
}

function changed(ctx: Ctx, ref: string, old: PdfObjectSnapshot, now: PdfObjectSnapshot, role: ObjectRole): Finding {
  const x = dictValue(old);
  const y = dictValue(now);
  switch (role.role) {
    case 'catalog':
      return worst(
        changedKeys(x, y).flatMap((key): Finding[] => {
          if (key === 'DSS') return [{ level: FORM, what: 'DSS', ltv: true }];
          if (key === 'AcroForm') return acroformChange(ctx, dictOf(ctx.a, x.AcroForm), dictOf(ctx.b, y.AcroForm));
          if (key === 'Perms') return [permsChange(ctx, x.Perms, y.Perms)];
          // What other signing tools refresh when they write an update (pyHanko: /Version when its
          // output version is higher, /Extensions for the extensions it uses, the XMP metadata).
          if (key === 'Version' || key === 'Extensions') return [{ level: FORM, what: `catalog /${key}` }];
          if (key === 'Metadata') return [{ level: FORM, what: 'XMP metadata' }];
          return [{ level: 'other', what: `catalog /${key} changed` }];
        }),
      );
    case 'acroform':
      return worst(acroformChange(ctx, x, y));
    case 'page':
      return worst(
        changedKeys(x, y).flatMap((key) =>
          key === 'Annots'
            ? annotsChange(ctx, refsIn(ctx.a, x.Annots), refsIn(ctx.b, y.Annots))
            : [{ level: 'other' as const, what: `page /${key} changed` }],
        ),
      );
    case 'annots':
      return worst(annotsChange(ctx, refsIn(ctx.a, { ref }), refsIn(ctx.b, { ref })));
    case 'pages':
      return { level: 'other', what: 'page tree changed (pages added, removed or moved)' };
    case 'content':
      return { level: 'other', what: 'page content changed' };
    case 'pageResource':
      return { level: 'other', what: 'page resources changed' };
    case 'field':
      return worst(fieldChange(ctx, ref, x, y));
    case 'signatureValue':
      return { level: 'other', what: 'signature dictionary of an earlier signature changed' };
    case 'annotation':
      return { level: 'annotations', what: 'annotation changed' };
    case 'appearance':
      return ctx.ra.get(role.owner ?? '')?.role === 'field'
        ? (readOnlyFill(ctx.a, role.owner!, 'appearance') ?? { level: FORM, what: 'field appearance' })
        : { level: 'annotations', what: 'annotation appearance' };
    case 'formResource':
      return { level: FORM, what: 'form default resources' };
    case 'dss':
      return { level: FORM, what: 'DSS', ltv: true };
    case 'info':
      return { level: FORM, what: 'document information' };
    case 'metadata':
      return { level: FORM, what: 'XMP metadata' };
    case 'perms':
      return { level: 'other', what: 'document permissions changed' };
    case 'document':
      return { level: 'other', what: 'document-level object changed' };
  }
}

function added(ctx: Ctx, ref: string, role: ObjectRole): Finding {
  switch (role.role) {
    case 'signatureValue': {
      const ts = nameOf(dictValue(ctx.b.objects.get(ref)).Type) === 'DocTimeStamp';
      return { level: FORM, what: ts ? 'document timestamp' : 'signature', ltv: ts };
    }
    case 'field':
      return signatureFieldAdded(ctx, ref);
    case 'annotation':
      return { level: 'annotations', what: 'annotation added' };
    case 'appearance': {
      const owner = role.owner ?? '';
      if (ctx.rb.get(owner)?.role !== 'field') return { level: 'annotations', what: 'annotation appearance' };
      const ts = isTimestampField(ctx.b, owner);
      const locked = ctx.ra.has(owner) ? readOnlyFill(ctx.a, owner, 'appearance') : undefined;
      return locked ?? { level: FORM, what: 'field appearance', ltv: ts };
    }
    case 'dss':
      return { level: FORM, what: 'DSS', ltv: true };
    case 'acroform':
    case 'annots':
      return { level: 'none', what: '', ltv: true }; // judged where the catalog or page points at it
    case 'formResource':
      return { level: FORM, what: 'form default resources' };
    case 'info':
      return { level: FORM, what: 'document information' };
    case 'metadata':
      return { level: FORM, what: 'XMP metadata' };
    case 'page':
      return { level: 'other', what: 'page added' };
    case 'pages':
      return { level: 'other', what: 'page tree node added' };
    case 'content':
      return { level: 'other', what: 'page content added' };
    case 'pageResource':
      return { level: 'other', what: 'page resource added' };
    case 'catalog':
      return { level: 'other', what: 'document catalog replaced' };
    case 'perms':
      return { level: 'other', what: 'document permissions added' };
    case 'document':
      return { level: 'other', what: 'document-level object added' };
  }
}

/** Every change from revision `a` to the later revision `b`, judged; `ra`, `rb` are their roles (rolesOf). */
export function compareRevisions(
  a: RevisionGraph,
  b: RevisionGraph,
  ra: Map<string, ObjectRole>,
  rb: Map<string, ObjectRole>,
): RevisionDiff {
  const ctx: Ctx = { a, b, ra, rb };
  const changes: ObjectChange[] = [];
  if (a.root !== b.root)
    changes.push({
      object: b.root ?? '?',
      change: 'changed',
      role: 'catalog',
      level: 'other',
      what: 'trailer /Root points at another catalog',
      ltv: false,
    });
  for (const [ref, now] of b.objects) {
    const old = a.objects.get(ref);
    // The same snapshot: a later revision read over this one left the object alone (no hashing needed).
    if (old === now || old?.text === now.text) continue;
    const role = old ? (ctx.ra.get(ref) ?? ctx.rb.get(ref)) : ctx.rb.get(ref);
    if (!role) continue; // reached from nothing: shows nothing
    const f = old ? changed(ctx, ref, old, now, role) : added(ctx, ref, role);
    if (f.level === 'none') continue;
    changes.push({
      object: ref,
      change: old ? 'changed' : 'added',
      role: role.role,
      level: f.level,
      what: f.what,
      ltv: f.ltv === true,
      ...(f.readOnly ? { readOnly: true as const } : {}),
    });
  }
  // An object the signed revision reached that is gone (its entry freed): judged as emptied.
  for (const [ref, old] of a.objects) {
    if (b.objects.has(ref)) continue;
    const role = ctx.ra.get(ref);
    if (!role) continue;
    const f = changed(ctx, ref, old, { value: null, text: 'null' }, role);
    if (f.level === 'none') continue;
    changes.push({
      object: ref,
      change: 'removed',
      role: role.role,
      level: f.level,
      what: `${f.what} (removed)`,
      ltv: false,
    });
  }
  let level: ChangeLevel = 'none';
  for (const c of changes) if (LEVEL_RANK[c.level] > LEVEL_RANK[level]) level = c.level;
  return { level, changes };
}
