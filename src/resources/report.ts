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
export function reportingResolver(resolver: ResourceResolver | undefined, report: (problem: ResourceProblem) => void): ResourceResolver {
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
  return Object.assign(wrapped, { guardsAddresses: resolver ? (resolver.guardsAddresses ?? false) : true });
}

/**
 * The property path of the request value that holds `url` (`data.photo`,
 * `logo.src`, `data[2].content`), for warnings and strict 400s; `url` when none does.
 */
export function propertyOf(body: unknown, url: string): string {
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
