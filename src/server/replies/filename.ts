/**
 * The name a PDF response is saved under: the request's `title` (the spec: "PDF
 * metadata title, also used in the output filename"), made safe to be a file
 * name on any system (src/format's `safeBaseName`), sent as RFC 6266 `Content-Disposition` with an ASCII
 * `filename` for old clients and the exact name as RFC 8187 `filename*`.
 */

import { safeBaseName } from '../../format/index.js';

/** Named with the title, or with a fallback chosen by the route (`document`, the template's EID). */
export interface PdfName {
  /** Full name, `.pdf` included; may hold any Unicode letter. */
  name: string;
  /** ASCII stand-in for `filename=`. */
  ascii: string;
  /** Whether the name came from a title (then `filename*` carries it exactly). */
  fromTitle: boolean;
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
