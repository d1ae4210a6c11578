/**
 * Throttles for the public workflow forms (`/weld/...`: no API key, and each accepted post makes a
 * run, and after the last forge a packet). Three buckets per window, checked in this order:
 *
 * - per client address: the posts one address makes to all forms together (`request.ip`; IPv6
 *   addresses count per /64, IPv4-mapped ones as their IPv4 address: @fastify/rate-limit's default key);
 * - per form: the posts to one workflow from every address (keyed by the workflow's eid, so its slug
 *   and eid spellings share one bucket);
 * - per organization: the posts to all the organization's workflows.
 *
 * Page loads (GET) have one bucket per address of their own (`views`): the last page of a run makes
 * a signing link, the others render a form. Each check counts the request; a post refused by a later
 * bucket has still been counted by the earlier ones (the client did send it). A refused request is
 * answered before its body is read: 429 with `Retry-After` (integer seconds until the bucket's
 * window ends), the typed `TooManyRequestsError` for JSON clients, an HTML page for browsers (the
 * forms' own error handler decides which).
 *
 * Counters are kept in memory (@fastify/rate-limit's LRU store, 5,000 keys per bucket): per process.
 * Behind a reverse proxy, `request.ip` is the proxy's address unless the server trusts it
 * (`trustProxy`, see docs/server.md, "Public forms: rate limits").
 */
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TooManyRequestsError } from '../../errors/index.js';

export interface FormRateLimits {
  /** Length of one window, milliseconds. */
  windowMs: number;
  /** Posts one client address may make to all forms together per window. */
  address: number;
  /** Posts one workflow's forms may take per window, from every address. */
  form: number;
  /** Posts all of one organization's workflows may take per window. */
  organization: number;
  /** Form pages (GET) one client address may load per window. */
  views: number;
}

/** A public form is filled by a person: ten posts a minute is more than one person makes. */
export const DEFAULT_FORM_RATE_LIMITS: FormRateLimits = {
  windowMs: 60_000,
  address: 10,
  form: 60,
  organization: 300,
  views: 120,
};

/** An organization's own form budgets (`formRateLimit` in `--org`), replacing the server's. */
export type OrganizationFormLimits = (organization: string) => { form?: number; organization?: number } | undefined;

export interface FormRateLimitOptions {
  limits: FormRateLimits;
  /** The workflow a form path names (slug or eid): its eid and organization; undefined for none. */
  workflowOf(weld: string): { eid: string; organization: string } | undefined;
  organizationLimits?: OrganizationFormLimits;
}

const KEYS = ['address', 'form', 'organization', 'views', 'window'] as const;

/**
 * `--form-rate-limit address=10,form=60,organization=300,views=120,window=60` (window in seconds);
 * any subset, the rest keep their defaults. Throws a message naming the bad part.
 */
export function parseFormRateLimits(spec: string): Partial<FormRateLimits> {
  const out: Partial<FormRateLimits> = {};
  for (const part of spec.split(',')) {
    const m = /^\s*([a-z]+)\s*=\s*(\d{1,9})\s*$/.exec(part);
    const key = m?.[1] as (typeof KEYS)[number] | undefined;
    const value = Number(m?.[2]);
    if (!m || !key || !KEYS.includes(key) || value < 1)
      throw new Error(
        `--form-rate-limit takes ${KEYS.map((k) => `${k}=N`).join(',')} (positive integers, window in seconds), got "${part}"`,
      );
    if (key === 'window') out.windowMs = value * 1000;
    else out[key] = value;
  }
  return out;
}

const WHAT: Record<'address' | 'form' | 'organization' | 'views', string> = {
  address: 'Too many form submissions from this address',
  form: 'Too many submissions of this form',
  organization: "Too many submissions of this organization's forms",
  views: 'Too many form pages loaded from this address',
};

/**
 * Registers the throttle for every route under `/weld/` of `app` (one `onRequest` hook, before the
 * body is read). The routes themselves are registered elsewhere; errors go to their error handler.
 */
export async function registerFormRateLimits(app: FastifyInstance, options: FormRateLimitOptions): Promise<void> {
  const { limits } = options;
  await app.register(fastifyRateLimit, { global: false });
  const workflows = new WeakMap<FastifyRequest, { eid: string; organization: string }>();
  const own = (request: FastifyRequest) => {
    const w = workflows.get(request);
    return w ? options.organizationLimits?.(w.organization) : undefined;
  };
  const bucket = (
    name: keyof typeof WHAT,
    max: (request: FastifyRequest) => number,
    key?: (request: FastifyRequest) => string,
  ) => ({
    name,
    check: app.createRateLimit({
      timeWindow: limits.windowMs,
      max: (request) => max(request),
      ...(key ? { keyGenerator: key } : {}),
    }),
  });
  const views = bucket('views', () => limits.views);
  const posts = [
    bucket('address', () => limits.address),
    bucket(
      'form',
      (r) => own(r)?.form ?? limits.form,
      (r) => workflows.get(r)!.eid,
    ),
    bucket(
      'organization',
      (r) => own(r)?.organization ?? limits.organization,
      (r) => workflows.get(r)!.organization,
    ),
  ];

  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.startsWith('/weld/')) return;
    let checks = [views];
    if (request.method === 'POST') {
      const weld = (request.params as { weld?: unknown }).weld;
      const workflow = typeof weld === 'string' ? options.workflowOf(weld) : undefined;
      // An unknown workflow is the route's 404; it makes nothing, so only its address is counted.
      if (workflow) workflows.set(request, workflow);
      checks = workflow ? posts : posts.slice(0, 1);
    }
    for (const { name, check } of checks) {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        // Set here too: an error handler that answers with a page rather than the typed body keeps it.
        reply.header('retry-after', String(Math.max(1, result.ttlInSeconds)));
        throw new TooManyRequestsError(
          result.ttlInSeconds,
          `${WHAT[name]}: try again in ${Math.max(1, result.ttlInSeconds)} s`,
        );
      }
    }
  });
}
