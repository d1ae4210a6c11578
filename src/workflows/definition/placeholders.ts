/**
 * `{{forgeSlug.fieldName}}` in the packet's strings: found (to check them when a definition is
 * read) and replaced by the submitted values (when a run makes its packet). A string that is one
 * placeholder and nothing else takes the value itself (a checkbox stays a boolean); inside a
 * longer string the value is written as text.
 *
 * A value typed in a form is text wherever a placeholder puts it: it never becomes a text tag, a
 * link, an image or markup. How it is written depends on where it lands in the packet's arguments:
 *
 * - Markdown (a generated file's `title`, a block's `content`, `heading`, `label`, table cells): a
 *   literal span (src/format literal-text.ts): not read as Markdown, drawn as marked content the
 *   text-tag finder skips. A placeholder in a link's address, an image's source or an HTML tag of
 *   Markdown is refused when the definition is loaded.
 * - HTML (`markup.html`, an HTML file's `title`): HTML-escaped text, with a word joiner (U+2060,
 *   invisible and without width) between two braces, so it can neither open nor close a tag. A
 *   placeholder in `markup.css`, inside a tag (an attribute, a URL), a comment, or a `<style>`,
 *   `<script>`, `<textarea>` or `<title>` element is refused when the definition is loaded.
 * - Inside a text tag of Markdown or HTML: refused when the definition is loaded.
 * - `signaturePageOptions.description` (Markdown on the signing page): backslash-escaped.
 * - Anywhere else (names, emails, fill values of `data.payloads`, file names): the value itself. Fill
 *   values are drawn as text, and text tags are never read from a filled document.
 */
import type { FieldError } from '../../errors/index.js';
import { escapeHtml, escapeMarkdown, literalText } from '../../format/index.js';
import type { ResolvedValue, SubmissionRecord } from '../../packets/index.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9][A-Za-z0-9_-]*)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z0-9][A-Za-z0-9_-]*)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

export interface PlaceholderRef {
  forge: string;
  field: string;
  /** Where it is, e.g. `packet.signers[0].email`. */
  path: string;
}

/** Every placeholder in `value` (walked depth-first), with its property path under `prefix`. */
export function placeholdersIn(value: unknown, prefix: string): PlaceholderRef[] {
  const out: PlaceholderRef[] = [];
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(PLACEHOLDER)) out.push({ forge: m[1]!, field: m[2]!, path });
    } else if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${path}[${i}]`));
    else if (v !== null && typeof v === 'object')
      for (const [k, item] of Object.entries(v))
        walk(item, /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}["${k}"]`);
  };
  walk(value, prefix);
  return out;
}

/** Submitted values by forge slug, then field name. */
export type SubmittedValues = Record<string, Record<string, ResolvedValue>>;

function text(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : String(v);
}

/** How a value's text is written where a placeholder stands (`path` from the resolved root): `writeValue` below. */
export type ValueWriter = (path: readonly PropertyKey[], text: string) => string;

const asIs: ValueWriter = (_path, text) => text;

/**
 * `value` with every placeholder replaced; a field left empty becomes '' (or is absent when it is the
 * whole string). Text values go through `write`, which knows where they land.
 */
export function resolvePlaceholders(
  value: unknown,
  values: SubmittedValues,
  write: ValueWriter = asIs,
  path: PropertyKey[] = [],
): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) {
      const v = values[whole[1]!]?.[whole[2]!]?.value;
      return typeof v === 'string' ? write(path, v) : v;
    }
    return value.replace(PLACEHOLDER, (_m, forge: string, field: string) =>
      write(path, text(values[forge]?.[field]?.value)),
    );
  }
  if (Array.isArray(value)) return value.map((v, i) => resolvePlaceholders(v, values, write, [...path, i]));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = resolvePlaceholders(v, values, write, [...path, k]);
      if (r !== undefined) out[k] = r;
    }
    return out;
  }
  return value;
}

/** A run's submissions as placeholder values. */
export function valuesOf(submissions: readonly SubmissionRecord[]): SubmittedValues {
  return Object.fromEntries(submissions.map((s) => [s.forgeSlug, s.resolvedPayload]));
}

