import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  type PDFDocument,
  type PDFRef,
} from '@cantoo/pdf-lib';

/** One bookmark: a heading (or any element with `bookmark-level`) and where it starts. */
export interface Bookmark {
  level: number;
  label: string;
  /** Closed items start collapsed in viewers (`bookmark-state: closed`). */
  open: boolean;
  page: number;
  /** Top of the element, PDF user space of its page (points from the bottom). */
  top: number;
}

interface Node {
  bookmark: Bookmark | null;
  children: Node[];
  ref?: PDFRef;
}

/**
 * The document outline from bookmarks in document order. Levels nest as in
 * WeasyPrint: an item goes under the nearest earlier item of a lower level
 * (a skipped level, h1 → h3, nests the h3 directly under the h1).
 */
export function addOutline(doc: PDFDocument, bookmarks: Bookmark[]): void {
  const pages = doc.getPages();
  const root: Node = { bookmark: null, children: [] };
  const stack: Array<{ level: number; node: Node }> = [{ level: 0, node: root }];
  for (const b of bookmarks) {
    if (!pages[b.page] || !b.label) continue;
    while (stack.length > 1 && stack[stack.length - 1]!.level >= b.level) stack.pop();
    const node: Node = { bookmark: b, children: [] };
    stack[stack.length - 1]!.node.children.push(node);
    stack.push({ level: b.level, node });
  }
  if (root.children.length === 0) return;
  const ctx = doc.context;
  const rootDict = ctx.obj({ Type: 'Outlines' });
  const rootRef = ctx.register(rootDict);
  // Count of an item: its visible descendants, negative when it is closed (ISO 32000-1 12.3.3).
  const build = (parentRef: PDFRef, parent: PDFDict, items: Node[]): number => {
    const refs = items.map(() => ctx.nextRef());
    let visible = 0;
    items.forEach((item, i) => {
      const b = item.bookmark!;
      const dest = PDFArray.withContext(ctx);
      dest.push(pages[b.page]!.ref);
      dest.push(PDFName.of('XYZ'));
      dest.push(PDFNull);
      dest.push(PDFNumber.of(Math.round(b.top * 100) / 100));
      dest.push(PDFNull);
      const dict = ctx.obj({});
      dict.set(PDFName.of('Title'), PDFHexString.fromText(b.label));
      dict.set(PDFName.of('Parent'), parentRef);
      dict.set(PDFName.of('Dest'), dest);
      if (i > 0) dict.set(PDFName.of('Prev'), refs[i - 1]!);
      if (i < items.length - 1) dict.set(PDFName.of('Next'), refs[i + 1]!);
      ctx.assign(refs[i]!, dict);
      const inner = item.children.length > 0 ? build(refs[i]!, dict, item.children) : 0;
      if (inner > 0) dict.set(PDFName.of('Count'), PDFNumber.of(b.open ? inner : -inner));
      visible += 1 + (b.open ? inner : 0);
    });
    parent.set(PDFName.of('First'), refs[0]!);
    parent.set(PDFName.of('Last'), refs[refs.length - 1]!);
    return visible;
  };
  const visible = build(rootRef, rootDict, root.children);
  rootDict.set(PDFName.of('Count'), PDFNumber.of(visible));
  doc.catalog.set(PDFName.of('Outlines'), rootRef);
}
