/**
 * A cold fill of a fillable PDF parses the PDF once: `castpress fill form.pdf`
 * and a batch job naming a .pdf read the form from the parse the engine keeps for the fill,
 * instead of importing the form with a parse of its own and filling from a second one.
 * Counted at the kernel's parser (every load of a PDF goes through HardenedParser.parse).
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import runTask from '../src/batch/worker.js';
import { fillCommand } from '../src/cli/fill.js';
import { createEngine } from '../src/engine/index.js';
import { templateFromPdf } from '../src/fields/index.js';
import { HardenedParser } from '../src/pdf/parse/parser.js';
import { pageText } from './helpers/pdf.js';

const W9 = path.resolve('test/fixtures/corpus/fillable_pdfs/irs_fw9_rev2018_xfa.pdf');
let dir: string;
/** The parser calls of one load of the W-9 (one, unless the file needs a decrypting second pass). */
let perLoad: number;
let alias: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-parse-once-'));
  await copyFile(W9, path.join(dir, 'fw9.pdf'));
  const spy = vi.spyOn(HardenedParser, 'parse');
  const template = await templateFromPdf(new Uint8Array(await readFile(W9)));
  perLoad = spy.mock.calls.length;
  spy.mockRestore();
  alias = template.fields.find((f) => f.type === 'shortText')!.alias!;
  await writeFile(path.join(dir, 'data.json'), JSON.stringify({ data: { [alias]: 'Ada Parse-Once' } }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('a cold fill of a fillable PDF parses it once', () => {
  it('castpress fill form.pdf', async () => {
    expect(perLoad).toBeGreaterThan(0);
    const out = path.join(dir, 'cli.pdf');
    const spy = vi.spyOn(HardenedParser, 'parse');
    const code = await fillCommand([path.join(dir, 'fw9.pdf'), path.join(dir, 'data.json'), '-o', out]);
    const calls = spy.mock.calls.length;
    spy.mockRestore();
    expect(code).toBe(0);
    expect((await pageText(new Uint8Array(await readFile(out)))).join('\n')).toContain('Ada Parse-Once');
    expect(calls).toBe(perLoad);
  });

  it('a batch job naming a .pdf template (the worker thread entry, run in this process)', async () => {
    const spy = vi.spyOn(HardenedParser, 'parse');
    const line = JSON.stringify({ id: 'w9', template: 'fw9.pdf', request: { data: { [alias]: 'Ada Batch' } } });
    const result = await runTask({ line, lineNumber: 1, outDir: dir, baseDir: dir, engine: {} });
    const calls = spy.mock.calls.length;
    spy.mockRestore();
    expect(result).toMatchObject({ ok: true, output: 'w9.pdf' });
    expect((await pageText(new Uint8Array(await readFile(path.join(dir, 'w9.pdf'))))).join('\n')).toContain(
      'Ada Batch',
    );
    expect(calls).toBe(perLoad);
  });

  it('engine.templateFromPdf gives what templateFromPdf gives, and names a bad input as asked', async () => {
    const engine = createEngine();
    try {
      const bytes = new Uint8Array(await readFile(W9));
      expect(await engine.templateFromPdf(bytes, { eid: 'w9' })).toEqual(await templateFromPdf(bytes, { eid: 'w9' }));
      await expect(
        engine.templateFromPdf(new TextEncoder().encode('%PDF-1.7\nnot really'), { property: 'form' }),
      ).rejects.toMatchObject({
        name: 'InvalidPdfError',
        fields: [expect.objectContaining({ property: 'form' })],
      });
    } finally {
      await engine.close();
    }
  });
});
