/**
 * Names of a document group's zip entries and per-file downloads: each document's filename cleaned
 * (src/format `uniquePdfFileNames`: no separators, `..`, drive colons, control, bidi or zero-width
 * characters, at most 255 bytes, `.pdf`) and a repeat numbered `name (2).pdf`, `name (3).pdf`…
 * Packets store names already in this form; names a store holds in another form (older packets)
 * are cleaned here.
 */
import { uniquePdfFileNames } from '../../../format/index.js';

export function zipEntryNames(filenames: readonly string[]): string[] {
  return uniquePdfFileNames(filenames);
}
