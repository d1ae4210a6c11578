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
};

async function usage(): Promise<string> {
  const loaded = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  return `usage: castpress <command> [options]\n\ncommands:\n${Object.keys(COMMANDS)
    .map((c) => `  ${c}`)
    .join('\n')}\n\n${loaded.map((c) => c.usage).join('\n\n')}`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(await usage());
    return name ? 0 : 1;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    console.error(`castpress: unknown command "${name}"\n\n${await usage()}`);
    return 1;
  }
  try {
    const command = await load();
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
