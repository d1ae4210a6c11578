/**
 * Field detection measured on the repository's real forms (src/detect/README.md quotes the output):
 * (a) on every fillable corpus PDF, the share of form fields proposed with a human name (their
 * tooltip or a label read on the page, not the field's name); (b) on corpus forms made flat at run
 * time, precision and recall of the proposed boxes against the removed widgets (IoU >= 0.5).
 *
 *   npx tsx scripts/measure-detection.ts [--verbose]
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { detectFields } from '../src/detect/index.js';
import {
  CORPUS_DIR,
  corpusFile,
  flattenedForm,
  IOU_MATCH,
  proposedBoxes,
  score,
} from '../test/helpers/detection-score.js';

/** Corpus forms whose page content draws their fields' boxes and lines. */
const FLAT_FORMS = [
  'irs_fw9_rev2018_xfa.pdf',
  'irs_f1040_2019_xfa.pdf',
  'irs_f1040_2010_prefilled.pdf',
  'ca_cra_cannabis_duty_return_combed.pdf',
  'pdflib_sample_form_signature.pdf',
  'lu_modele160_2019_radio_comb.pdf',
  'fr_assurance_maladie_rniam_comb.pdf',
];

/** Corpus documents without a form: a book (tables, figures) and encrypted text documents. */
const NOT_FORMS = [
  'plain_geotopo_117p.pdf',
  'pypdf_r6_aes256_empty_userpw.pdf',
  'qpdf_enc_aes256_R6_owner_only_objstm_30p.pdf',
  'qpdf_enc_rc4_128_owner_only_30p.pdf',
];

const verbose = process.argv.includes('--verbose');

/** Words of a label, lower case, without punctuation. */
const words = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .match(/[\p{L}\p{N}]+/gu) ?? [],
  );

/** A page label agrees with a tooltip when one's words hold the other's, or half their words are shared. */
function agrees(label: string, tooltip: string): boolean {
  const a = words(label);
  const b = words(tooltip);
  const shared = [...a].filter((w) => b.has(w)).length;
  return shared === a.size || shared === b.size || shared / new Set([...a, ...b]).size >= 0.5;
}
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

console.log('(a) Fillable PDFs: form fields proposed with a human name (tooltip or page label)\n');
console.log('file | fields | tooltip | page label | field name only | human');
console.log('---|---:|---:|---:|---:|---:');
let fields = 0;
let human = 0;
for (const name of readdirSync(fileURLToPath(CORPUS_DIR))
  .filter((f) => f.endsWith('.pdf'))
  .sort()) {
  const result = await detectFields(corpusFile(name), { flat: 'never' });
  const form = result.proposals.filter((p) => p.source === 'acroform');
  if (form.length === 0) continue;
  const by = (k: string) => form.filter((p) => p.labelFrom === k).length;
  const named = by('tooltip') + by('text');
  fields += form.length;
  human += named;
  console.log(
    `${name} | ${form.length} | ${by('tooltip')} | ${by('text')} | ${by('fieldName')} | ${pct(named / form.length)}`,
  );
  if (verbose)
    for (const p of form.slice(0, 40)) console.log(`    ${p.field.acroFieldName} → ${p.label} (${p.labelFrom})`);
}
console.log(`**all** | ${fields} | | | ${fields - human} | **${pct(human / fields)}**\n`);

console.log('(a2) Page labels checked against tooltips: form fields that have one, named from the page alone\n');
console.log('file | fields with a tooltip | page label found | agrees with the tooltip');
console.log('---|---:|---:|---:');
let tipped = 0;
let found = 0;
let agreed = 0;
for (const name of readdirSync(fileURLToPath(CORPUS_DIR))
  .filter((f) => f.endsWith('.pdf'))
  .sort()) {
  const result = await detectFields(corpusFile(name), { flat: 'never', tooltips: false });
  const form = result.proposals.filter((p) => p.source === 'acroform' && p.tooltip);
  if (form.length === 0) continue;
  const labelled = form.filter((p) => p.labelFrom === 'text');
  const agree = labelled.filter((p) => agrees(p.label!, p.tooltip!));
  tipped += form.length;
  found += labelled.length;
  agreed += agree.length;
  console.log(
    `${name} | ${form.length} | ${labelled.length} | ${agree.length} (${pct(agree.length / Math.max(1, labelled.length))})`,
  );
  if (verbose)
    for (const p of labelled.filter((x) => !agrees(x.label!, x.tooltip!)).slice(0, 15))
      console.log(`    ${JSON.stringify(p.label)} ≠ ${JSON.stringify(p.tooltip)}`);
}
console.log(`**all** | ${tipped} | ${found} | **${agreed} (${pct(agreed / Math.max(1, found))})**\n`);

console.log(`(b) Flat forms: proposals against the removed widgets (match: IoU >= ${IOU_MATCH}, one to one)\n`);
console.log('file | true fields | proposed | matched | precision | recall | same kind');
console.log('---|---:|---:|---:|---:|---:|---:');
let t = 0;
let p = 0;
let m = 0;
let k = 0;
for (const name of FLAT_FORMS) {
  const { flat, truth } = await flattenedForm(corpusFile(name));
  const result = await detectFields(flat);
  const s = score(truth, proposedBoxes(result.proposals));
  t += s.truth;
  p += s.proposed;
  m += s.matched;
  k += s.sameKind;
  console.log(
    `${name} | ${s.truth} | ${s.proposed} | ${s.matched} | ${pct(s.precision)} | ${pct(s.recall)} | ${pct(s.sameKind / Math.max(1, s.matched))}`,
  );
  if (verbose) {
    const show = (b: {
      pageNum: number;
      rect: { x: number; y: number; width: number; height: number };
      kind: string;
      name: string;
    }) =>
      `p${b.pageNum + 1} ${b.kind} [${[b.rect.x, b.rect.y, b.rect.width, b.rect.height].map((n) => n.toFixed(1)).join(', ')}] ${b.name}`;
    for (const x of s.missed) console.log(`    missed ${show(x)}`);
    for (const x of s.extra) console.log(`    extra  ${show(x)}`);
  }
}
console.log(`**all** | ${t} | ${p} | ${m} | **${pct(m / p)}** | **${pct(m / t)}** | ${pct(k / Math.max(1, m))}`);

console.log('\n(c) Documents that are no forms: flat proposals (each one a false positive)\n');
console.log('file | pages | proposals | labelled | per page');
console.log('---|---:|---:|---:|---:');
for (const name of NOT_FORMS) {
  const result = await detectFields(corpusFile(name));
  const labelled = result.proposals.filter((p) => p.label).length;
  console.log(
    `${name} | ${result.pages.length} | ${result.proposals.length} | ${labelled} | ${(result.proposals.length / result.pages.length).toFixed(2)}`,
  );
}
