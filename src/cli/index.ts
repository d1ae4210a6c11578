#!/usr/bin/env node
/**
 * The castpress command line. Each command is one entry of COMMANDS: a function
 * from its arguments to an exit code (-1: keep running, e.g. a server). Commands
 * are loaded when run, so `castpress fill` never loads the server or the batch pool
 * (a process that fills one PDF is common: see bench/cold-start.ts).
 */
import { pathToFileURL } from 'node:url';

type Command = (argv: string[]) => Promise<number>;
interface LoadedCommand {
  run: Command;
  usage: string;
}

const COMMANDS: Record<string, () => Promise<LoadedCommand>> = {
  fill: async () => import('./fill.js').then((m) => ({ run: m.fillCommand, usage: m.FILL_USAGE })),
  generate: async () => import('./generate.js').then((m) => ({ run: m.generateCommand, usage: m.GENERATE_USAGE })),
  'import-template': async () => import('./import-template.js').then((m) => ({ run: m.importTemplateCommand, usage: m.IMPORT_USAGE })),
  batch: async () => import('./batch.js').then((m) => ({ run: m.batchCommand, usage: m.BATCH_USAGE })),
  worker: async () => import('./worker.js').then((m) => ({ run: m.workerCommand, usage: m.WORKER_USAGE })),
  serve: async () => import('./serve.js').then((m) => ({ run: m.serve, usage: m.SERVE_USAGE })),
  verify: async () => import('./verify.js').then((m) => ({ run: m.verifyCommand, usage: m.VERIFY_USAGE })),
};

async function usage(): Promise<string> {
  const loaded = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  return `usage: castpress <command> [options]\n\ncommands:\n${Object.keys(COMMANDS)
    .map((c) => `  ${c}`)
    .join('\n')}\n\n${loaded.map((c) => c.usage).join('\n\n')}`;
}

/** The package's version, read from its package.json (one level above src/ and dist/). */
async function packageVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

/** node:util parseArgs errors (unknown option, missing value) are usage errors, not failures. */
function isArgumentError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/**
 * Exit codes: 0 done, 1 the work failed, 2 the command line or the input is wrong
 * (usage and messages on stderr, never stdout, which may be a PDF redirect).
 */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    console.log(await packageVersion());
    return 0;
  }
  if (name === 'help' && rest.length > 0) {
    const load = Object.hasOwn(COMMANDS, rest[0]) ? COMMANDS[rest[0]] : undefined;
    if (!load) {
      console.error(`castpress: unknown command "${rest[0]}"\n\n${await usage()}`);
      return 2;
    }
    console.log((await load()).usage);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    if (!name) {
      console.error(await usage());
      return 2;
    }
    console.log(await usage());
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    console.error(`castpress: unknown command "${name}"\n\n${await usage()}`);
    return 2;
  }
  let command: LoadedCommand | undefined;
  try {
    command = await load();
    return await command.run(rest);
  } catch (e) {
    console.error(`castpress ${name}: ${e instanceof Error ? e.message : String(e)}`);
    if (isArgumentError(e)) {
      if (command) console.error(`\n${command.usage}`);
      return 2;
    }
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => {
    if (code >= 0) process.exitCode = code;
  });
}
