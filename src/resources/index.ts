export type { ResourceKind, ResolvedResource, ResourceResolver, FetchLimits, LoadOutcome } from './resolver.js';
export { loadResource, loadResourceWithReason, UNDECODABLE_IMAGE } from './resolver.js';
export type { DecodedDataUrl } from './data-url.js';
export { parseDataUrl } from './data-url.js';
export type { LookupAll } from './address-guard.js';
export { HostLookup, isForbiddenAddress, isPublicUrl } from './address-guard.js';

export type { HttpResolverOptions } from './http-resolver.js';
export {
  httpResolver,
  ResponseCache,
  FetchRefused,
  checkedAddress,
  pinnedLookup,
  isTtfContentType,
  ttfContentTypeProblem,
} from './http-resolver.js';
export { guardedFetch } from './guarded-fetch.js';
export type { GuardedFetchOptions } from './guarded-fetch.js';
export type { ResourceProblem, ProblemEntry } from './report.js';
export { reportingResolver, problemEntries, warningText, strictResourceError } from './report.js';
