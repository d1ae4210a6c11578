import { parseArgs } from 'node:util';
import { createEngine } from '../engine/index.js';
import { readJsonArg } from './fill.js';
import { reportError, writePdf, printUsage } from './output.js';
import { FETCH_FLAGS, FETCH_USAGE, fetchResolver } from './fetch-flags.js';

export const GENERATE_USAGE = `castpress generate REQUEST.json [-o out.pdf]

  REQUEST.json      the generate-pdf request body (Markdown blocks, or {type: "html", data: {html, css}}); "-" reads stdin
  -o, --output F    the PDF to write (default: stdout when it is not a terminal)
${FETCH_USAGE}`;

export async function generateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' }, ...FETCH_FLAGS },
  });
  if (values.help || positionals.length !== 1) {
    return printUsage(GENERATE_USAGE, values.help === true);
  }
  const engine = createEngine({ resolver: fetchResolver(values) });
  try {
    return await writePdf(await engine.generate(await readJsonArg(positionals[0])), values.output);
  } catch (e) {
    return reportError(e);
  } finally {
    await engine.close();
  }
}
