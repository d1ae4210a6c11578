import { parseArgs } from 'node:util';
import { createEngine } from '../engine/index.js';
import { readJsonArg } from './fill.js';
import { reportError, writePdf, printUsage } from './output.js';
import { cliResourceReport, FETCH_FLAGS, FETCH_USAGE, fetchResolver, STRICT_FETCH_FLAG, STRICT_FETCH_USAGE } from './fetch-flags.js';
import type { FontRegistryOptions } from '../fonts/index.js';
import { FONT_FLAGS, FONT_USAGE, fontOptions } from './font-flags.js';

export const GENERATE_USAGE = `castpress generate REQUEST.json [-o out.pdf]

  REQUEST.json      the generate-pdf request body (Markdown blocks, or {type: "html", data: {html, css}}); "-" reads stdin
  -o, --output F    the PDF to write (default: stdout when it is not a terminal)
${FETCH_USAGE}
${STRICT_FETCH_USAGE}
${FONT_USAGE}`;

export async function generateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' }, ...FETCH_FLAGS, ...STRICT_FETCH_FLAG, ...FONT_FLAGS },
  });
  if (values.help || positionals.length !== 1) {
    return printUsage(GENERATE_USAGE, values.help === true);
  }
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
