/**
 * The name a PDF response is saved under: the request's `title` (the spec: "PDF
 * metadata title, also used in the output filename"), made safe to be a file
 * name on any system, sent as RFC 6266 `Content-Disposition` with an ASCII
 * `filename` for old clients and the exact name as RFC 8187 `filename*`.
 */

/** Characters kept from a title (before `.pdf`); longer titles are cut, as file systems cap names at 255 bytes. */
const MAX_NAME_CHARS = 120;

/** Named with the title, or with a fallback chosen by the route (`document`, the template's EID). */
export interface PdfName {
  /** Full name, `.pdf` included; may hold any Unicode letter. */
  name: string;
  /** ASCII stand-in for `filename=`. */
  ascii: string;
  /** Whether the name came from a title (then `filename*` carries it exactly). */
  fromTitle: boolean;
}

/**
 * Controls (CR/LF would split the header), path separators and the characters
 * Windows refuses become `_` or go; zero-width and bidi controls go (they can
 * make `fdp.exe` display as `exe.pdf`); leading dots (hidden files, `..`) and
 * trailing dots and spaces (dropped by Windows) are trimmed; a `.pdf` the title
 * already ends with is not doubled.
 */
export function safeBaseName(title: string): string {
  let s = title
    .normalize('NFC')
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, '')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/[\\/:*?"<>|]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\.pdf$/i, '')
    .replace(/^[.\s]+/, '');
  s = withoutTrailingDots(s);
  const chars = Array.from(s);
  if (chars.length > MAX_NAME_CHARS) s = withoutTrailingDots(chars.slice(0, MAX_NAME_CHARS).join(''));
  return s;
}

/**
 * `s` without its trailing dots and white space, by a scan from the end: `/[.\s]+$/` is retried from
 * every character of a run that ends before another character, quadratic in a title like `a. . . .…b`.
 */
function withoutTrailingDots(s: string): string {
  let end = s.length;
  while (end > 0 && /[.\s]/.test(s[end - 1]!)) end--;
  return s.slice(0, end);
}

/** Accents dropped (é → e), anything else outside printable ASCII, and `%` (some clients decode it), become `_`. */
function asciiOf(base: string): string {
  return base
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|%/gu, '_');
}

/** The name for a response: `title` when it leaves anything after cleaning, else `fallback` (already safe ASCII). */
export function pdfName(title: string | undefined, fallback: string): PdfName {
  const base = title === undefined ? '' : safeBaseName(title);
  if (!base) {
    const f = safeBaseName(fallback) || 'document';
    const a = asciiOf(f);
    return { name: `${f}.pdf`, ascii: `${a}.pdf`, fromTitle: false };
  }
  const ascii = asciiOf(base);
  // A title in another script would leave only underscores: the fallback reads better there.
  const readable = /[A-Za-z0-9]/.test(ascii) ? ascii : asciiOf(safeBaseName(fallback) || 'document');
  return { name: `${base}.pdf`, ascii: `${readable}.pdf`, fromTitle: true };
}

/** RFC 8187 value-chars: attr-char stays, every other byte of the UTF-8 is %XX. */
function encodeExtValue(s: string): string {
  return encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `inline` so browsers show the PDF; the name applies when the user saves it. */
export function contentDisposition(name: PdfName): string {
  const plain = `inline; filename="${name.ascii}"`;
  return name.fromTitle ? `${plain}; filename*=UTF-8''${encodeExtValue(name.name)}` : plain;
}
