/**
 * Writes the tamper corpus (test/helpers/tamper-corpus.ts) to a folder: one PDF per kind, the
 * trusted install's root (root.pem) and the verdicts, to look at with pdfsig, `mutool sign -v`,
 * `castpress verify --trust root.pem` or a viewer. The tests build the same documents themselves.
 *
 *   npx tsx scripts/tamper-corpus.ts /tmp/tamper
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CORPUS, createCorpusContext } from '../test/helpers/tamper-corpus.js';

const out = process.argv[2];
if (!out) {
  console.error('usage: tsx scripts/tamper-corpus.ts DIR');
  process.exit(2);
}
await mkdir(path.join(out, 'data'), { recursive: true });
const ctx = await createCorpusContext(path.join(out, 'data'));
await copyFile(ctx.install.files!.rootCertificate, path.join(out, 'root.pem'));
await copyFile(new URL('../test/fixtures/tamper/verdicts.json', import.meta.url), path.join(out, 'verdicts.json'));
for (const [kind, build] of Object.entries(CORPUS)) {
  const name = kind
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
  await writeFile(path.join(out, `${name}.pdf`), await build(ctx));
}
console.log(`${Object.keys(CORPUS).length} documents in ${out}`);
