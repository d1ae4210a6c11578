import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFString,
  type PDFDocument,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { isShortText, PDF } from '../pdf/index.js';

/**
 * A plain walk of the AcroForm field tree, independent of pdf-lib's PDFForm:
 * PDFForm throws on rich-text fields, guesses field kinds from flags only, and
 * finds a widget's page by scanning every page for every widget. Here every
 * page's /Annots is read once.
 */

export type FieldKind = 'text' | 'checkbox' | 'radio' | 'pushbutton' | 'combo' | 'listbox' | 'signature' | 'unknown';

export interface WidgetInfo {
  dict: PDFDict;
  /** Undefined only for a widget stored directly inside its parent's /Kids (not allowed, but seen). */
  ref?: PDFRef;
  /** -1 when no page lists the widget. */
  pageIndex: number;
  /** [x1, y1, x2, y2], normalised, PDF user space. */
  rect: [number, number, number, number];
  /** The "on" appearance states (check boxes, radio buttons), their bytes as the file has them (canonicalName). */
  onStates: PDFName[];
}

export interface FieldNode {
  /** Fully qualified name (parents joined with '.'). */
  name: string;
  dict: PDFDict;
  ref?: PDFRef;
  kind: FieldKind;
  flags: number;
  widgets: WidgetInfo[];
  /** A check box read as a radio group (see pickOne): kind 'radio', drawn as check boxes. */
  pickOne?: boolean;
}

export const FF = {
  readOnly: 1 << 0,
  required: 1 << 1,
  multiline: 1 << 12,
  password: 1 << 13,
  noToggleToOff: 1 << 14,
  radio: 1 << 15,
  pushbutton: 1 << 16,
  combo: 1 << 17,
  fileSelect: 1 << 20,
  multiSelect: 1 << 21,
  doNotScroll: 1 << 23,
  comb: 1 << 24,
  richText: 1 << 25,
  radiosInUnison: 1 << 25,
} as const;

export function acroFormOf(doc: PDFDocument): PDFDict | undefined {
  return dictAt(doc.catalog, PDF.AcroForm);
}

/**
 * The dictionary (array) at `key`, or undefined when absent or of another type.
 * pdf-lib's lookupMaybe throws on a wrong type; loadPdf already drops such
 * entries, and these keep the walk safe on any document.
 */
export function dictAt(dict: PDFDict, key: PDFName): PDFDict | undefined {
  const v = dict.lookup(key);
  return v instanceof PDFDict ? v : undefined;
}

export function arrayAt(dict: PDFDict, key: PDFName): PDFArray | undefined {
  const v = dict.lookup(key);
  return v instanceof PDFArray ? v : undefined;
}

function dictOf(doc: PDFDocument, obj: PDFObject | undefined): PDFDict | undefined {
  const v = doc.context.lookup(obj);
  return v instanceof PDFDict ? v : undefined;
}

export function textOf(obj: PDFObject | undefined): string | undefined {
  // Over-long strings are unreadable (pdf-lib's decoder overflows the stack on them), as in src/pdf's structure pass.
  if (obj instanceof PDFString || obj instanceof PDFHexString) return isShortText(obj) ? obj.decodeText() : undefined;
  if (obj instanceof PDFName) return nameText(obj);
  return undefined;
}

export function numberOf(obj: PDFObject | undefined): number | undefined {
  return obj instanceof PDFNumber ? obj.asNumber() : undefined;
}

/** An inheritable entry: looked up on the node, then its ancestors. */
export function inherited(dict: PDFDict, key: PDFName): PDFObject | undefined {
  let node: PDFDict | undefined = dict;
  for (let depth = 0; node && depth < 64; depth++) {
    const v = node.get(key);
    if (v !== undefined) return node.context.lookup(v);
    node = dictAt(node, PDF.Parent);
  }
  return undefined;
}

/** Map from widget dictionary to page index, from one pass over all pages. */
function widgetPages(doc: PDFDocument): Map<PDFDict, number> {
  const map = new Map<PDFDict, number>();
  doc.getPages().forEach((page, index) => {
    const annots = arrayAt(page.node, PDF.Annots);
    if (!annots) return;
    for (let i = 0; i < annots.size(); i++) {
      const a = annots.lookup(i);
      if (a instanceof PDFDict && !map.has(a)) map.set(a, index);
    }
  });
  return map;
}

