#!/usr/bin/env node
/**
 * The castpress command line. Each command is one entry of COMMANDS: a function
 * from its arguments to an exit code (-1: keep running, e.g. a server).
 */
import { pathToFileURL } from 'node:url';
import { SERVE_USAGE, serve } from './serve.js';
import { FILL_USAGE, fillCommand } from './fill.js';
import { GENERATE_USAGE, generateCommand } from './generate.js';
import { IMPORT_USAGE, importTemplateCommand } from './import-template.js';
import { BATCH_USAGE, batchCommand } from './batch.js';

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, { run: Command; usage: string }> = {
  fill: { run: fillCommand, usage: FILL_USAGE },
  generate: { run: generateCommand, usage: GENERATE_USAGE },
  'import-template': { run: importTemplateCommand, usage: IMPORT_USAGE },
  batch: { run: batchCommand, usage: BATCH_USAGE },
  serve: { run: serve, usage: SERVE_USAGE },
};

function usage(): string {
  return `usage: castpress <command> [options]\n\ncommands:\n${Object.keys(COMMANDS)
    .map((c) => `  ${c}`)
    .join('\n')}\n\n${Object.values(COMMANDS)
    .map((c) => c.usage)
    .join('\n\n')}`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 1;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`castpress: unknown command "${name}"\n\n${usage()}`);
    return 1;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    console.error(`castpress ${name}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => {
    if (code >= 0) process.exitCode = code;
  });
}
