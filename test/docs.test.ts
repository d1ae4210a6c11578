/**
 * The guides cannot rot: every ```ts and ```sh block of README.md and docs/*.md runs against the
 * packed and installed package. Per document, its blocks run in order in one folder of
 * the installed project (a later block may use what an earlier one wrote), after the hidden set-up
 * below. ts blocks are type-checked against the installed .d.ts files (strict), then transpiled and
 * run with node in one process for all the documents (test/helpers/guide-blocks.ts: a block ends
 * where its own process would have exited, so one that leaves a server or an engine open still
 * fails; the package is imported once per run of this file, not once per document, ~1.5 s of CPU
 * each; a block whose uncaught error ends that process fails, and the next document gets a new
 * one); a block that prints
 * must not print `false` (the blocks print their checks). sh
 * blocks run in bash with the installed `castpress` bin first on PATH. A block fenced `sh no-run`
 * (a server that does not end, a Redis queue, the checkout's own set-up) is only counted, and at
 * most NO_RUN_ALLOWED may exist. One install for the run (~40 s), shared with package.test.ts.
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuideRunner } from './helpers/guide-blocks.js';
import { checkInstalled, installPackage, repoRoot, run, type InstalledPackage } from './helpers/installed-package.js';

/** Illustration-only blocks allowed across README.md and docs/ (today: the checkout's set-up, `serve`, serving behind a proxy, PostgreSQL, the queue). */
const NO_RUN_ALLOWED = 5;

interface Block {
  doc: string;
  index: number;
  lang: 'ts' | 'sh';
  noRun: boolean;
  code: string;
}

/** The hidden set-up every document's folder gets: the corpus W-9 as `w9.pdf` and an empty fill body. */
async function setUp(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await copyFile(
    path.join(repoRoot, 'test', 'fixtures', 'corpus', 'fillable_pdfs', 'irs_fw9_rev2018_xfa.pdf'),
    path.join(folder, 'w9.pdf'),
  );
  await writeFile(path.join(folder, 'data.json'), JSON.stringify({ data: {} }));
}

async function documents(): Promise<string[]> {
  const guides = (await readdir(path.join(repoRoot, 'docs'))).filter((f) => f.endsWith('.md')).sort();
  return ['README.md', ...guides.map((f) => path.join('docs', f))];
}

function blocksOf(doc: string, text: string): Block[] {
  const out: Block[] = [];
  for (const m of text.matchAll(/^```(ts|sh)([^\n]*)\n([\s\S]*?)^```$/gm))
    out.push({ doc, index: out.length, lang: m[1] as 'ts' | 'sh', noRun: /\bno-run\b/.test(m[2]!), code: m[3]! });
  return out;
}

function fileName(b: Block, ext: string): string {
  return `${b.doc.replace(/[/.]/g, '-')}-${b.index}.${ext}`;
}

/** Every document whose blocks run, one test each (the first test checks that no guide is missing here). */
const RUN_DOCS = [
  'README.md',
  'docs/filling.md',
  'docs/generating.md',
  'docs/signature-packets.md',
  'docs/server.md',
  'docs/scaling.md',
  'docs/deployment.md',
  'docs/templates.md',
];

let installed: InstalledPackage;
let all: Block[] = [];
let runner: GuideRunner | undefined;

/** The runner of the ts blocks: the one already started, or a new one if none is running. */
function guideRunner(env: NodeJS.ProcessEnv): GuideRunner {
  if (!runner?.running) runner = new GuideRunner(installed.project, env);
  return runner;
}

beforeAll(async () => {
  installed = await installPackage();
  for (const doc of await documents()) all.push(...blocksOf(doc, await readFile(path.join(repoRoot, doc), 'utf8')));
}, 300_000);

afterAll(async () => {
  await runner?.close();
  await installed?.remove();
});

describe("the guides' code blocks, against the installed package", () => {
  it('finds the guides, their blocks, and few illustration-only ones', async () => {
    const docs = await documents();
    for (const guide of ['filling', 'generating', 'signature-packets', 'server', 'scaling'])
      expect(docs).toContain(path.join('docs', `${guide}.md`));
    expect([...docs].sort()).toEqual([...RUN_DOCS].sort());
    for (const doc of docs) expect(all.filter((b) => b.doc === doc && !b.noRun).length, doc).toBeGreaterThan(0);
    const noRun = all.filter((b) => b.noRun);
    expect(
      noRun.every((b) => b.lang === 'sh'),
      'only sh blocks may be no-run',
    ).toBe(true);
    expect(noRun.length).toBeLessThanOrEqual(NO_RUN_ALLOWED);
  });

  it('type-checks every ts block (each its own module) against the installed types', async () => {
    const dir = path.join(installed.project, 'typecheck');
    await mkdir(dir, { recursive: true });
    const files = all.filter((b) => b.lang === 'ts').map((b) => path.join(dir, fileName(b, 'ts')));
    await Promise.all(all.filter((b) => b.lang === 'ts').map((b, i) => writeFile(files[i]!, b.code)));
    expect(checkInstalled(...files).diagnostics).toEqual([]);
  }, 180_000);

  // One test per document: its blocks in order, in its own folder.
  it.each(RUN_DOCS)(
    'runs the blocks of %s in order',
    async (doc) => {
      const folder = path.join(installed.project, 'run', doc.replace(/[/.]/g, '-'));
      await setUp(folder);
      const bin = path.join(installed.project, 'node_modules', '.bin');
      const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
      const blocks = all.filter((b) => b.doc === doc && !b.noRun);
      expect(blocks.length).toBeGreaterThan(0);
      await runBlocks(doc, folder, env, blocks, guideRunner(env));
    },
    400_000,
  );
});

async function runBlocks(
  doc: string,
  folder: string,
  env: NodeJS.ProcessEnv,
  blocks: Block[],
  runner: GuideRunner,
): Promise<void> {
  for (const b of blocks) {
    const where = `${doc} block ${b.index}:\n${b.code}`;
    let stdout: string;
    try {
      if (b.lang === 'ts') {
        const js = ts.transpileModule(b.code, {
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        }).outputText;
        await writeFile(path.join(folder, fileName(b, 'mjs')), js);
        ({ stdout } = await runner.run(path.join(folder, fileName(b, 'mjs')), folder, 150_000));
      } else {
        ({ stdout } = await run('bash', ['-euo', 'pipefail', '-c', b.code], {
          cwd: folder,
          env,
          timeout: 150_000,
        }));
      }
    } catch (e) {
      const err = e as { stderr?: string; message: string };
      throw new Error(`${where}\nfailed: ${err.stderr || err.message}`);
    }
    expect(stdout, where).not.toMatch(/\bfalse\b/);
  }
}
