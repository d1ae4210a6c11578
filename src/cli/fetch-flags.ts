import { createEngine, type Engine, type EngineOptions } from '../engine/index.js';
import type { FieldError } from '../errors/index.js';
import type { FontRegistryOptions } from '../fonts/index.js';
import {
  httpResolver,
  problemEntries,
  ResponseCache,
  strictResourceError,
  warningText,
  type HttpResolverOptions,
  type ResourceProblem,
  type ResourceResolver,
} from '../resources/index.js';
import { FONT_FLAGS, fontOptions, type FontFlagValues } from './font-flags.js';
import { readJsonArg } from './json-file.js';
import { reportError, stderrLine, writePdf } from './output.js';

/**
 * The remote-resource flags shared by fill, generate and serve: fetching public
 * http(s) URLs is on by default (the hosted API's behaviour), `--no-fetch`
 * turns it off, `--allow-host` lets a named host through the address check.
 */
export const FETCH_FLAGS = {
  'no-fetch': { type: 'boolean' },
  'allow-host': { type: 'string', multiple: true },
} as const;

export interface FetchFlagValues {
  'no-fetch'?: boolean;
  'allow-host'?: string[];
}

/** Resolver options from the flags, or false for `--no-fetch`. */
export function fetchOptions(values: FetchFlagValues): HttpResolverOptions | false {
  if (values['no-fetch']) return false;
  for (const host of values['allow-host'] ?? []) {
    if (!/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+)(:\d{1,5})?$/.test(host))
      throw new Error(`--allow-host must be HOST or HOST:PORT, got ${host}`);
  }
  return { allowHosts: values['allow-host'] ?? [] };
}

function fetchResolver(values: FetchFlagValues): ResourceResolver | undefined {
  const options = fetchOptions(values);
  return options === false ? undefined : httpResolver(options, new ResponseCache());
}

/** `--strict-fetch` of fill, generate and serve (serve's usage line says what it means there: a 400). */
export const STRICT_FETCH_FLAG = { 'strict-fetch': { type: 'boolean' } } as const;

/**
 * What the server says in its warning header, the CLI says on stderr: one
 * `warning: <property>: <kind> not loaded (<reason>)` line per resource; with
 * `--strict-fetch` the run fails with the server's 400 body instead.
 */
function cliResourceReport(strict: boolean): {
  onResourceProblem: (p: ResourceProblem) => void;
  finish: (body: unknown) => void;
} {
  const problems: ResourceProblem[] = [];
  return {
    onResourceProblem: (p) => problems.push(p),
    finish: (body) => {
      if (problems.length === 0) return;
      const entries = problemEntries(body, problems);
      if (strict) throw strictResourceError(entries);
      for (const e of entries) stderrLine(`warning: ${warningText(e)}`);
    },
  };
}

/** The flags of a command that renders one PDF (fill, generate): where it goes, help, remote resources, fonts. */
export const PDF_COMMAND_FLAGS = {
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h' },
  ...FETCH_FLAGS,
  ...STRICT_FETCH_FLAG,
  ...FONT_FLAGS,
} as const;

interface PdfCommandValues extends FetchFlagValues, FontFlagValues {
  output?: string;
  'strict-fetch'?: boolean;
}

/**
 * The run of a command that renders one PDF (fill, generate): the flags checked before any work (a bad
 * one is exit 2), an engine from the fetch and font flags, the request read from `requestFile` and
 * rendered, remote resources that did not load reported (with --strict-fetch, the run fails instead),
 * the PDF written, the engine closed.
 */
export async function runPdfCommand(
  values: PdfCommandValues,
  requestFile: string,
  render: (
    engine: Engine,
    request: unknown,
    onResourceProblem: (p: ResourceProblem) => void,
  ) => Promise<{ pdf: Uint8Array; warnings?: readonly FieldError[] }>,
  options: { checkFlags?: () => void; engine?: EngineOptions } = {},
): Promise<number> {
  let fonts: FontRegistryOptions | undefined;
  try {
    options.checkFlags?.();
    fonts = fontOptions(values);
  } catch (e) {
    return reportError(e);
  }
  const engine = createEngine({ ...options.engine, resolver: fetchResolver(values), ...(fonts ? { fonts } : {}) });
  try {
    const request = await readJsonArg(requestFile);
    const resources = cliResourceReport(values['strict-fetch'] ?? false);
    const { pdf, warnings = [] } = await render(engine, request, resources.onResourceProblem);
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
