/**
 * Reading a file back for the PDF/A (ISO 19005-2/-3) clauses that can be checked without a validator:
 * qpdf's JSON of every object (its own parser, not pdf-lib's), the XMP packet as text, the header bytes.
 * docs/reference/pdf-a.md lists which clause each check stands for.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import { withTempFile } from './pdf.js';

const run = promisify(execFile);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface QpdfObject {
  value?: Json;
  stream?: { dict: Record<string, Json>; data?: string };
}

export interface ArchiveReading {
  header: Buffer;
  trailer: Record<string, Json>;
  catalog: Record<string, Json>;
  acroform: Record<string, Json>;
  info: Record<string, string>;
  /** Decoded DestOutputProfile of each output intent, with the intent's dictionary. */
  intents: Array<{ dict: Record<string, Json>; profile: Buffer; profileDict: Record<string, Json> }>;
  metadata?: { dict: Record<string, Json>; xmp: string };
  /** Every font used for rendering (Type 3 excluded) and whether its program is in the file. */
  fonts: Array<{ name: string; embedded: boolean }>;
  annotations: Array<Record<string, Json>>;
  /** The EmbeddedFiles name tree's entries (a flat leaf): key, file specification, embedded file stream's dictionary. */
  embeddedFiles: Array<{ key: string; spec: Record<string, Json>; stream: Record<string, Json>; ref: string }>;
  /** The catalog's associated files (/AF), as references. */
  associated: string[];
  /** Action types (/S) anywhere in the file, and whether any dictionary has /AA or a JavaScript name tree. */
  actions: string[];
  additionalActions: boolean;
  encrypted: boolean;
}

/** qpdf's text value of a string (`u:` unicode, `b:` bytes as hex). */
export function qpdfText(v: Json | undefined): string | undefined {
  if (typeof v !== 'string') return undefined;
  if (v.startsWith('u:')) return v.slice(2);
  if (v.startsWith('b:')) return Buffer.from(v.slice(2), 'hex').toString('latin1');
  return undefined;
}

