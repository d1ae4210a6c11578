import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { templateFromPdf } from '../fields/index.js';
import { ValidationError } from '../errors/index.js';
import { argumentProblem, reportError, printUsage } from './output.js';
import { IMPORT_USAGE } from './usage.js';

export async function importTemplateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { output: { type: 'string', short: 'o' }, eid: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const problem = argumentProblem('import-template', ['FORM.pdf'], positionals);
  if (values.help || problem) return printUsage(IMPORT_USAGE, values.help === true, problem);
  const pdfPath = path.resolve(positionals[0]);
  // Default output in the current folder: the source's folder may be read-only or not the user's.
  const output = path.resolve(values.output ?? path.basename(pdfPath, path.extname(pdfPath)) + '.template.json');
  try {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(pdfPath));
    } catch {
      throw ValidationError.of(positionals[0], `${positionals[0]}: no such file or not readable`);
    }
    const template = await templateFromPdf(bytes, { eid: values.eid ?? path.basename(pdfPath, path.extname(pdfPath)) });
    if (template.fields.length === 0)
      throw ValidationError.of(positionals[0], `${positionals[0]} has no form fields: nothing to import`);
    const pdfName = path.basename(output).replace(/\.json$/i, '') + '.pdf';
    await mkdir(path.dirname(output), { recursive: true });
    await writeFile(path.join(path.dirname(output), pdfName), bytes);
    const { pdf: _pdf, ...rest } = template;
    await writeFile(output, JSON.stringify({ ...rest, pdf: pdfName }, null, 2) + '\n');
    console.error(`wrote ${output} (${template.fields.length} fields) and ${pdfName}`);
    return 0;
  } catch (e) {
    return reportError(e);
  }
}
