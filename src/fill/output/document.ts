import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFPage,
  PDFPageLeaf,
  PDFRef,
  type PDFDocument,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { PDF as N, UpdateSession } from '../../pdf/index.js';
import { COPIED_RESOURCES, type PreparedPage, type PreparedTemplate } from './prepared-template.js';

/** Page-dictionary entries that tie a page to one place in the document; copies drop them. */
const NOT_COPIED = [N.StructParents, N.B, N.Thumb];

export interface PageOptions {
  /** This is the first output page made from its template page: it keeps the template page's object number. */
  first: boolean;
  /** The template's page tree is kept: the page keeps its parent. */
  keepParent: boolean;
  /** Flat output: widget annotations (form fields) are left out. */
  dropWidgets: boolean;
  stripAnnotations: boolean;
}

export interface FinishOptions {
  /** Output pages in order. */
  pageRefs: PDFRef[];
  /** The output has exactly the template's pages in the template's order: its page tree stays. */
  keepPageTree: boolean;
  /** Flat output: the catalog's AcroForm (and XFA with it) is removed. */
  dropForm: boolean;
  /** A new AcroForm (interactive output written as an update) for the catalog. */
  acroForm?: PDFRef;
  title?: string;
}

/**
 * The output of one fill, an update session (src/pdf) over the template: new
 * page objects carry the template's object numbers where they replace template
 * pages (the first copy of each) and new numbers above the template's
 * otherwise. Only new or changed objects are written after the template's bytes.
 */
export class OutputDocument {
  readonly #session: UpdateSession;
  readonly #prepared: PreparedTemplate;

  private constructor(session: UpdateSession, prepared: PreparedTemplate) {
    this.#session = session;
    this.#prepared = prepared;
  }

  static async create(prepared: PreparedTemplate): Promise<OutputDocument> {
    const { base: bytes, doc, startXRef, xrefStream, largestObjectNumber } = prepared;
    return new OutputDocument(UpdateSession.over({ bytes, doc, startXRef, xrefStream, largestObjectNumber }), prepared);
  }

  /** The document being written: the template's objects are read through it, changes become the update. */
  get doc(): PDFDocument {
    return this.#session.doc;
  }

  /** A page made from template page `index`, ready to draw on. */
  addPage(index: number, options: PageOptions): PDFPage {
    const ctx = this.doc.context;
    const tp = this.#prepared.pages[index]!;
    const ref = options.first ? tp.ref : ctx.nextRef();
    const map = new Map<PDFName, PDFObject>();
    for (const [k, v] of tp.entries) {
      if (!options.first && NOT_COPIED.includes(k)) continue;
      map.set(k, v);
    }
    map.set(N.Type, N.Page);
    const parent = options.keepParent ? tp.parent : this.#prepared.pagesRootRef;
    if (parent) map.set(N.Parent, parent);
    map.set(N.Contents, ctx.obj(tp.contents));
    const resources = new Map<PDFName, PDFObject>();
    for (const [k, v] of tp.resources) {
      // pdf-lib adds fonts, images and graphics states to these: each page gets its own copy.
      resources.set(
        k,
        v instanceof PDFDict && COPIED_RESOURCES.includes(k)
          ? PDFDict.fromMapWithContext(new Map(v.entries()), ctx)
          : v,
      );
    }
    map.set(N.Resources, PDFDict.fromMapWithContext(resources, ctx));
    const annots = this.#annotations(tp, ref, options);
    if (annots.length > 0) map.set(N.Annots, ctx.obj(annots));
    const leaf = PDFPageLeaf.fromMapWithContext(map, ctx);
    ctx.assign(ref, leaf);
    return PDFPage.of(leaf, ref, this.doc);
  }

  #annotations(tp: PreparedPage, pageRef: PDFRef, options: PageOptions): PDFObject[] {
    if (options.stripAnnotations) return [];
    const ctx = this.doc.context;
    const out: PDFObject[] = [];
    for (const a of tp.annotations) {
      if (a.widget && options.dropWidgets) continue;
      if (options.first) {
        out.push(a.entry);
        continue;
      }
      // Copies of a page get copies of its annotations (links, notes); form widgets and popups belong to one page.
      if (!a.dict || a.widget || a.dict.get(N.Subtype) === N.Popup) continue;
      const copy = new Map(a.dict.entries());
      copy.delete(N.Popup);
      copy.set(N.P, pageRef);
      out.push(ctx.register(PDFDict.fromMapWithContext(copy, ctx)));
    }
    return out;
  }

  /** True when flat output or stripping changes this template page's annotations. */
  annotationsChange(index: number, options: Pick<PageOptions, 'dropWidgets' | 'stripAnnotations'>): boolean {
    const a = this.#prepared.pages[index]!.annotations;
    return options.stripAnnotations ? a.length > 0 : options.dropWidgets && a.some((x) => x.widget);
  }

  async finish(options: FinishOptions): Promise<Uint8Array> {
    const ctx = this.doc.context;
    const p = this.#prepared;
    if (!options.keepPageTree) {
      const kids = PDFArray.withContext(ctx);
      for (const ref of options.pageRefs) kids.push(ref);
      ctx.assign(p.pagesRootRef, ctx.obj({ Type: 'Pages', Kids: kids, Count: options.pageRefs.length }));
    }

    const catalog = this.doc.catalog;
    if (options.dropForm) {
      catalog.delete(N.AcroForm);
      catalog.delete(N.NeedsRendering);
    }
    if (options.acroForm) catalog.set(N.AcroForm, options.acroForm);
    // Usage rights are signed over the original bytes; after changes they would only raise warnings.
    catalog.delete(N.Perms);
    if (options.title !== undefined) {
      // Viewers prefer the XMP title to the Info title: a stale XMP packet would hide the new one.
      catalog.delete(N.Metadata);
      const info = new Map(p.infoEntries);
      info.set(N.Title, PDFHexString.fromText(options.title));
      const infoRef = p.infoRef ?? ctx.nextRef();
      ctx.assign(infoRef, PDFDict.fromMapWithContext(info, ctx));
      ctx.trailerInfo.Info = infoRef;
    }
    try {
      return await this.#session.commit();
    } finally {
      // The output is bytes now: what pdf-lib keeps of this fill until the next full GC should be nothing.
      this.#session.close();
    }
  }
}
