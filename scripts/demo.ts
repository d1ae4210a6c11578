/**
 * The README's demo: fills a form, generates a Markdown report and an HTML
 * invoice into out/. Each example is independent; a failure is reported and
 * the others still run.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, isCastpressError } from '../src/index.js';
import { demoTemplate } from '../examples/demo-template.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'out');
const readJson = async (name: string): Promise<unknown> =>
  JSON.parse(await readFile(path.join(root, 'examples', name), 'utf8'));

const engine = createEngine({ now: () => new Date() });
await mkdir(outDir, { recursive: true });

const examples: Array<[string, () => Promise<Uint8Array>]> = [
  ['fill-example.pdf', async () => engine.fill(await demoTemplate(), await readJson('fill-request.json'))],
  [
    'fill-interactive-example.pdf',
    async () =>
      engine.fill(await demoTemplate(), {
        ...((await readJson('fill-request.json')) as object),
        useInteractiveFields: true,
      }),
  ],
  ['markdown-example.pdf', async () => engine.generate(await readJson('markdown-request.json'))],
  ['html-example.pdf', async () => engine.generate(await readJson('html-request.json'))],
];

let failed = 0;
for (const [file, make] of examples) {
  const started = performance.now();
  try {
    const pdf = await make();
    await writeFile(path.join(outDir, file), pdf);
    console.log(
      `out/${file}  ${(pdf.byteLength / 1024).toFixed(0)} KB  ${(performance.now() - started).toFixed(0)} ms`,
    );
  } catch (e) {
    failed++;
    console.error(
      `out/${file}  FAILED: ${isCastpressError(e) ? JSON.stringify(e.toJSON()) : e instanceof Error ? e.stack : String(e)}`,
    );
  }
}
await engine.close();
process.exitCode = failed ? 1 : 0;
