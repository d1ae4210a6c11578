/** Where the shared corpus lives: beside the checkout, as in CI. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** `qpdf --check` without tolerance: warnings (exit 3) count as failures too. */
export async function qpdfStrict(bytes: Uint8Array): Promise<{ ok: boolean; warnings: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'castpress-acro-'));
  const file = path.join(dir, 'out.pdf');
  writeFileSync(file, bytes);
  try {
    return await new Promise((resolve) => {
      execFile('qpdf', ['--check', file], (err, stdout, stderr) => {
        const warnings = `${stdout}${stderr}`.split('\n').filter((l) => /^WARNING/.test(l));
        resolve({ ok: !err, warnings });
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
