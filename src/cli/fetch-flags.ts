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
import { stderrLine } from './output.js';

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

export function fetchResolver(values: FetchFlagValues): ResourceResolver | undefined {
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
export function cliResourceReport(strict: boolean): {
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