function kindOf(ft: string | undefined, flags: number): FieldKind {
  switch (ft) {
    case 'Tx':
      return 'text';
    case 'Btn':
      if (flags & FF.pushbutton) return 'pushbutton';
      return flags & FF.radio ? 'radio' : 'checkbox';
    case 'Ch':
      return flags & FF.combo ? 'combo' : 'listbox';
    case 'Sig':
      return 'signature';
    default:
      return 'unknown';
  }
}

/**
 * A check box that is really a choice: its widgets carry the radio flag
 * themselves (the field's /Ff lacks it), or they have different on-states
 * (`1 Single`, `2 Married`; `Yes`/`No`). Checking it as one box would turn every
 * widget on; as a radio group the value picks one state. Widgets sharing a
 * state still go on together, as PDF 32000 §12.7.4.2.3 has it.
 */
function pickOne(
  kind: FieldKind,
  widgets: Array<{ dict: PDFDict; onStates: PDFName[] }>,
): { kind: FieldKind; boxes?: boolean } {
  if (kind !== 'checkbox' || widgets.length < 2) return { kind };
  if (widgets.some((w) => ((numberOf(w.dict.lookup(PDF.Ff)) ?? 0) & FF.radio) !== 0)) return { kind: 'radio' };
  // Widgets without an appearance of their own say nothing about the choice (they take the field's state).
  const states = new Set(widgets.flatMap((w) => (w.onStates[0] ? [nameText(w.onStates[0])] : [])));
  return states.size > 1 ? { kind: 'radio', boxes: true } : { kind };
}

function rectOf(dict: PDFDict): [number, number, number, number] {
  const arr = arrayAt(dict, PDF.Rect);
  const n = [0, 1, 2, 3].map((i) => numberOf(arr?.lookup(i)) ?? 0);
  return [Math.min(n[0], n[2]), Math.min(n[1], n[3]), Math.max(n[0], n[2]), Math.max(n[1], n[3])];
}

export function onStatesOf(widget: PDFDict): PDFName[] {
  const ap = dictAt(widget, PDF.AP);
  const states = new Set<PDFName>();
  for (const key of [PDF.N, PDF.D]) {
    const sub = ap?.lookup(key);
    if (sub instanceof PDFDict) for (const k of sub.keys()) if (k !== PDF.Off) states.add(canonicalName(k));
  }
  return [...states];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
// WHATWG's "latin1" is windows-1252: cp1252 state names (é as #E9, € as #80) read as the file's producer meant them.
const cp1252 = new TextDecoder('windows-1252');
const latin1Chars = (bytes: Uint8Array): string => Array.from(bytes, (b) => String.fromCharCode(b)).join('');
const HASH = 0x23;
const isHex = (b: number | undefined): boolean =>
  b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66));

/**
 * A name's bytes as the file spells them. pdf-lib's parser decodes only
 * upper-case `#XX` escapes and keeps a lower-case `#e9` as the three
 * characters `#`, `e`, `9` (real forms, pdfcpu's among them, write UTF-8 and
 * cp1252 state names that way): those are decoded here. A name whose real
 * bytes are `#` followed by two hex digits is read wrongly; no form seen does that.
 */
function nameBytes(name: PDFName): Uint8Array {
  const raw = name.asBytes();
  if (!raw.includes(HASH)) return raw;
  const out: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === HASH && isHex(raw[i + 1]) && isHex(raw[i + 2])) {
      out.push(parseInt(String.fromCharCode(raw[i + 1]!, raw[i + 2]!), 16));
      i += 2;
    } else out.push(raw[i]!);
  }
  return new Uint8Array(out);
}

/**
 * A name's text, the one decoding used everywhere (option ids, matching a
 * value to a state): its bytes read as UTF-8, or as cp1252 when they are not
 * valid UTF-8.
 */
export function nameText(name: PDFName): string {
  const bytes = nameBytes(name);
  try {
    return utf8.decode(bytes);
  } catch {
    return cp1252.decode(bytes);
  }
}

/** The same name with its bytes decoded (see nameBytes): what to write back so that /AS, /V and the /AP keys agree byte for byte. */
export function canonicalName(name: PDFName): PDFName {
  const bytes = nameBytes(name);
  // PDFName.of decodes `#XX` again: bytes holding a `#` are kept as they are.
  if (bytes.includes(HASH)) return name;
  return PDFName.of(latin1Chars(bytes));
}

