/**
 * Reading a tagged PDF back as assistive technology and PDF/UA checkers do: the structure tree per page
 * (pdfjs `getStructTree`), the marked content every painting operator sits in (pdfjs operator lists,
 * form XObjects inlined), and the structure tree's bookkeeping (ParentTree, /Pg, MCIDs) read with pdf-lib.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFString,
  PDFHexString,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { openPdf, withTempFile } from './pdf.js';

const run = promisify(execFile);

export interface StructNode {
  role?: string;
  alt?: string;
  lang?: string;
  children?: Array<StructNode | { type: 'content' | 'object' | 'annotation'; id: string }>;
}

/** pdfjs's structure tree of every page (null for a page with none). */
export async function structTrees(pdf: Uint8Array): Promise<Array<StructNode | null>> {
  const doc = await openPdf(pdf);
  try {
    const out: Array<StructNode | null> = [];
    for (let i = 1; i <= doc.numPages; i++)
      out.push((await (await doc.getPage(i)).getStructTree()) as StructNode | null);
    return out;
  } finally {
    await doc.destroy();
  }
}

/** Roles of a tree in depth-first order, each with its alt text when it has one. */
export function roles(node: StructNode | null): string[] {
  if (!node) return [];
  const own =
    node.role && node.role !== 'Root' ? [node.alt !== undefined ? `${node.role}[${node.alt}]` : node.role] : [];
  return [...own, ...(node.children ?? []).flatMap((c) => ('role' in c || 'children' in c ? roles(c) : []))];
}

const PAINTING = new Set<number>([
  OPS.showText,
  OPS.showSpacedText,
  OPS.nextLineShowText,
  OPS.nextLineSetSpacingShowText,
  OPS.shadingFill,
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintImageMaskXObject,
  OPS.paintImageXObjectRepeat,
  OPS.paintSolidColorImageMask,
]);
const PATH_PAINT = new Set<number>([
  OPS.stroke,
  OPS.closeStroke,
  OPS.fill,
  OPS.eoFill,
  OPS.fillStroke,
  OPS.eoFillStroke,
  OPS.closeFillStroke,
  OPS.closeEOFillStroke,
]);

/**
 * Per page: how many painting operators lie in no marked content with an MCID and in no artifact
 * (PDF/UA-1 §7.1: content is either real content tagged in the structure tree or an artifact),
 * and how many lie in artifacts.
 */
