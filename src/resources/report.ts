import { ValidationError } from '../errors/index.js';
import type { ResourceKind, ResourceResolver } from './resolver.js';

/** A remote resource that did not load: which URL, what it was for, why. */
export interface ResourceProblem {
  url: string;
  kind: ResourceKind;
  reason: string;
}

/**
 * Wraps a resolver so every http(s) URL that does not load is reported, never
 * dropped silently. Without a resolver (fetching off) every such URL is
 * reported as refused. A wrapped resolver that did not check addresses itself
 * still gets loadResource's pre-check, whose refusals are not seen here; the
 * ready httpResolver checks its own, so with it every refusal is reported.
 */
export function reportingResolver(
  resolver: ResourceResolver | undefined,
  report: (problem: ResourceProblem) => void,
): ResourceResolver {
  const wrapped = async (url: string, kind: ResourceKind) => {
    if (!resolver) {
      report({ url, kind, reason: 'remote fetching is off' });
      return null;
    }
    try {
      const res = await resolver(url, kind);
      if (!res) report({ url, kind, reason: 'refused by the resolver' });
      return res;
    } catch (e) {
      report({ url, kind, reason: e instanceof Error ? e.message : String(e) });
      return null;
    }
  };
  // Without a resolver nothing is fetched, so skipping the pre-check reaches nothing.
  return Object.assign(wrapped, {
    guardsAddresses: resolver ? (resolver.guardsAddresses ?? false) : true,
    reportUnusable: (url: string, kind: ResourceKind, reason: string) => report({ url, kind, reason }),
  });
}

/**
 * The property path of the request value that holds `url` (`data.photo`,
 * `logo.src`, `data[2].content`), for warnings and strict 400s; `url` when none does.
 */
function propertyOf(body: unknown, url: string): string {
  const walk = (value: unknown, at: string): string | undefined => {
    if (typeof value === 'string') return value === url || value.includes(url) ? at : undefined;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const hit = walk(value[i], `${at}[${i}]`);
        if (hit) return hit;
      }
      return undefined;
    }
    if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const hit = walk(v, at ? `${at}.${k}` : k);
        if (hit) return hit;
      }
    }
    return undefined;
  };
  return walk(body, '') ?? url;
}

/** A problem as shown to users: the request property instead of the URL, the host hidden in the reason. */
export interface ProblemEntry {
  property: string;
  kind: ResourceKind;
  reason: string;
}

/**
 * Problems named by the property that holds each URL. The URL and its host stay out (they are
 * payload data, and may carry tokens); the reason keeps its words with the host as `<host>`.
 */
export function problemEntries(body: unknown, problems: readonly ResourceProblem[]): ProblemEntry[] {
  return problems.map((p) => {
    let host = '';
    try {
      host = new URL(p.url).hostname;
    } catch {
      /* not a URL: nothing to hide beyond the URL itself */
    }
    const reason = host ? p.reason.split(host).join('<host>') : p.reason;
    return { property: propertyOf(body, p.url), kind: p.kind, reason };
  });
}

/** The warning text of one entry (server header, CLI line). */
export function warningText(e: ProblemEntry): string {
  return `${e.property}: ${e.kind} not loaded (${e.reason})`;
}

/** Strict mode: the entries as one 400 on their properties. */
export function strictResourceError(entries: readonly ProblemEntry[]): ValidationError {
  return new ValidationError(
    entries.map((e) => ({ property: e.property, message: `The ${e.kind} could not be loaded: ${e.reason}` })),
  );
}