export async function readArchive(pdf: Uint8Array): Promise<ArchiveReading> {
  const json = await withTempFile(pdf, async (file) => {
    try {
      return (
        await run('qpdf', ['--json', '--json-stream-data=inline', '--decode-level=none', file], {
          maxBuffer: 256 << 20,
        })
      ).stdout;
    } catch (e) {
      const err = e as { code?: number; stdout?: string };
      if (err.code === 3 && err.stdout) return err.stdout;
      throw e;
    }
  });
  const parsed = JSON.parse(json) as {
    qpdf: [unknown, Record<string, QpdfObject>];
    encrypt?: { encrypted: boolean };
    pages?: Array<{ object: string }>;
  };
  const objects = parsed.qpdf[1];
  const get = (ref: Json | undefined): Json | undefined =>
    typeof ref === 'string' && / R$/.test(ref)
      ? (objects[`obj:${ref}`]?.value ?? objects[`obj:${ref}`]?.stream?.dict)
      : ref;
  const dict = (ref: Json | undefined): Record<string, Json> => {
    const v = get(ref);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  };
  const stream = (ref: Json | undefined) => (typeof ref === 'string' ? objects[`obj:${ref}`]?.stream : undefined);
  /** Stream data as written (streams are read undecoded, so their dictionaries keep /Filter), inflated when deflated. */
  const data = (s: QpdfObject['stream']): Buffer => {
    const raw = Buffer.from(s?.data ?? '', 'base64');
    return s?.dict['/Filter'] === '/FlateDecode' ? inflateSync(raw) : raw;
  };
  const trailer = dict(objects.trailer?.value ?? objects.trailer?.stream?.dict);
  const catalog = dict(trailer['/Root']);
  const info: Record<string, string> = {};
  for (const [k, v] of Object.entries(dict(trailer['/Info']))) {
    const t = qpdfText(v);
    if (t !== undefined) info[k.slice(1)] = t;
  }
  const intents = (Array.isArray(get(catalog['/OutputIntents'])) ? (get(catalog['/OutputIntents']) as Json[]) : []).map(
    (i) => {
      const d = dict(i);
      const s = stream(d['/DestOutputProfile']);
      return { dict: d, profile: data(s), profileDict: s?.dict ?? {} };
    },
  );
  const meta = stream(catalog['/Metadata']);
  const leaf = get(dict(dict(catalog['/Names'])['/EmbeddedFiles'])['/Names']);
  const embeddedFiles: ArchiveReading['embeddedFiles'] = [];
  if (Array.isArray(leaf))
    for (let i = 0; i + 1 < leaf.length; i += 2) {
      const spec = dict(leaf[i + 1]);
      embeddedFiles.push({
        key: qpdfText(leaf[i]) ?? '',
        spec,
        stream: stream(dict(spec['/EF'])['/F'])?.dict ?? {},
        ref: String(leaf[i + 1]),
      });
    }
  const af = get(catalog['/AF']);
  const associated = Array.isArray(af) ? af.map(String) : [];
  const annotations: Array<Record<string, Json>> = [];
  const actions = new Set<string>();
  let additionalActions = false;
  const visit = (v: Json | undefined): void => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach(visit);
    if ('/AA' in v || '/JavaScript' in v) additionalActions = true;
    if (v['/S'] && (v['/Type'] === '/Action' || '/URI' in v || '/JS' in v || '/F' in v || '/D' in v))
      actions.add(String(v['/S']));
    if (v['/Type'] === '/Annot' || v['/Subtype'] === '/Widget' || v['/Subtype'] === '/Link') annotations.push(v);
    Object.values(v).forEach(visit);
  };
  for (const [key, o] of Object.entries(objects)) if (key !== 'trailer') visit(o.value ?? o.stream?.dict);

  // Fonts used for rendering: those of the pages' resources, their form XObjects and the annotations' appearances.
  const fonts: Array<{ name: string; embedded: boolean }> = [];
  const seen = new Set<string>();
  const resources = (res: Json | undefined, depth: number): void => {
    const r = dict(res);
    const key = JSON.stringify(res);
    if (seen.has(key) || depth > 16) return;
    seen.add(key);
    for (const f of Object.values(dict(r['/Font']))) {
      const font = dict(f);
      if (font['/Subtype'] === '/Type3') continue;
      const descendants = get(font['/DescendantFonts']);
      const real = Array.isArray(descendants) ? dict(descendants[0]) : font;
      const descriptor = dict(real['/FontDescriptor']);
      fonts.push({
        name: String(font['/BaseFont'] ?? ''),
        embedded: ['/FontFile', '/FontFile2', '/FontFile3'].some((k) => k in descriptor),
      });
    }
    for (const x of Object.values(dict(r['/XObject']))) resources(stream(x as Json)?.dict['/Resources'], depth + 1);
  };
  const appearance = (ap: Json | undefined): void => {
    const s = stream(ap);
    if (s) return resources(s.dict['/Resources'], 1);
    for (const state of Object.values(dict(ap))) appearance(state);
  };
  for (const page of parsed.pages ?? []) {
    const p = dict(page.object);
    resources(p['/Resources'], 0);
    for (const a of (get(p['/Annots']) as Json[] | undefined) ?? []) appearance(dict(dict(a)['/AP'])['/N']);
  }
  return {
    embeddedFiles,
    associated,
    header: Buffer.from(pdf.subarray(0, 32)),
    trailer,
    catalog,
    acroform: dict(catalog['/AcroForm']),
    info,
    intents,
    ...(meta ? { metadata: { dict: meta.dict, xmp: data(meta).toString('utf8') } } : {}),
    fonts,
    annotations,
    actions: [...actions].sort(),
    additionalActions,
    encrypted: parsed.encrypt?.encrypted === true || '/Encrypt' in trailer,
  };
}

/** A simple property of the XMP packet (element or attribute form), rdf:Alt/rdf:Seq values read as their first item. */
export function xmpValue(xmp: string, name: string): string | undefined {
  const element = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xmp);
  if (element) {
    const inner = /<rdf:li[^>]*>([\s\S]*?)<\/rdf:li>/.exec(element[1]!);
    return unescape(inner ? inner[1]! : element[1]!);
  }
  const attr = new RegExp(`${name}="([^"]*)"`).exec(xmp);
  return attr ? unescape(attr[1]!) : undefined;
}

function unescape(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** An Info date (`D:YYYYMMDDHHmmSS` with Z or ±HH'mm') as a Date. */
export function pdfDate(s: string): Date {
  const m = /^D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(Z|([+-])(\d{2})'?(\d{2})'?)?/.exec(s);
  if (!m) throw new Error(`not a PDF date: ${s}`);
  const utc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  const offset = m[8] ? (m[8] === '-' ? -1 : 1) * (+m[9]! * 60 + +m[10]!) : 0;
  return new Date(utc - offset * 60_000);
}
