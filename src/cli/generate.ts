import { parseArgs } from 'node:util';
import { argumentProblem, printUsage } from './output.js';
import { PDF_COMMAND_FLAGS, runPdfCommand } from './fetch-flags.js';
import { GENERATE_USAGE } from './usage.js';

export async function generateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: PDF_COMMAND_FLAGS });
  const problem = argumentProblem('generate', ['REQUEST.json'], positionals);
  if (values.help || problem) return printUsage(GENERATE_USAGE, values.help === true, problem);
  return runPdfCommand(values, positionals[0]!, async (engine, request, onResourceProblem) => ({
    pdf: await engine.generate(request, { onResourceProblem }),
  }));
}