type Place = 'text' | 'markdown' | 'html' | 'html-title' | 'css' | 'page-markdown';
type Path = readonly PropertyKey[];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What a file is, by the shape createEtchPacket reads it by (src/packets request-files.ts). */
function fileKind(file: unknown): 'markdown' | 'html' | 'other' {
  if (!isObject(file) || 'castEid' in file || 'file' in file) return 'other';
  if ('markup' in file) return 'html';
  return 'fields' in file ? 'markdown' : 'other';
}

/** Where `path` (under the packet's arguments) lands. */
export function placeOf(packet: unknown, path: Path): Place {
  if (path[0] === 'signaturePageOptions' && path[1] === 'description' && path.length === 2) return 'page-markdown';
  if (path[0] !== 'files' || typeof path[1] !== 'number' || !isObject(packet) || !Array.isArray(packet.files))
    return 'text';
  const file: unknown = packet.files[path[1]];
  const kind = fileKind(file);
  const [, , key, index, blockKey, rows] = path;
  if (kind === 'html') {
    if (key === 'title' && path.length === 3) return 'html-title';
    if (key === 'markup' && path.length === 4) return index === 'html' ? 'html' : index === 'css' ? 'css' : 'text';
    return 'text';
  }
  if (kind !== 'markdown') return 'text';
  if (key === 'title' && path.length === 3) return 'markdown';
  if (key !== 'fields' || typeof index !== 'number' || !isObject(file) || !Array.isArray(file.fields)) return 'text';
  const block: unknown = file.fields[index];
  // A field object (it has a `type`) is no content block.
  if (!isObject(block) || 'type' in block) return 'text';
  if (path.length === 5 && (blockKey === 'content' || blockKey === 'heading' || blockKey === 'label'))
    return 'markdown';
  if (blockKey === 'table' && rows === 'rows' && path.length === 8) return 'markdown';
  return 'text';
}

/**
 * Braces a value shows in HTML can neither open nor close a text tag: a word joiner between two of its
 * braces, and before (after) a brace it starts (ends) with, which the author's text could continue.
 */
const apartBraces = (text: string) => text.replace(/(?<=[{}])(?=[{}])|^(?=[{}])|(?<=[{}])$/g, '\u2060');

/** `value` written for its place. */
export function writeValue(place: Place, value: string): string {
  switch (place) {
    case 'markdown':
      return literalText(value);
    case 'html':
      return apartBraces(escapeHtml(value));
    case 'html-title':
      // markupWithTitle escapes the title.
      return apartBraces(value);
    case 'css':
      // Refused when the definition is loaded; never written.
      return '';
    case 'page-markdown':
      return escapeMarkdown(value);
    case 'text':
      return value;
  }
}

/** Each placeholder replaced by `\u0000` (a character no markup holds) for the checks below. */
const STAND_IN = '\u0000';

/** Whether every stand-in of `html` sits in element text (not in a tag, a comment or a raw-text element). */
function htmlPlaceholderProblem(html: string): string | undefined {
  const lower = html.toLowerCase();
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf('<', at);
    const textEnd = lt < 0 ? html.length : lt;
    at = textEnd;
    if (lt < 0) break;
    let end: number;
    let inside: string;
    if (html.startsWith('<!--', lt)) {
      end = html.indexOf('-->', lt + 4);
      end = end < 0 ? html.length : end + 3;
      inside = 'a comment';
    } else {
      end = tagEnd(html, lt);
      inside = 'a tag (an attribute or a URL)';
      const raw = /^<(style|script|textarea|title|xmp|iframe|noembed|noframes|noscript|plaintext)\b/i.exec(
        html.slice(lt),
      );
      if (raw) {
        const close = lower.indexOf(`</${raw[1]!.toLowerCase()}`, end);
        end = close < 0 ? html.length : close;
        inside = `a <${raw[1]!.toLowerCase()}> element`;
      }
    }
    if (html.slice(lt, end).includes(STAND_IN)) return `A form value can only be text here, not inside ${inside}`;
    at = Math.max(end, lt + 1);
  }
  return undefined;
}

/** The end of the tag opened at `lt` (quoted attribute values may hold `>`). */
function tagEnd(html: string, lt: number): number {
  let quote: string | undefined;
  for (let k = lt + 1; k < html.length; k++) {
    const c = html[k];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return k + 1;
  }
  return html.length;
}

