/**
 * A DOCX rewritten so that nothing in it asks LibreOffice to fetch: relationships
 * that leave the package (linked images, attached templates, OLE links, sub-documents,
 * frames, mail-merge sources...) are removed, field codes that fetch (INCLUDEPICTURE,
 * INCLUDETEXT, LINK, DDE...) lose their instruction and keep their last shown result.
 * The rest of the file is kept byte for byte. This is the first of two walls: the
 * conversion also runs without a network (docx-sandbox.ts), so a way to fetch that is
 * missed here still reaches nothing.
 *
 * Parts are edited as text, not parsed: each is read as latin1 (one char per byte, so
 * the UTF-8 bytes we do not touch are written back unchanged), and the few constructs
 * that could hide markup from such a scan are refused or masked: DOCTYPEs (entities
 * could expand into elements) are a 422, comments, CDATA and processing instructions
 * are blanked before scanning, UTF-16 parts are turned into UTF-8 first.
 */
import { ConversionError } from '../request/errors.js';
import { readZip, writeZip, type ZipEntry, type ZipLimits } from './zip.js';

export interface SanitizeReport {
  /** Relationships removed, as `part#id → target`. */
  relationships: string[];
  /** Field instructions emptied, as `part: NAME` (`?` when the name is built by a nested field). */
  fields: string[];
  /** Parts whose `mailMerge` settings (a data source to connect to) were removed. */
  mailMerge: string[];
}

/** Field codes that read another file or address (Word's field list, plus old spellings). */
const FETCHING_FIELDS: ReadonlySet<string> = new Set([
  'INCLUDEPICTURE',
  'INCLUDETEXT',
  'INCLUDE',
  'IMPORT',
  'LINK',
  'DDE',
  'DDEAUTO',
  'DATABASE',
  'RD',
]);
/** Elements that may name an external hyperlink relationship: a link is only followed by whoever clicks it. */
const LINK_ELEMENTS: ReadonlySet<string> = new Set(['hyperlink', 'hlinkClick', 'hlinkHover', 'hlinkMouseOver']);

