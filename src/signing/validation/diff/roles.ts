/**
 * What each object of a revision is for, found by walking the document from its catalog: the
 * page tree and what pages draw (content, resources), the form's fields and widgets, annotations
 * and their appearances, signature values, the DSS. The difference analysis judges a changed
 * object by its role. Walk order decides an object reached twice: what pages draw first, so a
 * font shared by a page and a widget's appearance counts as page content.
 */
import type { PdfValue, RevisionGraph } from '../../../pdf/index.js';

export type Role =
  | 'catalog'
  | 'pages'
  | 'page'
  | 'content'
  | 'pageResource'
  | 'annots'
  | 'annotation'
  | 'field'
  | 'signatureValue'
  | 'appearance'
  | 'acroform'
  | 'formResource'
  | 'dss'
  | 'perms'
  | 'info'
  | 'metadata'
  | 'document';

export interface ObjectRole {
  role: Role;
  /** For an appearance: the annotation or widget whose /AP leads to it. */
  owner?: string;
}

export type Dict = Record<string, PdfValue>;

export function refOf(v: PdfValue | undefined): string | undefined {
  return v !== null && typeof v === 'object' && 'ref' in v ? v.ref : undefined;
}

export function nameOf(v: PdfValue | undefined): string | undefined {
  return v !== null && typeof v === 'object' && 'name' in v ? v.name : undefined;
}

/** `v` itself, or the object it refers to. */
export function resolve(g: RevisionGraph, v: PdfValue | undefined): PdfValue | undefined {
  const ref = refOf(v);
  return ref === undefined ? v : g.objects.get(ref)?.value;
}

export function dictOf(g: RevisionGraph, v: PdfValue | undefined): Dict | undefined {
  const r = resolve(g, v);
  return r !== null && typeof r === 'object' && r !== undefined && 'dict' in r ? r.dict : undefined;
}

function arrayOf(g: RevisionGraph, v: PdfValue | undefined): PdfValue[] | undefined {
  const r = resolve(g, v);
  return r !== null && typeof r === 'object' && r !== undefined && 'array' in r ? r.array : undefined;
}

/** The references in an array value (direct or indirect), in order. */
export function refsIn(g: RevisionGraph, v: PdfValue | undefined): string[] {
  return (arrayOf(g, v) ?? []).map(refOf).filter((r): r is string => r !== undefined);
}

/** A field's type, inherited through /Parent. */
export function fieldType(g: RevisionGraph, ref: string): string | undefined {
  const seen = new Set<string>();
  for (let r: string | undefined = ref; r !== undefined && !seen.has(r); r = refOf(dictOf(g, { ref: r })?.Parent)) {
    seen.add(r);
    const ft = nameOf(dictOf(g, { ref: r })?.FT);
    if (ft) return ft;
  }
  return undefined;
}

class Walker {
  readonly roles = new Map<string, ObjectRole>();
  constructor(readonly g: RevisionGraph) {}

  /** Marks `v` (when a reference not yet marked) and everything it reaches with `role`. */
  deep(v: PdfValue | undefined, role: Role, owner?: string): void {
    const stack: Array<PdfValue | undefined> = [v];
    while (stack.length) {
      const cur = stack.pop();
      if (cur === null || cur === undefined || typeof cur !== 'object') continue;
      if ('ref' in cur) {
        if (this.roles.has(cur.ref)) continue;
        const obj = this.g.objects.get(cur.ref);
        if (!obj) continue;
        this.roles.set(cur.ref, owner ? { role, owner } : { role });
        stack.push(obj.value);
      } else if ('array' in cur) stack.push(...cur.array);
      else if ('dict' in cur) stack.push(...Object.values(cur.dict));
    }
  }

  /** Marks the reference `v` alone; true when it was not marked yet. */
  mark(v: PdfValue | undefined, role: Role): boolean {
    const ref = refOf(v);
    if (ref === undefined || this.roles.has(ref) || !this.g.objects.has(ref)) return false;
    this.roles.set(ref, { role });
    return true;
  }

  pageTree(v: PdfValue | undefined, annots: string[]): void {
    const stack = [v];
    while (stack.length) {
      const node = stack.pop();
      const dict = dictOf(this.g, node);
      if (!dict) continue;
      const isPage = nameOf(dict.Type) === 'Page' || (dict.Kids === undefined && nameOf(dict.Type) !== 'Pages');
      if (!this.mark(node, isPage ? 'page' : 'pages') && refOf(node) !== undefined) continue;
      if (!isPage) {
        this.mark(dict.Kids, 'pages');
        stack.push(...(arrayOf(this.g, dict.Kids) ?? []));
        this.deep(dict.Resources, 'pageResource');
        continue;
      }
      this.mark(dict.Contents, 'content');
      for (const c of arrayOf(this.g, dict.Contents) ?? []) this.deep(c, 'content');
      this.deep(dict.Resources, 'pageResource');
      for (const key of ['Group', 'Thumb', 'B', 'Metadata', 'PieceInfo', 'SeparationInfo', 'VP', 'AA'])
        this.deep(dict[key], 'pageResource');
      this.mark(dict.Annots, 'annots');
      annots.push(...refsIn(this.g, dict.Annots));
    }
  }

  fields(acroform: Dict): void {
    const stack = refsIn(this.g, acroform.Fields).map((ref) => ({ ref }));
    while (stack.length) {
      const node = stack.pop()!;
      if (!this.mark(node, 'field')) continue;
      const dict = dictOf(this.g, node);
      if (!dict) continue;
      this.mark(dict.Kids, 'field');
      stack.push(...refsIn(this.g, dict.Kids).map((ref) => ({ ref })));
      this.deep(dict.AP, 'appearance', node.ref);
      if (fieldType(this.g, node.ref) === 'Sig') this.deep(dict.V, 'signatureValue');
    }
  }

  annotations(refs: string[]): void {
    for (const ref of refs) {
      this.mark({ ref }, 'annotation');
      const dict = dictOf(this.g, { ref });
      if (!dict) continue;
      this.deep(dict.AP, 'appearance', ref);
      this.deep(dict.Popup, 'annotation');
      if (nameOf(dict.Subtype) !== 'Widget') this.deep(dict.IRT, 'annotation');
    }
  }
}

/** The role of every object reachable from the catalog and the trailer's /Info. */
export function rolesOf(g: RevisionGraph): Map<string, ObjectRole> {
  const w = new Walker(g);
  const catalog = dictOf(g, g.root !== undefined ? { ref: g.root } : undefined);
  if (g.root !== undefined) w.mark({ ref: g.root }, 'catalog');
  if (g.info !== undefined) w.deep({ ref: g.info }, 'info');
  if (!catalog) return w.roles;
  const annots: string[] = [];
  w.pageTree(catalog.Pages, annots);
  const acroform = dictOf(g, catalog.AcroForm);
  w.mark(catalog.AcroForm, 'acroform');
  if (acroform) {
    w.fields(acroform);
    w.deep(acroform.DR, 'formResource');
  }
  w.annotations(annots);
  w.deep(catalog.DSS, 'dss');
  w.deep(catalog.Perms, 'perms');
  w.deep(catalog.Metadata, 'metadata');
  for (const [key, value] of Object.entries(catalog))
    if (!['Pages', 'AcroForm', 'DSS', 'Perms', 'Metadata'].includes(key)) w.deep(value, 'document');
  return w.roles;
}
