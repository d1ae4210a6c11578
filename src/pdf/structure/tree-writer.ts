/**
 * A structure tree for a document castpress draws itself (Markdown): callers build a tree of elements,
 * mark what they draw for an element as marked content with an MCID, and `finish` writes the
 * StructTreeRoot, the ParentTree, each page's /StructParents, /MarkInfo and /Lang (ISO 32000-1 §14.7).
 */
import {
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames as Ops,
  PDFString,
  endMarkedContent,
  type PDFDocument,
  type PDFObject,
  type PDFPage,
  type PDFRef,
} from '@cantoo/pdf-lib';
import { drawArtifact, type ArtifactType } from './artifacts.js';
import { numberTree } from './trees.js';

/** Standard structure types (§14.8.4) castpress writes; no role map is needed. */
export type StructRole =
  | 'Document'
  | 'P'
  | 'H1'
  | 'H2'
  | 'H3'
  | 'H4'
  | 'H5'
  | 'H6'
  | 'L'
  | 'LI'
  | 'Lbl'
  | 'LBody'
  | 'Table'
  | 'THead'
  | 'TBody'
  | 'TR'
  | 'TH'
  | 'TD'
  | 'Figure'
  | 'BlockQuote'
  | 'Code'
  | 'Link';

/** What an element holds, in reading order: elements, marked content on a page, annotations. */
export type StructKid =
  StructElement | { kind: 'content'; page: PDFRef; mcid: number } | { kind: 'annotation'; page: PDFRef; annot: PDFRef };

export interface StructElement {
  role: StructRole;
  /** Alternate description (/Alt): figures. */
  alt?: string;
  /** Table header scope (/A << /O /Table /Scope … >>). */
  scope?: 'Column' | 'Row';
  kids: StructKid[];
}

/** A new element of `role`, appended to `parent` when one is given. */
export function structElement(
  role: StructRole,
  parent?: StructElement,
  extra: Partial<StructElement> = {},
): StructElement {
  const elem: StructElement = { role, kids: [], ...extra };
  parent?.kids.push(elem);
  return elem;
}

const isElement = (k: StructKid): k is StructElement => 'role' in k;

/** Whether `elem` or anything below it holds content (empty elements are not written). */
function hasContent(elem: StructElement): boolean {
  return elem.kids.some((k) => !isElement(k) || hasContent(k));
}

/** Marked content and annotations tied to elements as they are drawn; the tree written by `finish`. */
export class StructureWriter {
  readonly root: StructElement = structElement('Document');
  readonly #doc: PDFDocument;
  readonly #mcids = new Map<PDFRef, number>();
  readonly #open = new Set<PDFRef>();

  constructor(doc: PDFDocument) {
    this.#doc = doc;
  }

  /** Opens marked content for `elem` on `page` (closed by `end`); sequences do not nest. */
  begin(page: PDFPage, elem: StructElement): void {
    if (this.#open.has(page.ref)) this.end(page);
    const mcid = this.#mcids.get(page.ref) ?? 0;
    this.#mcids.set(page.ref, mcid + 1);
    elem.kids.push({ kind: 'content', page: page.ref, mcid });
    page.pushOperators(PDFOperator.of(Ops.BeginMarkedContentSequence, [PDFName.of(elem.role), `<< /MCID ${mcid} >>`]));
    this.#open.add(page.ref);
  }

  /** Closes the marked content open on `page`, if any. */
  end(page: PDFPage): void {
    if (!this.#open.delete(page.ref)) return;
    page.pushOperators(endMarkedContent());
  }

  /** Draws `draw` on `page` as content of `elem`. */
  tagged(page: PDFPage, elem: StructElement, draw: () => void): void {
    this.begin(page, elem);
    draw();
    this.end(page);
  }

  /** Draws `draw` on `page` as an artifact, outside any tagged content. */
  artifact(page: PDFPage, type: ArtifactType, draw: () => void): void {
    this.end(page);
    drawArtifact(page, type, draw);
  }

  /** Ties an annotation on `page` to `elem` (an object reference in the element, /StructParent on the annotation). */
  annotation(page: PDFPage, elem: StructElement, annot: PDFRef): void {
    elem.kids.push({ kind: 'annotation', page: page.ref, annot });
  }

  /** Writes the tree: StructTreeRoot, ParentTree, /StructParents, /MarkInfo, /Lang, and /Tabs /S on every page. */
  finish(options: { lang?: string } = {}): void {
    const doc = this.#doc;
    const ctx = doc.context;
    const rootRef = ctx.nextRef();
    const pages = doc.getPages();
    const byPage = new Map<PDFRef, PDFRef[]>();
    const parentEntries: Array<[number, PDFObject]> = [];
    let nextKey = pages.length;

    const write = (elem: StructElement, parent: PDFRef): PDFRef | undefined => {
      if (!hasContent(elem)) return undefined;
      const ref = ctx.nextRef();
      const firstPage = elem.kids.find((k) => !isElement(k) && k.kind === 'content');
      const pg = firstPage && !isElement(firstPage) ? firstPage.page : undefined;
      const kids: PDFObject[] = [];
      for (const kid of elem.kids) {
        if (isElement(kid)) {
          const child = write(kid, ref);
          if (child) kids.push(child);
        } else if (kid.kind === 'content') {
          const list = byPage.get(kid.page) ?? [];
          list[kid.mcid] = ref;
          byPage.set(kid.page, list);
          kids.push(kid.page === pg ? PDFNumber.of(kid.mcid) : ctx.obj({ Type: 'MCR', Pg: kid.page, MCID: kid.mcid }));
        } else {
          const annot = ctx.lookup(kid.annot);
          if (annot instanceof PDFDict) annot.set(PDFName.of('StructParent'), PDFNumber.of(nextKey));
          parentEntries.push([nextKey++, ref]);
          kids.push(ctx.obj({ Type: 'OBJR', Obj: kid.annot, Pg: kid.page }));
        }
      }
      const dict = ctx.obj({ Type: 'StructElem', S: elem.role, P: parent });
      if (pg) dict.set(PDFName.of('Pg'), pg);
      if (elem.alt !== undefined) dict.set(PDFName.of('Alt'), PDFHexString.fromText(elem.alt));
      if (elem.scope) dict.set(PDFName.of('A'), ctx.obj({ O: 'Table', Scope: elem.scope }));
      dict.set(PDFName.of('K'), kids.length === 1 ? kids[0]! : ctx.obj(kids));
      ctx.assign(ref, dict);
      return ref;
    };

    const top = write(this.root, rootRef);
    pages.forEach((page, i) => {
      page.node.set(PDFName.of('Tabs'), PDFName.of('S'));
      const elems = byPage.get(page.ref);
      if (!elems) return;
      page.node.set(PDFName.of('StructParents'), PDFNumber.of(i));
      parentEntries.push([i, ctx.obj(elems)]);
    });
    const root = ctx.obj({
      Type: 'StructTreeRoot',
      ...(top ? { K: top } : {}),
      ParentTree: ctx.register(numberTree(ctx, parentEntries)),
      ParentTreeNextKey: nextKey,
    });
    ctx.assign(rootRef, root);
    doc.catalog.set(PDFName.of('StructTreeRoot'), rootRef);
    doc.catalog.set(PDFName.of('MarkInfo'), ctx.obj({ Marked: true }));
    if (options.lang) doc.catalog.set(PDFName.of('Lang'), PDFString.of(options.lang));
  }
}
