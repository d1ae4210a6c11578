/**
 * Text tags taken out of a file's page content at assembly, so the signed document shows the signer's
 * mark and no tag under it or beside it (a tag in white text cut gaps into the rule it was drawn on).
 */
import { dropTextGlyphs } from '../../pdf/index.js';
import type { AssembleOptions } from './assembled.js';
import type { ScannedPdf } from '../tags/find.js';
import type { PacketFile } from '../request/files.js';

/**
 * `pdf` without its tags' glyphs (src/pdf `dropTextGlyphs`): uploads and generated files, unless the
 * file or the options say `hideTextTags: false`. A template is filled as authored and keeps its tags; an
 * upload that carries a signature is never rewritten and keeps them too, with a warning. Tags that stay
 * printed for another reason (drawn by a form XObject, a page the kernel cannot match) are warnings.
 */
export async function hideTextTags(
  pdf: Uint8Array,
  scanned: ScannedPdf,
  file: PacketFile,
  options: AssembleOptions,
  signed: boolean,
  property: string,
): Promise<{ pdf: Uint8Array; warnings: string[] }> {
  if (file.kind === 'template' || scanned.tags.length === 0) return { pdf, warnings: [] };
  if (!(file.hideTextTags ?? options.hideTextTags ?? true)) return { pdf, warnings: [] };
  if (signed) return { pdf, warnings: [`${property}: carries a signature, so its text tags stay printed`] };
  const dropped = await dropTextGlyphs(pdf, scanned.tagGlyphs, property);
  const warnings = [
    ...dropped.skipped.map((s) => `${property}: the text tags of page ${s.pageIndex} stay printed (${s.reason})`),
    ...scanned.inForms.map(
      (t) => `${property}: the text tag ${t.text} on page ${t.pageNum} is drawn by a form XObject; it stays printed`,
    ),
  ];
  return { pdf: dropped.pdf, warnings };
}
