import type { AppearanceChecks } from '../../acroform/index.js';
import { createHash } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFStream,
  type PDFDocument,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { InvalidPdfError } from '../../errors/index.js';
import { frameOf, openForUpdate } from '../../pdf/index.js';
import { LayoutCache } from './layout-cache.js';

import type { PageFrame } from '../../pdf/index.js';

export type { PageFrame, Rotation } from '../../pdf/index.js';

export interface PreparedAnnotation {
  /** The entry of /Annots as stored (usually a reference). */
  entry: PDFObject;
  dict?: PDFDict;
  widget: boolean;
}

export interface PreparedPage {
  ref: PDFRef;
  /** The page's own parent node (kept when the page tree is left as it is). */
  parent?: PDFObject;
  /** Own entries without Parent, Contents, Resources, Annots; inherited boxes and Rotate made explicit. */
  entries: Array<[PDFName, PDFObject]>;
  contents: PDFObject[];
  /** Resource entries; Font, XObject and ExtGState resolved to dictionaries (they are copied per fill). */
  resources: Array<[PDFName, PDFObject]>;
  annotations: PreparedAnnotation[];
  frame: PageFrame;
}

/** A template PDF parsed once: everything a fill needs to write its output as an update of these bytes. */
export interface PreparedTemplate {
  /** The bytes the output starts with: the template itself, or a clean copy when it could not take an update. */
  base: Uint8Array;
  startXRef: number;
  xrefStream: boolean;
  /** New objects are numbered above this. */
  largestObjectNumber: number;
  catalogRef: PDFRef;
  catalogEntries: Array<[PDFName, PDFObject]>;
  pagesRootRef: PDFRef;
  infoRef?: PDFRef;
  infoEntries: Array<[PDFName, PDFObject]>;
  id?: PDFObject;
  pages: PreparedPage[];
  /** The parsed document (read-only after preparation). */
  doc: PDFDocument;
}

const N = {
  Parent: PDFName.of('Parent'),
  Contents: PDFName.of('Contents'),
  Resources: PDFName.of('Resources'),
  Annots: PDFName.of('Annots'),
  MediaBox: PDFName.of('MediaBox'),
  CropBox: PDFName.of('CropBox'),
  Rotate: PDFName.of('Rotate'),
  Subtype: PDFName.of('Subtype'),
  Widget: PDFName.of('Widget'),
  Pages: PDFName.of('Pages'),
};

/** Resource categories pdf-lib adds entries to: these are copied per output page. */
export const COPIED_RESOURCES = ['Font', 'XObject', 'ExtGState'].map((n) => PDFName.of(n));

async function prepareTemplate(bytes: Uint8Array): Promise<PreparedTemplate> {
  // The kernel opens it: decrypted or repaired files are written out once and later fills update that copy.
  const opened = await openForUpdate(bytes, 'template.pdf');
  const doc = opened.doc;
  const ctx = doc.context;

  const catalogRef = ctx.trailerInfo.Root;
  const pagesRootRef = doc.catalog.get(N.Pages);
  if (!(catalogRef instanceof PDFRef) || !(pagesRootRef instanceof PDFRef)) {
    throw new InvalidPdfError('The document catalog or page tree is not an indirect object', 'template.pdf');
  }
  const infoRef = ctx.trailerInfo.Info instanceof PDFRef ? ctx.trailerInfo.Info : undefined;
  const info = ctx.lookup(ctx.trailerInfo.Info);

  const pages = doc.getPages().map((page): PreparedPage => {
    const node = page.node;
    const entries: Array<[PDFName, PDFObject]> = [];
    for (const [k, v] of node.entries()) {
      if (
        k === N.Parent ||
        k === N.Contents ||
        k === N.Resources ||
        k === N.Annots ||
        k === N.MediaBox ||
        k === N.CropBox ||
        k === N.Rotate
      )
        continue;
      entries.push([k, v]);
    }
    const mediaBox = node.MediaBox();
    const cropBox = node.CropBox();
    const rotateValue = node.Rotate()?.asNumber() ?? 0;
    entries.push([N.MediaBox, mediaBox]);
    if (cropBox) entries.push([N.CropBox, cropBox]);
    if (rotateValue) entries.push([N.Rotate, PDFNumber.of(rotateValue)]);

    const resources: Array<[PDFName, PDFObject]> = [];
    const res = node.Resources();
    if (res) {
      for (const [k, v] of res.entries()) {
        if (COPIED_RESOURCES.includes(k)) {
          const sub = ctx.lookup(v);
          if (sub instanceof PDFDict) resources.push([k, sub]);
        } else resources.push([k, v]);
      }
    }

    return {
      ref: page.ref,
      parent: node.get(N.Parent),
      entries,
      contents: contentsOf(doc, node.get(N.Contents)),
      resources,
      annotations: annotationsOf(doc, node.lookup(N.Annots)),
      frame: frameOf((cropBox ?? mediaBox).asRectangle(), rotateValue),
    };
  });

  return {
    base: opened.bytes,
    startXRef: opened.startXRef,
    xrefStream: opened.xrefStream,
    largestObjectNumber: opened.largestObjectNumber,
    catalogRef,
    catalogEntries: doc.catalog.entries(),
    pagesRootRef,
    infoRef,
    infoEntries: info instanceof PDFDict ? info.entries() : [],
    id: ctx.trailerInfo.ID,
    pages,
    doc,
  };
}

