/**
 * A render thread (the server's pool, batch, the queue worker: dist/bundle/worker-entry.mjs) loads
 * per task kind what that kind runs, counted rather than timed: each child runs with
 * test/helpers/module-log.mjs preloaded, and the sources the bundle files it loaded hold are read
 * from dist/bundle-inputs.json (esbuild's metafile of the build: `src/engine/engine.ts`, `…/node_modules/zod/…`).
 * Loading the worker file (what a thread does before it is ready) compiles no engine, no package;
 * a `json` task adds the schemas and still no engine; a `request` fill adds the engine.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles } from '../scripts/bundle.mjs';
import { inlinedSources, sourceGroup } from './helpers/bundle-inputs.js';
import { repoRoot } from './helpers/cli.js';

const recorder = path.join(repoRoot, 'test', 'helpers', 'module-log.mjs');
const entry = pathToFileURL(path.join(repoRoot, 'dist', 'bundle', 'worker-entry.mjs')).href;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-thread-start-'));
  await buildBundles();
}, 300_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let runs = 0;
/** Runs `code` (an ES module importing the worker file as `worker`) and lists what its bundle files inline. */
function inlined(code: string): Promise<{ code: number; stderr: string; stdout: string; sources: Set<string> }> {
  const log = path.join(dir, `modules-${++runs}.log`);
  const script = `const worker = await import(${JSON.stringify(entry)});\n${code}`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', pathToFileURL(recorder).href, '--input-type=module', '-e', script],
      { cwd: dir, timeout: 300_000, env: { ...process.env, CASTPRESS_MODULE_LOG: log } },
      (error, stdout, stderr) => {
        void (async () => {
          const modules = (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
          const sources = new Set((await inlinedSources(modules)).map(sourceGroup));
          resolve({ code: error ? Number(error.code ?? 1) : 0, stderr, stdout, sources });
        })();
      },
    );
  });
}

const engineOptions = `{ fonts: {}, templatesDir: ${JSON.stringify(path.join(repoRoot, 'test', 'fixtures'))} }`;

describe('a render thread loads what its task kind runs', () => {
  it('loading the worker file (the thread ready for tasks) compiles no engine and no package', async () => {
    const run = await inlined('');
    expect(run.code, run.stderr).toBe(0);
    expect([...run.sources].filter((s) => !s.startsWith('src/'))).toEqual([]);
    expect([...run.sources].sort()).toEqual(['src/batch', 'src/errors']);
  }, 300_000);

  it('a json task loads the schemas, not the engine; a fill request loads the engine', async () => {
    const json = await inlined(
      `const out = await worker.json({ bytes: new TextEncoder().encode('{"a":[1,2]}'), property: 'body', maxValues: 100 });
       process.stdout.write(JSON.stringify(out));`,
    );
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(json.sources).toContain('src/schema');
    expect(json.sources).not.toContain('src/engine');
    expect(json.sources).not.toContain('@cantoo/pdf-lib');

    const fill = await inlined(
      `const out = await worker.request({ engine: ${engineOptions}, kind: 'fill', template: 'no-such-template', body: { data: {} } });
       process.stdout.write(JSON.stringify(out));
       await worker.closeWorker();`,
    );
    expect(fill.code, fill.stderr).toBe(0);
    // A typed error is an outcome: the engine was made and looked the template up.
    expect(JSON.parse(fill.stdout)).toMatchObject({ ok: false });
    expect(fill.sources).toContain('src/engine');
    expect(fill.sources).toContain('@cantoo/pdf-lib');
  }, 300_000);
});