export async function paintingCoverage(
  pdf: Uint8Array,
): Promise<Array<{ untagged: number; artifact: number; tagged: number }>> {
  const doc = await openPdf(pdf);
  try {
    const out: Array<{ untagged: number; artifact: number; tagged: number }> = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const ops = await (await doc.getPage(i)).getOperatorList();
      const stack: Array<'artifact' | 'tagged' | 'other'> = [];
      const counts = { untagged: 0, artifact: 0, tagged: 0 };
      // Annotation appearances are not page content: the annotation itself is tied to the tree (OBJR).
      let inAnnotation = 0;
      ops.fnArray.forEach((fn, k) => {
        const args = ops.argsArray[k] as unknown[] | null;
        if (fn === OPS.beginAnnotation) inAnnotation++;
        else if (fn === OPS.endAnnotation) inAnnotation--;
        if (inAnnotation > 0) return;
        // BMC's tag comes as a Name object ({ name }), BDC's as a string.
        const tag = (args?.[0] as { name?: string } | undefined)?.name ?? args?.[0];
        if (fn === OPS.beginMarkedContent) stack.push(tag === 'Artifact' ? 'artifact' : 'other');
        else if (fn === OPS.beginMarkedContentProps)
          stack.push(tag === 'Artifact' ? 'artifact' : typeof args?.[1] === 'number' ? 'tagged' : 'other');
        else if (fn === OPS.endMarkedContent) stack.pop();
        else if (PAINTING.has(fn) || (fn === OPS.constructPath && PATH_PAINT.has(args?.[0] as number))) {
          const inner = stack.findLast((s) => s !== 'other');
          counts[inner === undefined ? 'untagged' : inner]++;
        }
      });
      out.push(counts);
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

/** The MCIDs each page's content marks (pdfjs operator list, XObjects inlined). */
async function contentMcids(pdf: Uint8Array): Promise<Array<Set<number>>> {
  const doc = await openPdf(pdf);
  try {
    const out: Array<Set<number>> = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const ops = await (await doc.getPage(i)).getOperatorList();
      const ids = new Set<number>();
      ops.fnArray.forEach((fn, k) => {
        const mcid = (ops.argsArray[k] as unknown[] | null)?.[1];
        if (fn === OPS.beginMarkedContentProps && typeof mcid === 'number') ids.add(mcid);
      });
      out.push(ids);
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

export interface StructureCheck {
  /** Problems found; empty when the tree and the content agree. */
  problems: string[];
  /** Catalog /Lang and /MarkInfo /Marked. */
  lang?: string;
  marked: boolean;
  /** Element count by role (/S) over the whole tree. */
  roles: Record<string, number>;
  /** Annotations the tree names (OBJR). */
  annotations?: number;
}

function text(o: PDFObject | undefined): string | undefined {
  return o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined;
}

/**
 * Walks the structure tree from StructTreeRoot and checks its bookkeeping against the pages: every
 * /Pg is a page of the document, every MCID an element claims is marked on that page, every MCID a page
 * marks is claimed by exactly one element, and the ParentTree maps (page's /StructParents, MCID) back to
 * that element.
 */
export async function checkStructure(pdf: Uint8Array): Promise<StructureCheck> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const ctx = doc.context;
  const problems: string[] = [];
  const pages = doc.getPages();
  const pageIndex = new Map<PDFRef, number>(pages.map((p, i) => [p.ref, i]));
  const root = doc.catalog.lookup(PDFName.of('StructTreeRoot'));
  const markInfo = doc.catalog.lookup(PDFName.of('MarkInfo'));
  const marked = markInfo instanceof PDFDict && markInfo.get(PDFName.of('Marked'))?.toString() === 'true';
  const lang = text(doc.catalog.lookup(PDFName.of('Lang')));
  const counts: Record<string, number> = {};
  const claimed = new Map<string, PDFRef>();
  /** Annotation → the element whose OBJR names it. */
  const objrs = new Map<PDFRef, PDFRef>();
  if (!(root instanceof PDFDict))
    return { problems: ['no StructTreeRoot'], marked, ...(lang ? { lang } : {}), roles: counts };
  const claim = (page: PDFObject | undefined, mcid: number, elem: PDFRef): void => {
    const i = page instanceof PDFRef ? pageIndex.get(page) : undefined;
    if (i === undefined) return void problems.push(`MCID ${mcid} of ${elem.toString()} on no page of the document`);
    const key = `${i}:${mcid}`;
    if (claimed.has(key)) problems.push(`MCID ${mcid} on page ${i + 1} claimed twice`);
    claimed.set(key, elem);
  };
  const seen = new Set<PDFRef>();
  const walk = (ref: PDFObject, depth: number): void => {
    if (!(ref instanceof PDFRef) || seen.has(ref) || depth > 200) return;
    seen.add(ref);
    const elem = ctx.lookup(ref);
    if (!(elem instanceof PDFDict)) return void problems.push(`${ref.toString()} is not a dictionary`);
    const s = elem.lookup(PDFName.of('S'));
    if (s instanceof PDFName) counts[s.decodeText()] = (counts[s.decodeText()] ?? 0) + 1;
    const pg = elem.get(PDFName.of('Pg'));
    if (pg !== undefined && !(pg instanceof PDFRef && pageIndex.has(pg)))
      problems.push(`${ref.toString()} /Pg is not a page of the document`);
    const k = elem.get(PDFName.of('K'));
    for (const kid of k instanceof PDFArray ? k.asArray() : k === undefined ? [] : [k]) {
      if (kid instanceof PDFNumber) claim(pg, kid.asNumber(), ref);
      else {
        const d = kid instanceof PDFRef ? ctx.lookup(kid) : kid;
        const type = d instanceof PDFDict ? d.lookup(PDFName.of('Type')) : undefined;
        if (d instanceof PDFDict && type === PDFName.of('MCR')) {
          const id = d.lookup(PDFName.of('MCID'));
          if (id instanceof PDFNumber) claim(d.get(PDFName.of('Pg')) ?? pg, id.asNumber(), ref);
        } else if (d instanceof PDFDict && type === PDFName.of('OBJR')) {
          const obj = d.get(PDFName.of('Obj'));
          if (obj instanceof PDFRef) objrs.set(obj, ref);
        } else walk(kid, depth + 1);
      }
    }
  };
  const top = root.get(PDFName.of('K'));
  for (const kid of top instanceof PDFArray ? top.asArray() : top ? [top] : []) walk(kid, 0);

  const marks = await contentMcids(pdf);
  marks.forEach((ids, i) => {
    for (const id of ids)
      if (!claimed.has(`${i}:${id}`)) problems.push(`page ${i + 1} MCID ${id} belongs to no element`);
  });
  const parents = new Map<number, PDFObject>();
  const walkNums = (node: PDFObject | undefined): void => {
    const d = node instanceof PDFRef ? ctx.lookup(node) : node;
    if (!(d instanceof PDFDict)) return;
    const nums = d.lookup(PDFName.of('Nums'));
    if (nums instanceof PDFArray)
      for (let j = 0; j + 1 < nums.size(); j += 2)
        parents.set((nums.lookup(j) as PDFNumber).asNumber(), nums.get(j + 1));
    const kids = d.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray) kids.asArray().forEach(walkNums);
  };
  walkNums(root.get(PDFName.of('ParentTree')));
  for (const [key, elem] of claimed) {
    const [i, mcid] = key.split(':').map(Number) as [number, number];
    if (!marks[i]!.has(mcid)) problems.push(`page ${i + 1} MCID ${mcid} is claimed but not in the content`);
    const sp = pages[i]!.node.lookup(PDFName.of('StructParents'));
    const entry = sp instanceof PDFNumber ? parents.get(sp.asNumber()) : undefined;
    const arr = entry instanceof PDFRef ? ctx.lookup(entry) : entry;
    if (!(arr instanceof PDFArray) || arr.get(mcid) !== elem)
      problems.push(`ParentTree does not map page ${i + 1} MCID ${mcid} to its element`);
  }
  // Every annotation tied to the tree (/StructParent) maps back to the element that names it, and the other way round.
  for (const page of pages) {
    const annots = page.node.lookup(PDFName.of('Annots'));
    for (const a of annots instanceof PDFArray ? annots.asArray() : []) {
      const annot = ctx.lookup(a);
      const sp = annot instanceof PDFDict ? annot.lookup(PDFName.of('StructParent')) : undefined;
      const owner = a instanceof PDFRef ? objrs.get(a) : undefined;
      if (sp === undefined && owner === undefined) continue;
      if (!(sp instanceof PDFNumber) || owner === undefined || parents.get(sp.asNumber()) !== owner)
        problems.push(`annotation ${a.toString()} and its structure element do not name each other`);
    }
  }
  return { problems, marked, ...(lang ? { lang } : {}), roles: counts, annotations: objrs.size };
}

/** Text of each page with the marked content it is drawn in: the innermost tag with an MCID, else Artifact, else none. */
export async function textMarks(pdf: Uint8Array): Promise<Array<Array<{ str: string; in: string }>>> {
  const doc = await openPdf(pdf);
  try {
    const out: Array<Array<{ str: string; in: string }>> = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent({ includeMarkedContent: true });
      const stack: string[] = [];
      const items: Array<{ str: string; in: string }> = [];
      for (const item of content.items as Array<{ type?: string; tag?: string; id?: string | null; str?: string }>) {
        if (item.type === 'beginMarkedContent' || item.type === 'beginMarkedContentProps')
          stack.push(item.tag === 'Artifact' ? 'Artifact' : item.id ? (item.tag ?? '?') : '');
        else if (item.type === 'endMarkedContent') stack.pop();
        else if (item.str?.trim()) items.push({ str: item.str, in: stack.findLast((t) => t !== '') ?? 'none' });
      }
      out.push(items);
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

/** pdfinfo's "Tagged:" line (poppler's reading of /MarkInfo). */
export async function pdfinfoTagged(pdf: Uint8Array): Promise<string> {
  return withTempFile(pdf, async (file) => {
    const { stdout } = await run('pdfinfo', [file]);
    return /^Tagged:\s*(\S+)/m.exec(stdout)?.[1] ?? '';
  });
}

/** The /Contents (description) of every link annotation, page by page. */
export async function linkDescriptions(pdf: Uint8Array): Promise<Array<string | undefined>> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const out: Array<string | undefined> = [];
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(PDFName.of('Annots'));
    for (const a of annots instanceof PDFArray ? annots.asArray() : []) {
      const annot = doc.context.lookup(a);
      if (annot instanceof PDFDict && annot.lookup(PDFName.of('Subtype')) === PDFName.of('Link'))
        out.push(text(annot.lookup(PDFName.of('Contents'))));
    }
  }
  return out;
}