/** Whether a stand-in of `text` sits inside one of the author's text tags (`{{ … }}`; placeholders are stand-ins already). */
function insideTag(text: string): boolean {
  for (let from = 0; ;) {
    const open = text.indexOf('{{', from);
    if (open < 0) return false;
    const close = text.indexOf('}}', open + 2);
    const end = close < 0 ? text.length : close;
    if (text.slice(open, end).includes(STAND_IN)) return true;
    from = end + 2;
  }
}

const propertyOf = (path: readonly PropertyKey[]) =>
  `packet${path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('')}`;

/** Every string of the packet's arguments holding a placeholder, with its path and place. */
function placedStrings(packet: unknown): Array<{ text: string; path: PropertyKey[]; place: Place }> {
  const out: Array<{ text: string; path: PropertyKey[]; place: Place }> = [];
  const walk = (v: unknown, path: PropertyKey[]): void => {
    if (typeof v === 'string') {
      if (v.match(PLACEHOLDER)) out.push({ text: v, path, place: placeOf(packet, path) });
    } else if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]));
    else if (isObject(v)) for (const [k, item] of Object.entries(v)) walk(item, [...path, k]);
  };
  walk(packet, []);
  return out;
}

/** Placeholders the definition puts where a value could only be structure: refused when it is loaded. */
export function valuePlaceProblems(packet: unknown): FieldError[] {
  const errors: FieldError[] = [];
  for (const { text, path, place } of placedStrings(packet)) {
    const property = propertyOf(path);
    const stood = text.replace(PLACEHOLDER, STAND_IN);
    if (place === 'css')
      errors.push({ property, message: 'A form value cannot go into CSS (it could load or draw anything)' });
    if ((place === 'markdown' || place === 'html' || place === 'html-title') && insideTag(stood))
      errors.push({
        property,
        message: 'A form value cannot be part of a text tag (its type, label, alias or signer)',
      });
    if (place === 'html') {
      const problem = htmlPlaceholderProblem(stood);
      if (problem) errors.push({ property, message: problem });
    }
  }
  return errors;
}

/**
 * Placeholders in a link's address, an image's source or an HTML tag of Markdown, read with the Markdown
 * renderer's own parser (loaded only for a definition with values in Markdown: a process that serves no
 * such workflow does not load the renderer before it renders).
 */
export async function markdownPlaceProblems(packet: unknown): Promise<FieldError[]> {
  const texts = placedStrings(packet).filter((s) => s.place === 'markdown');
  if (texts.length === 0) return [];
  const { unplacedLiteralCount } = await import('../../markdown/index.js');
  return texts
    .filter((s) => unplacedLiteralCount(s.text.replace(PLACEHOLDER, () => literalText('x'))) > 0)
    .map((s) => ({
      property: propertyOf(s.path),
      message: 'A form value can only be text here, not a link address, an image source or inside an HTML tag',
    }));
}

/** The fill value a path lands in: `data.payloads[file].data[key]` (or inside it), as [file, key]. */
export function payloadKeyOf(path: readonly PropertyKey[]): [string, string] | undefined {
  const [data, payloads, file, inner, key] = path;
  return data === 'data' &&
    payloads === 'payloads' &&
    typeof file === 'string' &&
    inner === 'data' &&
    typeof key === 'string'
    ? [file, key]
    : undefined;
}

/**
 * The resolved packet with each payload's `textOnly` naming the keys a typed value went into: the packet
 * workflow never fills an image field with one (it would load it as the image's URL).
 */
export function withTextOnly(
  resolved: Record<string, unknown>,
  typed: ReadonlyArray<[string, string]>,
): Record<string, unknown> {
  if (typed.length === 0 || !isObject(resolved.data) || !isObject(resolved.data.payloads)) return resolved;
  const payloads: Record<string, unknown> = { ...resolved.data.payloads };
  for (const [file, key] of typed) {
    const payload = payloads[file];
    if (!isObject(payload)) continue;
    const before = Array.isArray(payload.textOnly) ? payload.textOnly : [];
    if (!before.includes(key)) payloads[file] = { ...payload, textOnly: [...before, key] };
  }
  return { ...resolved, data: { ...resolved.data, payloads } };
}
