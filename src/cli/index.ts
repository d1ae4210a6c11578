#!/usr/bin/env node
/**
 * The castpress command line. Each command is one entry of COMMANDS: a function
 * from its arguments to an exit code (-1: keep running, e.g. a server). Commands
 * are loaded when run, so `castpress fill` never loads the server or the batch pool
 * (a process that fills one PDF is common: see bench/cold-start.ts), and usage texts come
 * from ./usage.ts, so `--help` loads no command at all.
 */
import { pathToFileURL } from 'node:url';
import {
  BATCH_USAGE,
  FILL_USAGE,
  GENERATE_USAGE,
  IMPORT_USAGE,
  SERVE_USAGE,
  VERIFY_USAGE,
  WORKER_USAGE,
} from './usage.js';

type Command = (argv: string[]) => Promise<number>;

/**
 * Each command: its usage text (always at hand), a loader of its module (only for the command run),
 * and whether it validates a request or two and exits (`once`), rather than serving or working on.
 */
const COMMANDS: Record<string, { summary: string; usage: string; load: () => Promise<Command>; once?: true }> = {
  fill: {
    summary: 'fill a PDF template (template JSON, fillable PDF or EID) with JSON data',
    usage: FILL_USAGE,
    load: async () => (await import('./fill.js')).fillCommand,
    once: true,
  },
  generate: {
    summary: 'generate a PDF from Markdown blocks or HTML/CSS (a generate-pdf request body)',
    usage: GENERATE_USAGE,
    load: async () => (await import('./generate.js')).generateCommand,
    once: true,
  },
  'import-template': {
    summary: "turn a fillable PDF's form fields into a template JSON",
    usage: IMPORT_USAGE,
    load: async () => (await import('./import-template.js')).importTemplateCommand,
    once: true,
  },
  batch: {
    summary: 'run a JSON-lines file of fill/generate jobs on all cores, or through a Redis queue',
    usage: BATCH_USAGE,
    load: async () => (await import('./batch.js')).batchCommand,
  },
  worker: {
    summary: 'take the jobs `batch --queue` put on a Redis queue and write their PDFs',
    usage: WORKER_USAGE,
    load: async () => (await import('./worker.js')).workerCommand,
  },
  serve: {
    summary: "serve the hosted API's REST and GraphQL operations, signing pages and workflow forms",
    usage: SERVE_USAGE,
    load: async () => (await import('./serve.js')).serve,
  },
  verify: {
    summary: 'check every signature of a PDF (integrity, trust, PAdES level, later changes)',
    usage: VERIFY_USAGE,
    load: async () => (await import('./verify.js')).verifyCommand,
    once: true,
  },
};

/** One line per command; a command's own options come with `castpress <command> --help`. */
function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    'usage: castpress <command> [options]',
    '',
    'commands:',
    ...lines,
    '',
    "`castpress <command> --help` (or `castpress help <command>`) prints that command's arguments and options;",
    '`castpress --version` prints the version.',
  ].join('\n');
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
    console.log(await (await import('../engine/index.js')).packageVersion());
    return 0;
  }
  if (name === 'help' && rest.length > 0) {
    const command = Object.hasOwn(COMMANDS, rest[0]) ? COMMANDS[rest[0]] : undefined;
    if (!command) {
      console.error(`castpress: unknown command "${rest[0]}"\n\n${usage()}`);
      return 2;
    }
    console.log(command.usage);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    if (!name) {
      console.error(usage());
      return 2;
    }
    console.log(usage());
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`castpress: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  try {
    // zod compiles each object schema into a function (`new Function`) at its first parse, to parse
    // faster from then on: a process that parses once pays the compiling and never gains it back
    // (2-3 % of a cold `castpress fill`, bench/results/HISTORY.md). zod reads the switch when a schema is made,
    // so it is set before the command's modules make theirs. Results and messages are the same.
    if (command.once) (await import('zod')).z.config({ jitless: true });
    const run = await command.load();
    return await run(rest);
  } catch (e) {
    console.error(`castpress ${name}: ${e instanceof Error ? e.message : String(e)}`);
    if (isArgumentError(e)) {
      console.error(`\n${command.usage}`);
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
