import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TemplateFiles } from '../batch/index.js';
import { createEngine } from '../engine/index.js';
import { ValidationError } from '../errors/index.js';
import { argumentProblem, reportError, writePdf, printUsage, stderrLine } from './output.js';
import { cliResourceReport, FETCH_FLAGS, fetchResolver, STRICT_FETCH_FLAG } from './fetch-flags.js';
import type { FontRegistryOptions } from '../fonts/index.js';
import { FONT_FLAGS, fontOptions } from './font-flags.js';
import { FILL_USAGE } from './usage.js';
import { readJsonArg } from './json-file.js';

export async function fillCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      templates: { type: 'string' },
      version: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      strict: { type: 'boolean' },
      ...FETCH_FLAGS,
      ...STRICT_FETCH_FLAG,
      ...FONT_FLAGS,
    },
  });
  const problem = argumentProblem('fill', ['TEMPLATE', 'DATA.json'], positionals);
  if (values.help || problem) return printUsage(FILL_USAGE, values.help === true, problem);
  const [templateRef, dataFile] = positionals;
  let fonts: FontRegistryOptions | undefined;
  try {
    // Argument checks come before any work, as typed errors on the flag (exit 2).
    if (values.templates !== undefined && !(existsSync(values.templates) && statSync(values.templates).isDirectory())) {
      throw ValidationError.of('--templates', `--templates ${values.templates}: no such folder`);
    }
    if (values.version !== undefined && !/^\d+$/.test(values.version)) {
      throw ValidationError.of('--version', `--version must be a whole number, got "${values.version}"`);
    }
    fonts = fontOptions(values);
  } catch (e) {
    return reportError(e);
  }
  const engine = createEngine({
    templates: values.templates,
    resolver: fetchResolver(values),
    ...(fonts ? { fonts } : {}),
  });
  try {
    const request = await readJsonArg(dataFile);
    const template = TemplateFiles.isFile(templateRef)
      ? await new TemplateFiles(process.cwd(), engine).load(path.resolve(templateRef))
      : templateRef;
    const versionNumber = values.version === undefined ? undefined : Number(values.version);
    const resources = cliResourceReport(values['strict-fetch'] ?? false);
    const { pdf, warnings } = await engine.fillDocument(template, request, {
      versionNumber,
      onResourceProblem: resources.onResourceProblem,
      strict: values.strict === true,
    });
    resources.finish(request);
    // The server's X-Castpress-Warning header, on stderr: the PDF is still written.
    for (const w of warnings) stderrLine(`warning: ${w.property}: ${w.message}`);
    return await writePdf(pdf, values.output);
  } catch (e) {
    return reportError(e);
  } finally {
    await engine.close();
  }
}
