import { parseArgs } from 'node:util';
import { createEngine } from '../engine/index.js';
import { readJsonArg } from './json-file.js';
import { argumentProblem, reportError, writePdf, printUsage } from './output.js';
import { cliResourceReport, FETCH_FLAGS, fetchResolver, STRICT_FETCH_FLAG } from './fetch-flags.js';
import type { FontRegistryOptions } from '../fonts/index.js';
import { FONT_FLAGS, fontOptions } from './font-flags.js';
import { GENERATE_USAGE } from './usage.js';

export async function generateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h' },
      ...FETCH_FLAGS,
      ...STRICT_FETCH_FLAG,
      ...FONT_FLAGS,
    },
  });
  const problem = argumentProblem('generate', ['REQUEST.json'], positionals);
  if (values.help || problem) return printUsage(GENERATE_USAGE, values.help === true, problem);
  let fonts: FontRegistryOptions | undefined;
  try {
    fonts = fontOptions(values);
  } catch (e) {
    return reportError(e);
  }
  const engine = createEngine({ resolver: fetchResolver(values), ...(fonts ? { fonts } : {}) });
  try {
    const request = await readJsonArg(positionals[0]!);
    const resources = cliResourceReport(values['strict-fetch'] ?? false);
    const pdf = await engine.generate(request, { onResourceProblem: resources.onResourceProblem });
    resources.finish(request);
    return await writePdf(pdf, values.output);
  } catch (e) {
    return reportError(e);
  } finally {
    await engine.close();
  }
}