/** The name whose bytes are the UTF-8 of `text` (PDFName.of escapes UTF-16 code units, not bytes). */
export function textName(text: string): PDFName {
  return PDFName.of(latin1Chars(new TextEncoder().encode(text)));
}

function isWidget(dict: PDFDict): boolean {
  return dict.get(PDF.Subtype) === PDF.Widget || dict.has(PDF.Rect);
}

/** Terminal fields in document order, each with its widgets. */
export function readFieldTree(doc: PDFDocument): FieldNode[] {
  const acroForm = acroFormOf(doc);
  const roots = acroForm && arrayAt(acroForm, PDF.Fields);
  if (!roots) return [];
  const pages = widgetPages(doc);
  const out: FieldNode[] = [];
  const seen = new Set<PDFDict>();

  const widgetInfo = (dict: PDFDict, ref: PDFRef | undefined): WidgetInfo => ({
    dict,
    ref,
    pageIndex: pages.get(dict) ?? -1,
    rect: rectOf(dict),
    onStates: onStatesOf(dict),
  });

  const byDict = new Map<PDFDict, FieldNode>();
  const push = (node: FieldNode): void => {
    const existing = byDict.get(node.dict);
    if (existing) existing.widgets.push(...node.widgets);
    else {
      byDict.set(node.dict, node);
      out.push(node);
    }
  };

  const visit = (entry: PDFObject | undefined, prefix: string, depth: number): void => {
    const ref = entry instanceof PDFRef ? entry : undefined;
    const dict = entry instanceof PDFDict ? entry : ref ? dictOf(doc, ref) : undefined;
    if (!dict || seen.has(dict) || depth > 64) return;
    seen.add(dict);
    const partial = textOf(dict.lookup(PDF.T));
    const kids = arrayAt(dict, PDF.Kids);
    const kidDicts: Array<{ dict: PDFDict; ref?: PDFRef; raw: PDFObject }> = [];
    for (let i = 0; i < (kids?.size() ?? 0); i++) {
      const raw = kids!.get(i);
      const kd = dictOf(doc, raw);
      if (kd) kidDicts.push({ dict: kd, ref: raw instanceof PDFRef ? raw : undefined, raw });
    }
    // A nameless widget listed on its own (its field is its /Parent, which has no /Kids): seen in the wild.
    const parent = dictAt(dict, PDF.Parent);
    if (partial === undefined && kidDicts.length === 0 && parent && isWidget(dict)) {
      const field = parent;
      const flags = numberOf(inherited(field, PDF.Ff)) ?? 0;
      push({
        name: qualifiedName(field),
        dict: field,
        kind: kindOf(textOf(inherited(field, PDF.FT)), flags),
        flags,
        widgets: [widgetInfo(dict, ref)],
      });
      return;
    }
    const name = partial === undefined ? prefix : prefix ? `${prefix}.${partial}` : partial;
    const childFields = kidDicts.filter((k) => k.dict.has(PDF.T));
    if (childFields.length > 0) {
      for (const k of kidDicts) visit(k.raw, name, depth + 1);
      return;
    }
    const ft = textOf(inherited(dict, PDF.FT));
    const flags = numberOf(inherited(dict, PDF.Ff)) ?? 0;
    const widgets =
      kidDicts.length > 0
        ? kidDicts.map((k) => widgetInfo(k.dict, k.ref))
        : isWidget(dict)
          ? [widgetInfo(dict, ref)]
          : [];
    const read = pickOne(kindOf(ft, flags), widgets);
    push({ name, dict, ref, kind: read.kind, flags, widgets, ...(read.boxes ? { pickOne: true } : {}) });
  };

  for (let i = 0; i < roots.size(); i++) visit(roots.get(i), '', 0);
  return out;
}

/** Fully qualified name from a field dictionary up through its parents. */
export function qualifiedName(dict: PDFDict): string {
  const parts: string[] = [];
  let node: PDFDict | undefined = dict;
  for (let depth = 0; node && depth < 64; depth++) {
    const t = textOf(node.lookup(PDF.T));
    if (t !== undefined) parts.unshift(t);
    node = dictAt(node, PDF.Parent);
  }
  return parts.join('.');
}

/** Annotation flags Hidden (bit 2) and NoView (bit 6): the widget shows nothing in a viewer. */
export function hiddenWidget(widget: PDFDict): boolean {
  return ((numberOf(widget.lookup(PDF.F)) ?? 0) & ((1 << 1) | (1 << 5))) !== 0;
}
