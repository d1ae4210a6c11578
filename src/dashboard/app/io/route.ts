/** The dashboard's client routes (DASHBOARD-API.md "Client routes"): a path to a screen and back. */

export type Route =
  | { name: 'templates' }
  | { name: 'signIn'; next?: string }
  | { name: 'editor'; eid: string }
  | { name: 'versions'; eid: string }
  | { name: 'packets' }
  | { name: 'deliveries' }
  | { name: 'packet'; eid: string }
  | { name: 'settings' }
  | { name: 'notFound'; path: string };

export const BASE = '/dashboard';

export function parseRoute(pathname: string, search = ''): Route {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === BASE) return { name: 'templates' };
  if (path === `${BASE}/sign-in`) {
    const next = new URLSearchParams(search).get('next');
    return next && isDashboardPath(next) ? { name: 'signIn', next } : { name: 'signIn' };
  }
  if (path === `${BASE}/packets`) return { name: 'packets' };
  if (path === `${BASE}/webhooks`) return { name: 'deliveries' };
  if (path === `${BASE}/settings`) return { name: 'settings' };
  const p = /^\/dashboard\/packets\/([^/]+)$/.exec(path);
  if (p) return { name: 'packet', eid: decodeURIComponent(p[1]) };
  const m = /^\/dashboard\/templates\/([^/]+)(\/versions)?$/.exec(path);
  if (m) {
    const eid = decodeURIComponent(m[1]);
    return m[2] ? { name: 'versions', eid } : { name: 'editor', eid };
  }
  return { name: 'notFound', path };
}

/** Only the dashboard's own paths may be a sign-in's next page (no open redirect). */
export function isDashboardPath(p: string): boolean {
  return /^\/dashboard(\/[^/\\]|$)/.test(p) && !p.includes('//');
}

export function pathOf(route: Route): string {
  switch (route.name) {
    case 'templates':
      return BASE;
    case 'signIn':
      return route.next ? `${BASE}/sign-in?next=${encodeURIComponent(route.next)}` : `${BASE}/sign-in`;
    case 'editor':
      return `${BASE}/templates/${encodeURIComponent(route.eid)}`;
    case 'versions':
      return `${BASE}/templates/${encodeURIComponent(route.eid)}/versions`;
    case 'packets':
      return `${BASE}/packets`;
    case 'deliveries':
      return `${BASE}/webhooks`;
    case 'packet':
      return `${BASE}/packets/${encodeURIComponent(route.eid)}`;
    case 'settings':
      return `${BASE}/settings`;
    case 'notFound':
      return route.path;
  }
}

/** The document title for a route (each screen names itself). */
export function titleOf(route: Route, name?: string): string {
  const what =
    route.name === 'templates'
      ? 'Templates'
      : route.name === 'signIn'
        ? 'Sign in'
        : route.name === 'editor'
          ? `Edit ${name ?? 'template'}`
          : route.name === 'versions'
            ? `Versions of ${name ?? 'template'}`
            : route.name === 'packets'
              ? 'Packets'
              : route.name === 'deliveries'
                ? 'Deliveries'
                : route.name === 'packet'
                  ? `Packet ${name ?? ''}`.trim()
                  : route.name === 'settings'
                    ? 'Organization settings'
                    : 'Not found';
  return `${what} · castpress dashboard`;
}
