/**
 * The README's demo: fills a form, generates a Markdown report and an HTML
 * invoice into out/, then runs a two-signer signature packet through the
 * library workflow into out/packet/ and prints its verification.
 * Each example is independent; a failure is reported and the others still run.
 * `npm run demo -- --serve` starts the server with a demo packet instead
 * (scripts/demo-serve.ts).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, isCastpressError } from '../src/index.js';
import { demoTemplate } from '../examples/demo-template.js';
import { runPacketDemo } from './demo-packet.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'out');
const readJson = async (name: string): Promise<unknown> =>
  JSON.parse(await readFile(path.join(root, 'examples', name), 'utf8'));

const describe = (e: unknown): string =>
  isCastpressError(e) ? JSON.stringify(e.toJSON()) : e instanceof Error ? (e.stack ?? e.message) : String(e);

if (process.argv.includes('--serve')) {
  const { serveDemo } = await import('./demo-serve.js');
  await serveDemo(root);
} else {
  await writeExamples();
}

async function writeExamples(): Promise<void> {
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
      console.error(`out/${file}  FAILED: ${describe(e)}`);
    }
  }
  await engine.close();

  // The signature packet: create, sign for both signers, complete, verify.
  const started = performance.now();
  try {
    const packet = await runPacketDemo(path.join(outDir, 'packet'), path.join(outDir, 'demo-data'));
    console.log(
      `\nSignature packet (two signers: one drawn, one typed), ${(performance.now() - started).toFixed(0)} ms; each signer's own signature on the documents, a seal on each, and the certificate of completion as its own sealed file:`,
    );
    for (const file of packet.files) console.log(`  out/${file}`);
    console.log('Verification (trust anchor: the local CA root, out/demo-data/signing/root-ca.pem):');
    for (const line of packet.report) console.log(`  ${line}`);
    if (!packet.valid) failed++;
  } catch (e) {
    failed++;
    console.error(`out/packet  FAILED: ${describe(e)}`);
  }
  process.exitCode = failed ? 1 : 0;
}
