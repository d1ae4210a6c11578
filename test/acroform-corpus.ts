/** Where the shared corpus lives: beside the checkout, as in CI. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FILLABLE_DIR = path.resolve(repoRoot, '../shared/corpus/fillable_pdfs');

export function corpusPdf(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(FILLABLE_DIR, name)));
}

export const ENCRYPTED = [
  'pdfjs_issue9972-1_aes_empty_userpw_form.pdf',
  'pypdf_r6_aes256_empty_userpw.pdf',
  'qpdf_enc_rc4_128_owner_only_30p.pdf',
  'qpdf_enc_aes256_R6_owner_only_objstm_30p.pdf',
] as const;

export { qpdfStrict } from './helpers/pdf.js';
