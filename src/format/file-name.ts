/**
 * File names made safe for any system and for archives: the one cleaner behind the server's
 * `Content-Disposition` names (src/server/replies/filename.ts), the packet documents' names
 * (src/packets/assemble/assemble.ts) and the document-group zip entries (src/server/graphql/downloads/zip-names.ts).
 */
import { replaceControls, withoutInvisibles } from './safe-text.js';

/** File systems and zip readers cap a name at 255 bytes of UTF-8. */
const MAX_FILE_NAME_BYTES = 255;
/** Characters kept from a title before `.pdf`: names stay readable in a file list. */
const MAX_BASE_CHARS = 120;
const PDF = '.pdf';

/**
 * The stem of a name, safe on its own as a file name: controls (CR/LF would split a header, NUL
 * cuts a name) become spaces; path separators, drive colons and the other characters Windows
 * refuses become `_`; bidi and zero-width characters go; a run of dots becomes one (no `..`);
 * leading dots (hidden files) and trailing dots and spaces (dropped by Windows) are trimmed; a
 * `.pdf` the name already ends with is dropped (the caller adds it). At most `MAX_BASE_CHARS`
 * characters and `maxBytes` bytes of UTF-8, cut on a character boundary. May be empty.
 */
export function safeBaseName(name: string, maxBytes = MAX_FILE_NAME_BYTES - PDF.length): string {
  let s = replaceControls(withoutInvisibles(name.normalize('NFC')), ' ')
    .replace(/[\\/:*?"<>|]/g, '_')
    .replace(/[^\S ]/g, ' ')
    // Only runs: `/\s+/g` replaces every single space too, 2.3 s for a megabyte of `. . .`.
    .replace(/ {2,}/g, ' ')
    .replace(/\.{2,}/g, '.')
    .trim()
    .replace(/\.pdf$/i, '')
    .replace(/^[.\s]+/, '');
  s = withoutTrailingDots(s);
  return withoutTrailingDots(cutTo(s, MAX_BASE_CHARS, maxBytes));
}

/** `s`'s first characters (code points), at most `maxChars` of them and `maxBytes` bytes of UTF-8. */
function cutTo(s: string, maxChars: number, maxBytes: number): string {
  if (s.length <= maxChars && Buffer.byteLength(s, 'utf8') <= maxBytes) return s;
  let bytes = 0;
  let chars = 0;
  let end = 0;
  for (const ch of s) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (chars === maxChars || bytes + n > maxBytes) break;
    bytes += n;
    chars++;
    end += ch.length;
  }
  return s.slice(0, end);
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

/** `name` cleaned (`safeBaseName`) with `.pdf`; `fallback` cleaned, else `document`, when nothing is left. */
export function safePdfFileName(name: string | undefined, fallback: string): string {
  const base = (name === undefined ? '' : safeBaseName(name)) || safeBaseName(fallback) || 'document';
  return `${base}${PDF}`;
}

/**
 * `names` cleaned (`safePdfFileName`, fallback `document`) and made unique as archives and case-blind
 * file systems see them (`A.pdf` and `a.pdf` clash): a repeat becomes `name (2).pdf`, `name (3).pdf`…,
 * its stem cut further when the number would pass 255 bytes. Each stem remembers the number it
 * reached, so k documents named alike cost k lookups, not k²/2 (8,000 took 21 s on a request thread).
 * Cleaning twice changes nothing, so names made here come back unchanged.
 */
export function uniquePdfFileNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  const reached = new Map<string, number>();
  const cleaned = new Map<string, string>();
  return names.map((raw) => {
    let base = cleaned.get(raw);
    if (base === undefined) cleaned.set(raw, (base = safeBaseName(raw) || 'document'));
    let name = `${base}${PDF}`;
    const key = base.toLowerCase();
    if (used.has(name.toLowerCase())) {
      // Numbers below the one reached were all taken when they were tried, and names are never freed.
      let i = reached.get(key) ?? 2;
      const room = MAX_FILE_NAME_BYTES - PDF.length - Buffer.byteLength(base, 'utf8');
      do {
        const suffix = ` (${i++})`;
        const stem =
          suffix.length <= room
            ? base
            : safeBaseName(base, MAX_FILE_NAME_BYTES - PDF.length - suffix.length) || 'document';
        name = `${stem}${suffix}${PDF}`;
      } while (used.has(name.toLowerCase()));
      reached.set(key, i);
    }
    used.add(name.toLowerCase());
    return name;
  });
}
