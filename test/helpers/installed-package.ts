/**
 * castpress as a library user gets it: `npm pack` (which builds dist/) and the tarball installed
 * into a temporary project outside the repository (`npm install --prefer-offline`: npm's cache
 * first, the registry for what it lacks). Slow (~40 s): one install per run, shared by the test
 * files that ask for it (test/helpers/shared-install-setup.ts names its folder); each file writes
 * only in its own files and subfolders of the project.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { inject } from 'vitest';

export const run = promisify(execFile);
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface InstalledPackage {
  /** The project folder (its node_modules holds castpress and its dependencies). */
  project: string;
  /** Removes the temporary folder. */
  remove(): Promise<void>;
}

export async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, {
    cwd,
    timeout: 280_000,
    maxBuffer: 64 << 20,
    env: {
      ...process.env,
      npm_config_update_notifier: 'false',
      // The machine's own, which vitest.config.ts takes from the suite's processes (npm may reach the registry).
      ...(process.env.CASTPRESS_NPM_EXTRA_CA_CERTS
        ? { NODE_EXTRA_CA_CERTS: process.env.CASTPRESS_NPM_EXTRA_CA_CERTS }
        : {}),
    },
  });
  return stdout;
}

/**
 * Runs `fn` holding `lock` (a folder: mkdir is atomic), across the processes of a run and across
 * runs; a lock whose process is gone is taken over.
 */
async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const owner = Number(await readFile(path.join(lock, 'pid'), 'utf8').catch(() => '0'));
      if (owner && !alive(owner)) await rm(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    await writeFile(path.join(lock, 'pid'), String(process.pid));
    return await fn();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/**
 * `npm pack` rebuilds dist/ in the checkout: two runs packing at once would write the same build
 * files together, so packing takes a lock (a folder beside the checkout's temporary files).
 */
function packLocked(dir: string): Promise<string> {
  const lock = path.join(tmpdir(), `castpress-pack-${Buffer.from(repoRoot).toString('hex').slice(-24)}.lock`);
  return withLock(lock, () => npm(['pack', '--json', '--pack-destination', dir], repoRoot));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The package installed for this run: the first file to ask packs and installs it into the run's
 * shared folder (under a lock, so a second file waits and then reuses it); `remove` leaves it for
 * the run's end. Without the run's folder (a config without the set-up), a private install.
 */
export async function installPackage(): Promise<InstalledPackage> {
  const shared = inject('sharedInstallDir');
  if (!shared) {
    const dir = await mkdtemp(path.join(tmpdir(), 'castpress-pack-'));
    return { project: await installInto(dir), remove: () => rm(dir, { recursive: true, force: true }) };
  }
  const project = await withLock(`${shared}.lock`, async () => {
    const ready = path.join(shared, 'ready');
    if (await readFile(ready, 'utf8').catch(() => null)) return path.join(shared, 'project');
    // A half-made folder (a file that failed or was stopped while installing) is made again.
    await rm(shared, { recursive: true, force: true });
    await mkdir(shared, { recursive: true });
    const made = await installInto(shared);
    await writeFile(ready, made);
    return made;
  });
  return { project, remove: async () => undefined };
}

/** Packs the checkout into `dir` and installs the tarball into `dir`/project; returns the project. */
async function installInto(dir: string): Promise<string> {
  const packed = JSON.parse(await packLocked(dir)) as Array<{
    filename: string;
  }>;
  const tarball = path.join(dir, packed[0]!.filename);
  const project = path.join(dir, 'project');
  await mkdir(project);
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'castpress-user', private: true, type: 'module' }),
  );
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], project);
  return project;
}

const CHECK_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
  typeRoots: [path.join(repoRoot, 'node_modules', '@types')],
};

/**
 * Declaration files (.d.ts: the installed package's, its dependencies', @types and TypeScript's libs) do
 * not change during a run: parsed once per test file and shared by its checks, with the same options.
 * The files a test writes (.ts) are read afresh each time.
 */
const declarations = new Map<string, ts.SourceFile>();
const checkHost = ts.createCompilerHost(CHECK_OPTIONS);
const readSourceFile = checkHost.getSourceFile.bind(checkHost);
checkHost.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
  if (!fileName.endsWith('.d.ts')) return readSourceFile(fileName, languageVersion, onError, shouldCreate);
  let file = declarations.get(fileName);
  if (!file) {
    file = readSourceFile(fileName, languageVersion, onError, shouldCreate);
    if (file) declarations.set(fileName, file);
  }
  return file;
};

/**
 * Type-checks files in the installed project (its node_modules/castpress and their .d.ts) and
 * lists, per module the first file imports, every name its declarations export.
 */
export function checkInstalled(...files: string[]): { diagnostics: string[]; exported: Map<string, Set<string>> } {
  const program = ts.createProgram(files, CHECK_OPTIONS, checkHost);
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: `
      : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
  const checker = program.getTypeChecker();
  const exported = new Map<string, Set<string>>();
  for (const statement of program.getSourceFile(files[0]!)!.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const module = checker.getSymbolAtLocation(statement.moduleSpecifier);
    if (module)
      exported.set(statement.moduleSpecifier.text, new Set(checker.getExportsOfModule(module).map((s) => s.name)));
  }
  return { diagnostics, exported };
}