function contentsOf(doc: PDFDocument, contents: PDFObject | undefined): PDFObject[] {
  if (contents === undefined) return [];
  const resolved = doc.context.lookup(contents);
  if (resolved instanceof PDFStream) return contents instanceof PDFRef ? [contents] : [];
  if (resolved instanceof PDFArray) return resolved.asArray().filter((c) => c instanceof PDFRef);
  return [];
}

/** The page's annotations; an /Annots that is not an array, or an entry that is not a dictionary, is ignored (as viewers do). */
function annotationsOf(doc: PDFDocument, annots: PDFObject | undefined): PreparedAnnotation[] {
  if (!(annots instanceof PDFArray)) return [];
  return annots.asArray().flatMap((entry) => {
    const dict = doc.context.lookup(entry);
    return dict instanceof PDFDict ? [{ entry, dict, widget: dict.get(N.Subtype) === N.Widget }] : [];
  });
}

/**
 * Parsed templates, kept per engine so a fill costs what its data costs, not
 * what the template costs. Keyed by the bytes object (templates from a store
 * keep theirs), then by content hash for callers that pass fresh copies.
 * Also holds the engine's laid-out text (see LayoutCache).
 */
export class FillCache {
  readonly #byBytes = new WeakMap<Uint8Array, Promise<PreparedTemplate>>();
  readonly #byHash = new Map<string, Promise<PreparedTemplate>>();
  readonly maxEntries: number;
  /** Laid-out text shared by the engine's fills (same font registry). */
  readonly layouts = new LayoutCache();
  /** Whether a template's own widget appearances can draw, kept by their bytes (weakly: they go with the template). */
  readonly appearanceChecks: AppearanceChecks = new WeakMap();
  constructor(options: { maxEntries?: number } = {}) {
    this.maxEntries = options.maxEntries ?? 32;
  }

  get(bytes: Uint8Array): Promise<PreparedTemplate> {
    const known = this.#byBytes.get(bytes);
    if (known) return known;
    const hash = createHash('sha256').update(bytes).digest('hex');
    let pending = this.#byHash.get(hash);
    if (pending) {
      // Most recently used last.
      this.#byHash.delete(hash);
    } else {
      pending = prepareTemplate(bytes);
      pending.catch(() => {
        this.#byHash.delete(hash);
        this.#byBytes.delete(bytes);
      });
    }
    this.#byHash.set(hash, pending);
    this.#byBytes.set(bytes, pending);
    while (this.#byHash.size > this.maxEntries) {
      const oldest = this.#byHash.keys().next().value as string;
      this.#byHash.delete(oldest);
    }
    return pending;
  }
}