const NAME = '[A-Za-z_][\\w.-]*';
// No `<` inside a tag (well-formed XML escapes it in values): a scan for one tag never runs past the
// next `<`, so scanning a part is linear however its tags are broken. Written as an unrolled loop
// (one way to match any text), so a failed tag is given up without trying other splits. A
// self-closing tag's `/` ends up in this group (`selfClosing`).
const ATTRS = `[^<>"']*(?:(?:"[^"<]*"|'[^'<]*')[^<>"']*)*`;
const selfClosing = (attrText: string) => attrText.endsWith('/');
// A name starts the tag text or follows white space: a long run without `=` is tried from one place only.
const ATTR = /(?:^|(?<=\s))([^\s=/>"']+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function refused(property: string, part: string, why: string): ConversionError {
  return new ConversionError(`The DOCX file cannot be converted: part "${part}" ${why}`, 422, property);
}

function decode(s: string): string {
  return s.replace(ENTITY, (_m, e: string) => {
    if (e.startsWith('#')) {
      const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED[e] ?? '';
  });
}

/**
 * Comments, CDATA sections and processing instructions, found with one indexOf for each end
 * (a lazy regex would rescan to the end of the part for every unclosed one). One left open runs to the end.
 */
function hiddenSpans(s: string): Array<{ start: number; end: number; cdata: boolean; closed: boolean }> {
  const spans: Array<{ start: number; end: number; cdata: boolean; closed: boolean }> = [];
  const open = /<!--|<!\[CDATA\[|<\?/g;
  let m: RegExpExecArray | null;
  while ((m = open.exec(s)) !== null) {
    const close = m[0] === '<!--' ? '-->' : m[0] === '<?' ? '?>' : ']]>';
    const at = s.indexOf(close, m.index + m[0].length);
    const end = at < 0 ? s.length : at + close.length;
    spans.push({ start: m.index, end, cdata: m[0] !== '<!--' && m[0] !== '<?', closed: at >= 0 });
    open.lastIndex = end;
  }
  return spans;
}

/** Character data as the parser would see it: CDATA kept raw, comments and tags dropped, references decoded. */
function textContent(s: string): string {
  let out = '';
  let last = 0;
  for (const h of hiddenSpans(s)) {
    out += decode(s.slice(last, h.start).replace(/<[^<>]*>?/g, ''));
    if (h.cdata) out += s.slice(h.start + 9, h.closed ? h.end - 3 : h.end);
    last = h.end;
  }
  return out + decode(s.slice(last).replace(/<[^<>]*>?/g, ''));
}

const localName = (qname: string) => qname.slice(qname.indexOf(':') + 1);

interface Attr {
  local: string;
  value: string;
  /** Where the raw value sits, relative to the string parsed. */
  start: number;
  end: number;
}

function attributes(s: string): Attr[] {
  const out: Attr[] = [];
  for (const m of s.matchAll(ATTR)) {
    const raw = m[2] ?? m[3] ?? '';
    const end = m.index + m[0].length - 1;
    out.push({ local: localName(m[1]!), value: decode(raw), start: end - raw.length, end });
  }
  return out;
}

/** Same length, same offsets, nothing a scan could mistake for markup. */
function mask(s: string): string {
  let out = '';
  let last = 0;
  for (const h of hiddenSpans(s)) {
    out += s.slice(last, h.start) + ' '.repeat(h.end - h.start);
    last = h.end;
  }
  return out + s.slice(last);
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function applyEdits(s: string, edits: Edit[]): string {
  let out = s;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

const ALLOWED_ENCODINGS = /^(utf-?8|us-ascii|ascii|iso-8859-\d{1,2}|latin-?1|windows-125\d|cp125\d)$/i;

/** The part as a latin1 string of UTF-8 (or other ASCII-compatible) bytes; undefined when it is not XML. */
function xmlText(part: string, data: Uint8Array, property: string): string | undefined {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const starts = (...bytes: number[]) => bytes.every((v, i) => b[i] === v);
  if (
    starts(0, 0, 0xfe, 0xff) ||
    starts(0xff, 0xfe, 0, 0) ||
    starts(0, 0, 0, 0x3c) ||
    starts(0x3c, 0, 0, 0) ||
    starts(0x4c, 0x6f, 0xa7, 0x94)
  ) {
    throw refused(property, part, 'uses an XML encoding that is not accepted (UTF-8 or UTF-16 only)');
  }
  let text: string;
  if (starts(0xfe, 0xff) || starts(0, 0x3c, 0, 0x3f)) text = utf16AsUtf8(b, 'utf-16be');
  else if (starts(0xff, 0xfe) || starts(0x3c, 0, 0x3f, 0)) text = utf16AsUtf8(b, 'utf-16le');
  else text = b.toString('latin1');
  const body = text.startsWith('\xef\xbb\xbf') ? text.slice(3) : text;
  if (!/^\s*</.test(body)) return undefined;
  if (text.includes('\0')) throw refused(property, part, 'holds NUL characters');
  const declared = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([^"']*)["']/.exec(body)?.[1];
  if (declared !== undefined && !ALLOWED_ENCODINGS.test(declared))
    throw refused(property, part, `declares the encoding "${declared}"`);
  // Entities declared in a DOCTYPE could expand into elements this scan never sees; Word never writes one.
  if (/<!DOCTYPE|<!ENTITY/i.test(mask(text))) throw refused(property, part, 'has a DOCTYPE');
  return text;
}

function utf16AsUtf8(b: Buffer, encoding: 'utf-16le' | 'utf-16be'): string {
  const s = new TextDecoder(encoding).decode(b); // drops the BOM
  const utf8 = s.replace(/^(\s*<\?xml[^>]*?\sencoding\s*=\s*["'])[^"']*(["'])/, '$1UTF-8$2');
  return Buffer.from(utf8, 'utf8').toString('latin1');
}

/** The part a `.rels` part describes: `word/_rels/document.xml.rels` → `word/document.xml`. */
function sourceOf(relsPart: string): string | undefined {
  const m = /^(.*?)_rels\/([^/]*)\.rels$/i.exec(relsPart);
  return m && m[2] ? `${m[1]}${m[2]}` : undefined;
}

/** Every attribute value in a part → the local names of the elements carrying it. */
function referencesIn(text: string): Map<string, Set<string>> {
  const refs = new Map<string, Set<string>>();
  for (const m of mask(text).matchAll(new RegExp(`<(${NAME}(?::${NAME})?)(?=[\\s/>])(${ATTRS})>`, 'g'))) {
    const element = localName(m[1]!);
    for (const a of attributes(m[2]!)) {
      const set = refs.get(a.value) ?? new Set<string>();
      set.add(element);
      refs.set(a.value, set);
    }
  }
  return refs;
}

const leavesPackage = (target: string, mode: string | undefined) =>
  (mode !== undefined && mode.trim().toLowerCase() !== 'internal') || /^\s*([a-z][a-z0-9+.-]*:|[\\/]{2})/i.test(target);

function sanitizeRels(part: string, text: string, source: string | undefined, report: SanitizeReport): string {
  const edits: Edit[] = [];
  let refs: Map<string, Set<string>> | undefined;
  const re = new RegExp(`<((?:${NAME}:)?Relationship)(?=[\\s/>])(${ATTRS})>`, 'g');
  for (const m of mask(text).matchAll(re)) {
    const list = attributes(m[2]!);
    const attrs = new Map(list.map((a) => [a.local, a.value]));
    const id = attrs.get('Id') ?? '';
    const target = attrs.get('Target') ?? '';
    if (!leavesPackage(target, attrs.get('TargetMode'))) continue;
    if ((attrs.get('Type') ?? '').endsWith('/hyperlink')) {
      // A hyperlink stays a link only if nothing else (an r:link on an image, say) names it.
      refs ??= source === undefined ? new Map() : referencesIn(source);
      if ([...(refs.get(id) ?? [])].every((e) => LINK_ELEMENTS.has(e) || e === 'Relationship')) continue;
    }
    if (selfClosing(m[2]!)) edits.push({ start: m.index, end: m.index + m[0].length, text: '' });
    else {
      // Not self-closing (Word never writes that): finding its end tag could rescan the part, so the
      // element stays with its target emptied and its mode internal, which leads nowhere.
      const at = m.index + 1 + m[1]!.length;
      for (const a of list) {
        if (a.local === 'Target') edits.push({ start: at + a.start, end: at + a.end, text: '' });
        if (a.local === 'TargetMode') edits.push({ start: at + a.start, end: at + a.end, text: 'Internal' });
      }
    }
    report.relationships.push(`${part}#${id} → ${target}`);
  }
  return applyEdits(text, edits);
}

function fieldName(instr: string): string {
  return /^\s*([A-Za-z]+)/.exec(instr)?.[1]?.toUpperCase() ?? '';
}

interface OpenField {
  text: string;
  ranges: Array<[number, number]>;
  /** The instruction began with a nested field: its name is computed, so it is not trusted. */
  computedName: boolean;
  closed: boolean;
}

function neutraliseFields(part: string, text: string, report: SanitizeReport): string {
  const edits: Edit[] = [];
  const masked = mask(text);
  const stack: OpenField[] = [];
  const judge = (f: OpenField) => {
    if (f.closed) return;
    f.closed = true;
    const name = fieldName(f.text);
    if (!FETCHING_FIELDS.has(name) && !f.computedName) return;
    for (const [start, end] of f.ranges) edits.push({ start, end, text: '' });
    report.fields.push(`${part}: ${f.computedName ? '?' : name}`);
  };
  const re = new RegExp(`<(${NAME}:)?(fldChar|instrText|delInstrText|fldSimple|mailMerge)(?=[\\s/>])(${ATTRS})>`, 'g');
  let m: RegExpExecArray | null;
  while ((m = re.exec(masked)) !== null) {
    const [whole, prefix = '', local, attrText = ''] = m;
    const empty = selfClosing(attrText);
    const attrsAt = m.index + 1 + prefix.length + local!.length;
    const attrs = attributes(attrText);
    if (local === 'fldChar') {
      const type = attrs.find((a) => a.local === 'fldCharType')?.value.trim();
      const top = stack.at(-1);
      if (type === 'begin') {
        if (top && !top.closed && top.text.trim() === '') top.computedName = true;
        stack.push({ text: '', ranges: [], computedName: false, closed: false });
      } else if (type === 'separate' && top) judge(top);
      else if (type === 'end' && top) judge(stack.pop()!);
    } else if (local === 'instrText' || local === 'delInstrText') {
      if (empty) continue;
      const contentStart = m.index + whole.length;
      const close = new RegExp(`<\\/${prefix}${local}\\s*>`, 'g');
      close.lastIndex = contentStart;
      const c = close.exec(masked);
      const contentEnd = c ? c.index : masked.length;
      re.lastIndex = c ? c.index + c[0].length : masked.length;
      const instr = textContent(text.slice(contentStart, contentEnd));
      const top = stack.at(-1);
      // An instruction outside any field is judged on its own.
      const field = top && !top.closed ? top : { text: '', ranges: [], computedName: false, closed: false };
      field.text += instr;
      field.ranges.push([contentStart, contentEnd]);
      if (field !== top) judge(field);
    } else if (local === 'fldSimple') {
      const instr = attrs.find((a) => a.local === 'instr');
      if (instr && FETCHING_FIELDS.has(fieldName(instr.value))) {
        edits.push({ start: attrsAt + instr.start, end: attrsAt + instr.end, text: '' });
        report.fields.push(`${part}: ${fieldName(instr.value)}`);
      }
    } else if (local === 'mailMerge') {
      // Mail merge names a data source to connect to; the document reads the same without it.
      const close = new RegExp(`<\\/${prefix}mailMerge\\s*>`, 'g');
      close.lastIndex = m.index;
      const c = empty ? null : close.exec(masked);
      const end = empty ? m.index + whole.length : c ? c.index + c[0].length : masked.length;
      edits.push({ start: m.index, end, text: '' });
      report.mailMerge.push(part);
      re.lastIndex = end;
    }
  }
  for (const f of stack) judge(f);
  return applyEdits(text, edits);
}

export interface SanitizeOptions extends ZipLimits {
  /** The upload's property path, named in errors. */
  property?: string;
}

/**
 * The DOCX with external relationships and fetching fields removed, as a new zip
 * (entries stored); 422 for a zip or part it will not pass on, 413 past the limits.
 */
export async function sanitizeDocx(
  docx: Uint8Array,
  options: SanitizeOptions = {},
): Promise<{ docx: Uint8Array; report: SanitizeReport }> {
  const property = options.property ?? 'file';
  const entries = await readZip(docx, property, options);
  const report: SanitizeReport = { relationships: [], fields: [], mailMerge: [] };
  const texts = new Map<string, string>();
  for (const e of entries) {
    const text = xmlText(e.name, e.data, property);
    if (text !== undefined) texts.set(e.name, text);
  }
  const out: ZipEntry[] = entries.map((e) => {
    const text = texts.get(e.name);
    if (text === undefined) return e;
    const isRels = /\.rels$/i.test(e.name);
    const source = isRels ? sourceOf(e.name) : undefined;
    const edited = isRels
      ? sanitizeRels(e.name, text, source === undefined ? undefined : texts.get(source), report)
      : neutraliseFields(e.name, text, report);
    return edited === text ? e : { name: e.name, data: new Uint8Array(Buffer.from(edited, 'latin1')) };
  });
  return { docx: writeZip(out), report };
}
