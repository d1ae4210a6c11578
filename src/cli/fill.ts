import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TemplateFiles } from '../batch/index.js';
import { ValidationError } from '../errors/index.js';
import { argumentProblem, printUsage } from './output.js';
import { PDF_COMMAND_FLAGS, runPdfCommand } from './fetch-flags.js';
import { FILL_USAGE } from './usage.js';

export async function fillCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...PDF_COMMAND_FLAGS,
      templates: { type: 'string' },
      version: { type: 'string' },
      strict: { type: 'boolean' },
    },
  });
  const problem = argumentProblem('fill', ['TEMPLATE', 'DATA.json'], positionals);
  if (values.help || problem) return printUsage(FILL_USAGE, values.help === true, problem);
  const [templateRef, dataFile] = positionals;
  // Argument checks come before any work, as typed errors on the flag (exit 2).
  const checkFlags = () => {
    if (values.templates !== undefined && !(existsSync(values.templates) && statSync(values.templates).isDirectory())) {
      throw ValidationError.of('--templates', `--templates ${values.templates}: no such folder`);
    }
    if (values.version !== undefined && !/^\d+$/.test(values.version)) {
      throw ValidationError.of('--version', `--version must be a whole number, got "${values.version}"`);
    }
  };
  return runPdfCommand(
    values,
    dataFile,
    async (engine, request, onResourceProblem) => {
      const template = TemplateFiles.isFile(templateRef)
        ? await new TemplateFiles(process.cwd(), engine).load(path.resolve(templateRef))
        : templateRef;
      const versionNumber = values.version === undefined ? undefined : Number(values.version);
      return engine.fillDocument(template, request, {
        versionNumber,
        onResourceProblem,
        strict: values.strict === true,
      });
    },
    { checkFlags, engine: { templates: values.templates } },
  );
}
