/**
 * castpress as a library user gets it: `npm pack` (which builds dist/), the tarball
 * installed into a temporary project outside the repository (test/helpers/installed-package.ts).
 * Every name the README's ts blocks import from an entry point (`castpress`, `castpress/packets`,
 * `castpress/signing`, `castpress/server`, `castpress/batch`) type-checks from that entry point,
 * and each entry point exports nothing else (types included, read with the TypeScript checker
 * from the installed .d.ts files). The README's and the guides' code blocks run in
 * test/docs.test.ts. Slow (build + install, ~40 s, once per run: docs.test.ts uses the same
 * install), so it lives in its own file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkInstalled,
  installPackage,
  repoRoot as root,
  run,
  type InstalledPackage,
} from './helpers/installed-package.js';

let installed: InstalledPackage;
let project: string;

async function node(file: string): Promise<string> {
  const { stdout } = await run(process.execPath, [file], { cwd: project, timeout: 120_000 });
  return stdout;
}

beforeAll(async () => {
  installed = await installPackage();
  project = installed.project;
}, 300_000);

afterAll(async () => {
  await installed?.remove();
});

describe('the installed package', () => {
  it('holds the build, not the sources, and its command runs the build', async () => {
    const pkg = path.join(project, 'node_modules', 'castpress');
    await expect(readFile(path.join(pkg, 'dist', 'index.js'), 'utf8')).resolves.toContain('templateFromPdf');
    await expect(readFile(path.join(pkg, 'src', 'index.ts'), 'utf8')).rejects.toThrow(/ENOENT/);
    const { stdout } = await run(path.join(project, 'node_modules', '.bin', 'castpress'), ['generate', '--help'], {
      cwd: project,
      timeout: 60_000,
    });
    expect(stdout).toMatch(/generate/);
  });

  it('runs castpress/server: a loopback server that answers generate-pdf', async () => {
    await writeFile(
      path.join(project, 'server.mjs'),
      `import { buildApp, startServer } from 'castpress/server';
if (typeof buildApp !== 'function') throw new Error('buildApp missing');
const server = await startServer({ port: 0, noAuth: true, logger: false });
try {
  const res = await fetch(server.url + '/api/v1/generate-pdf', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Hi', data: [{ label: 'Name', content: 'Ada' }] }),
  });
  const body = new Uint8Array(await res.arrayBuffer());
  console.log(res.status, new TextDecoder().decode(body.subarray(0, 5)));
} finally {
  await server.close();
}
`,
    );
    expect((await node('server.mjs')).trim()).toBe('200 %PDF-');
  }, 120_000);

  it("exports exactly the names the README's Entry points list, from the entry point it names", async () => {
    const documented = documentedImports(await readFile(path.join(root, 'README.md'), 'utf8'));
    expect([...documented.keys()].sort()).toEqual([
      'castpress',
      'castpress/batch',
      'castpress/packets',
      'castpress/server',
      'castpress/signing',
    ]);
    // One file importing every documented name from its entry point; tsc reports each one missing.
    const lines = [...documented].map(
      ([from, names]) =>
        `import { ${[...names].map(([n, typeOnly]) => (typeOnly ? `type ${n}` : n)).join(', ')} } from '${from}';`,
    );
    await writeFile(path.join(project, 'documented.ts'), lines.join('\n') + '\n');
    const { diagnostics, exported } = checkInstalled(path.join(project, 'documented.ts'));
    expect(diagnostics).toEqual([]);
    // Each entry point exports nothing the README does not list (types included), and names the
    // README imports as values are values at run time; type-only names are not.
    const runtime = await runtimeExports([...documented.keys()]);
    for (const [from, names] of documented) {
      expect({ from, exported: [...exported.get(from)!].sort() }).toEqual({ from, exported: [...names.keys()].sort() });
      const values = [...names]
        .filter(([, typeOnly]) => !typeOnly)
        .map(([n]) => n)
        .sort();
      expect({ from, runtime: runtime.get(from)!.sort() }).toEqual({ from, runtime: values });
    }
  }, 120_000);

  it('type-checks the names library users reach for against the installed types', async () => {
    await writeFile(
      path.join(project, 'names.ts'),
      `import { createEngine, Engine, isCastpressError, CastpressError, ValidationError, DirectoryTemplateStore, MemoryTemplateStore, templateFromPdf, FontRegistry, MissingFontError,
  type EngineOptions, type Template, type TemplateInput, type TemplateField, type TemplateStore, type FieldType, type FillRequest, type GenerateRequest, type ResourceResolver,
} from 'castpress';
import { runJobLine, renderJob, type JobEnvironment } from 'castpress/batch';
import { buildApp, startServer, type StartOptions, type RunningServer } from 'castpress/server';

const options: EngineOptions = { now: () => new Date(0), fonts: { directories: [] } };
const engine: Engine = createEngine(options);
const fromPdf: Promise<TemplateInput> = templateFromPdf(new Uint8Array());
const store: TemplateStore = new MemoryTemplateStore();
const dirStore: TemplateStore = new DirectoryTemplateStore('templates');
const env: JobEnvironment = { engine, templates: undefined as unknown as JobEnvironment['templates'], outDir: 'out' };
const job: ReturnType<typeof runJobLine> = runJobLine('{}', 1, env);
const bytes: ReturnType<typeof renderJob> = renderJob({} as Parameters<typeof renderJob>[0], env);
const errors = [CastpressError, ValidationError];
const missing: (typeof MissingFontError)['prototype']['face'] | undefined = new FontRegistry().missingEngineFaces()[0]?.face;
const resolver: ResourceResolver | undefined = undefined;
const start: (o: StartOptions) => Promise<RunningServer> = startServer;
type Used = [Template, TemplateField, FieldType, FillRequest, GenerateRequest, typeof buildApp, typeof isCastpressError];
export { fromPdf, store, dirStore, job, bytes, errors, missing, resolver, start };
export type { Used };
`,
    );
    expect(checkInstalled(path.join(project, 'names.ts')).diagnostics).toEqual([]);
  }, 120_000);
});

/**
 * Every `import { … } from 'castpress…'` in the README's ts blocks: entry point → name → whether
 * it is imported as a type only. A name imported both ways counts as a value.
 */
function documentedImports(readme: string): Map<string, Map<string, boolean>> {
  const out = new Map<string, Map<string, boolean>>();
  for (const block of readme.matchAll(/```ts\n([\s\S]*?)```/g)) {
    const code = block[1]!.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const [, list, from] of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(castpress(?:\/[\w-]+)?)'/g)) {
      const names = out.get(from!) ?? new Map<string, boolean>();
      out.set(from!, names);
      for (const raw of list!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)) {
        const typeOnly = raw.startsWith('type ');
        const name = raw.replace(/^type\s+/, '');
        names.set(name, (names.get(name) ?? true) && typeOnly);
      }
    }
  }
  return out;
}

/** What each entry point exports at run time in the installed package (its own node process). */
async function runtimeExports(entries: string[]): Promise<Map<string, string[]>> {
  const script = `for (const e of ${JSON.stringify(entries)}) console.log(JSON.stringify([e, Object.keys(await import(e))]));`;
  await writeFile(path.join(project, 'exports.mjs'), script);
  const out = await node('exports.mjs');
  return new Map(
    out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as [string, string[]]),
  );
}
