/**
 * Commands that validate a request or two and exit (fill, generate, import-template, verify) parse
 * without zod's compiled parsers (src/cli/index.ts), counted rather than timed: each child
 * runs with test/helpers/function-count.mjs preloaded, which counts the functions made from source
 * text at run time. zod makes one per object schema at its first parse, when it may; a one-shot
 * command's process makes none. What the commands answer is checked by their own tests (cli,
 * cli-messages), which run the same processes.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles } from '../scripts/bundle.mjs';
import { repoRoot } from './helpers/cli.js';

const bin = path.join(repoRoot, 'bin', 'castpress.js');
const counter = pathToFileURL(path.join(repoRoot, 'test', 'helpers', 'function-count.mjs')).href;
/** zod as the package resolves it (the children run in a temporary folder). */
const zod = createRequire(import.meta.url).resolve('zod');
const W9 = path.join(repoRoot, 'test', 'fixtures', 'corpus', 'fillable_pdfs', 'irs_fw9_rev2018_xfa.pdf');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-once-'));
  // `npm test` builds the bundles first; this skips when they are fresh.
  await buildBundles();
  await copyFile(W9, path.join(dir, 'fw9.pdf'));
}, 300_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let runs = 0;
/** Runs node with the counter preloaded; the exit code, stderr and the functions made from source text. */
function counting(args: string[]): Promise<{ code: number; stderr: string; made: number }> {
  const file = path.join(dir, `made-${++runs}.txt`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', counter, ...args],
      { cwd: dir, timeout: 300_000, env: { ...process.env, CASTPRESS_FUNCTION_COUNT: file } },
      (error, _stdout, stderr) => {
        void readFile(file, 'utf8')
          .catch(() => 'NaN')
          .then((text) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr, made: Number(text) }));
      },
    );
  });
}

describe('one-shot commands parse without compiling parsers', () => {
  it('the counter sees zod compile an object parser at its first parse', async () => {
    const run = await counting([
      '-e',
      `const { z } = require(${JSON.stringify(zod)}); z.object({ a: z.string(), b: z.number() }).parse({ a: 'x', b: 1 });`,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.made).toBeGreaterThan(0);
  });

  it('`castpress fill` of the W-9 (its request and template parsed) makes no function from source text', async () => {
    await writeFile(
      path.join(dir, 'data.json'),
      JSON.stringify({ data: { 'topmostSubform[0].Page1[0].f1_1[0]': 'Ada Lovelace' } }),
    );
    const run = await counting([bin, 'fill', 'fw9.pdf', 'data.json', '-o', 'out.pdf']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.made).toBe(0);
  }, 300_000);

  it('`castpress generate` of Markdown makes none either, and a bad request still reads as it did', async () => {
    await writeFile(
      path.join(dir, 'md.json'),
      JSON.stringify({ title: 'Once', data: [{ label: 'Name', content: 'Ada Lovelace' }] }),
    );
    const run = await counting([bin, 'generate', 'md.json', '-o', 'md.pdf']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.made).toBe(0);
    await writeFile(path.join(dir, 'bad.json'), JSON.stringify({ title: 7, data: [] }));
    const bad = await counting([bin, 'generate', 'bad.json', '-o', 'bad.pdf']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr)).toEqual({
      status: 400,
      name: 'ValidationError',
      message: expect.any(String),
      fields: [
        { message: 'Expected string, received number', property: 'title' },
        { message: 'Must contain at least 1 item', property: 'data' },
      ],
    });
    expect(bad.made).toBe(0);
  }, 300_000);
});
