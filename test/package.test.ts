/**
 * castpress as a library user gets it: `npm pack` (which builds dist/), the tarball
 * installed into a temporary project outside the repository, and the README's
 * examples run there, importing `castpress` and `castpress/server`; a TypeScript
 * file using every name the README shows type-checks against the installed types.
 * The install resolves dependencies from npm's cache first (`--prefer-offline`); only
 * what the cache lacks comes from the registry. Slow (build + install, ~40 s), so
 * it lives in its own file.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const w9 = path.join(root, 'test', 'fixtures', 'corpus', 'fillable_pdfs', 'irs_fw9_rev2018_xfa.pdf');

let dir: string;
let project: string;

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, timeout: 280_000, maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false' } });
  return stdout;
}

async function node(file: string): Promise<string> {
  const { stdout } = await run(process.execPath, [file], { cwd: project, timeout: 120_000 });
  return stdout;
}

/** The first ```ts block after `heading` in the README. */
async function readmeBlock(heading: string): Promise<string> {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const from = readme.indexOf(heading);
  expect(from, heading).toBeGreaterThanOrEqual(0);
  const match = /```ts\n([\s\S]*?)```/.exec(readme.slice(from));
  expect(match, `a ts block after ${heading}`).not.toBeNull();
  return match![1]!;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-pack-'));
  const packed = JSON.parse(await npm(['pack', '--json', '--pack-destination', dir], root)) as Array<{ filename: string }>;
  const tarball = path.join(dir, packed[0]!.filename);
  project = path.join(dir, 'project');
  await mkdir(project);
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'castpress-user', private: true, type: 'module' }));
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], project);
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the installed package', () => {
  it('holds the build, not the sources, and its command runs the build', async () => {
    const pkg = path.join(project, 'node_modules', 'castpress');
    await expect(readFile(path.join(pkg, 'dist', 'index.js'), 'utf8')).resolves.toContain('templateFromPdf');
    await expect(readFile(path.join(pkg, 'src', 'index.ts'), 'utf8')).rejects.toThrow(/ENOENT/);
    const { stdout } = await run(path.join(project, 'node_modules', '.bin', 'castpress'), ['generate', '--help'], { cwd: project, timeout: 60_000 });
    expect(stdout).toMatch(/generate/);
  });

  it("runs the README's 'Using it' example as written", async () => {
    // The README's `template` and its 'cast-eid' store entry, made from the W-9 with templateFromPdf.
    await mkdir(path.join(project, 'templates', 'cast-eid'), { recursive: true });
    await copyFile(w9, path.join(project, 'templates', 'cast-eid', 'template.pdf'));
    const block = await readmeBlock('## Using it');
    const [imports, ...rest] = block.split('\n');
    expect(imports).toBe("import { createEngine, isCastpressError } from 'castpress';");
    const script = [
      imports,
      "import { readFileSync, writeFileSync } from 'node:fs';",
      "import { templateFromPdf } from 'castpress';",
      "const template = await templateFromPdf(readFileSync('templates/cast-eid/template.pdf'));",
      "writeFileSync('templates/cast-eid/working.json', JSON.stringify({ fields: template.fields }));",
      ...rest,
      "for (const [name, pdf] of Object.entries({ filled, byEid, report, invoice })) console.log(name, pdf.length, new TextDecoder().decode(pdf.subarray(0, 5)));",
    ].join('\n');
    await writeFile(path.join(project, 'using-it.mjs'), script);
    const out = await node('using-it.mjs');
    for (const name of ['filled', 'byEid', 'report', 'invoice']) expect(out).toMatch(new RegExp(`^${name} \\d+ %PDF-`, 'm'));
    // The closing try/catch: a closed engine answers with a typed error.
    expect(out).toMatch(/^5\d\d \{/m);
  }, 180_000);

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

  it('exports and types every name the README shows', async () => {
    await writeFile(
      path.join(project, 'names.ts'),
      `import {
  createEngine, Engine, isCastpressError, CastpressError, ValidationError, AuthorizationError, NotFoundError,
  PayloadTooLargeError, UnsupportedMediaTypeError, TooManyRequestsError, InvalidPdfError, RenderError,
  DirectoryTemplateStore, MemoryTemplateStore, templateFromPdf, runJobLine, renderJob, FontRegistry, MissingFontError,
  createSigningIdentity, applySignerInputs, completeDocument, sha256Of, AppearanceWriter, verifyPdf, createPacketAssembler,
  type EngineOptions, type Template, type TemplateInput, type TemplateField, type TemplateStore, type FieldType,
  type FillRequest, type GenerateRequest, type ResourceResolver, type JobEnvironment,
} from 'castpress';
import { buildApp, startServer, type StartOptions, type RunningServer } from 'castpress/server';

const options: EngineOptions = { now: () => new Date(0), fonts: { directories: [] } };
const engine: Engine = createEngine(options);
const fromPdf: Promise<TemplateInput> = templateFromPdf(new Uint8Array());
const store: TemplateStore = new MemoryTemplateStore();
const dirStore: TemplateStore = new DirectoryTemplateStore('templates');
const env: JobEnvironment = { engine, templates: undefined as unknown as JobEnvironment['templates'], outDir: 'out' };
const job: ReturnType<typeof runJobLine> = runJobLine('{}', 1, env);
const bytes: ReturnType<typeof renderJob> = renderJob({} as Parameters<typeof renderJob>[0], env);
const errors = [CastpressError, ValidationError, AuthorizationError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError, TooManyRequestsError, InvalidPdfError, RenderError];
const missing: (typeof MissingFontError)['prototype']['face'] | undefined = new FontRegistry().missingEngineFaces()[0]?.face;
const resolver: ResourceResolver | undefined = undefined;
const start: (o: StartOptions) => Promise<RunningServer> = startServer;
type Used = [Template, TemplateField, FieldType, FillRequest, GenerateRequest, typeof buildApp, typeof isCastpressError];
const signing = [createSigningIdentity, applySignerInputs, completeDocument, sha256Of, AppearanceWriter, verifyPdf, createPacketAssembler(engine).assemble];
export { fromPdf, store, dirStore, job, bytes, errors, missing, resolver, start, signing };
export type { Used };
`,
    );
    await writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [path.join(root, 'node_modules', '@types')] }, files: ['names.ts'] }),
    );
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, timeout: 120_000 }).then(
      () => '',
      (e: { stdout?: string }) => e.stdout ?? String(e),
    );
    expect(result).toBe('');
  }, 120_000);
});
