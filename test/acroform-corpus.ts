/** The corpus PDFs tests read: copies in test/fixtures/corpus (sources and licences in its MANIFEST.md). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FILLABLE_DIR = path.join(repoRoot, 'test', 'fixtures', 'corpus', 'fillable_pdfs');

export function corpusPdf(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(FILLABLE_DIR, name)));
}

/** Every fillable PDF of the corpus (the forms templateFromPdf imports). */
export const FILLABLE_FORMS = [
  'ca_cra_cannabis_duty_return_combed.pdf',
  'fr_assurance_maladie_rniam_comb.pdf',
  'irs_f1040_2010_prefilled.pdf',
  'irs_f1040_2019_xfa.pdf',
  'irs_fw9_rev2018_xfa.pdf',
  'lu_modele160_2019_radio_comb.pdf',
  'pdfbox_AcroFormsBasicFields.pdf',
  'pdfbox_PDFBOX-5784_comb_variants.pdf',
  'pdfcpu_form_demo_japanese.pdf',
  'pdfcpu_form_demo_russian.pdf',
  'pdfjs_issue9972-1_aes_empty_userpw_form.pdf',
  'pdfjs_opt_demo_radio_japanese_export.pdf',
  'pdflib_fancy_fields_emoji.pdf',
  'pdflib_sample_form_signature.pdf',
  'qpdf_form_empty_from_odt.pdf',
  'qpdf_form_filled_by_acrobat.pdf',
] as const;

export const ENCRYPTED = [
  'pdfjs_issue9972-1_aes_empty_userpw_form.pdf',
  'pypdf_r6_aes256_empty_userpw.pdf',
  'qpdf_enc_rc4_128_owner_only_30p.pdf',
  'qpdf_enc_aes256_R6_owner_only_objstm_30p.pdf',
] as const;

export { qpdfStrict } from './helpers/pdf.js';
