/**
 * The app's frame: the session (asked once, then kept), the client routes (history API), the header
 * with the organization and sign-out, and the polite live region screens announce through. A screen's
 * heading takes focus when the route changes, so a screen reader hears where it is.
 */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { api, useSession } from './io/api.js';
import type { Session } from './model/types.js';
import { parseRoute, pathOf, titleOf, type Route } from './io/route.js';
import { App, type AppContext } from './ui/context.js';
import { Link } from './ui/controls.js';
import { SignIn } from './screens/sign-in.js';
import { Templates } from './screens/templates.js';
import { Versions } from './screens/versions.js';
import { Packets } from './screens/packets.js';
import { PacketScreen } from './screens/packet.js';
import { Deliveries } from './screens/deliveries.js';
import { Settings } from './screens/settings.js';
import { Editor } from './editor/editor.js';

function currentRoute(): Route {
  return parseRoute(location.pathname, location.search);
}

export function Shell() {
  const [session, setSession] = useState<Session | undefined | null>(null);
  const [route, setRoute] = useState<Route>(currentRoute);
  const [announcement, setAnnouncement] = useState('');

  const navigate = useCallback((to: Route, options: { replace?: boolean } = {}) => {
    const path = pathOf(to);
    if (options.replace) history.replaceState(null, '', path);
    else history.pushState(null, '', path);
    setRoute(to);
  }, []);

  const signedOut = useCallback(() => {
    setSession(undefined);
    const here = currentRoute();
    if (here.name !== 'signIn') navigate({ name: 'signIn', next: location.pathname }, { replace: true });
  }, [navigate]);

  useSession(session ?? undefined, signedOut);

  useEffect(() => {
    const pop = () => setRoute(currentRoute());
    addEventListener('popstate', pop);
    api.session().then(
      (s) => {
        setSession(s);
        const here = currentRoute();
        if (!s) signedOut();
        // An embed link's session edits one template: it stays on that template's pages.
        else if (s.templateEid !== undefined && !withinTemplate(here, s.templateEid))
          navigate({ name: 'editor', eid: s.templateEid }, { replace: true });
        else if (here.name === 'signIn') navigate({ name: 'templates' }, { replace: true });
      },
      () => signedOut(),
    );
    return () => removeEventListener('popstate', pop);
  }, []);

  useEffect(() => {
    document.title = titleOf(route);
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [route]);

  const context = useMemo<AppContext>(
    () => ({
      session: session ?? undefined,
      navigate,
      // Cleared first so the same words twice are read twice.
      announce: (message) => {
        setAnnouncement('');
        requestAnimationFrame(() => setAnnouncement(message));
      },
      signedIn: (s) => setSession(s),
    }),
    [session, navigate],
  );

  const signOut = async () => {
    await api.signOut().catch(() => undefined);
    setSession(undefined);
    navigate({ name: 'signIn' });
  };

  const embedded = session?.templateEid !== undefined;

  return (
    <App.Provider value={context}>
      <a class="skip" href="#content">
        Skip to content
      </a>
      {!embedded && (
        <header class="top">
          <span class="brand">castpress</span>
          {session && (
            <nav aria-label="Dashboard">
              <Link to={{ name: 'templates' }}>Templates</Link>
              <Link to={{ name: 'packets' }}>Packets</Link>
              <Link to={{ name: 'deliveries' }}>Deliveries</Link>
              <Link to={{ name: 'settings' }}>Settings</Link>
            </nav>
          )}
          {session && (
            <div class="who">
              <span>
                {session.organization} <span class="muted">({session.keyLabel})</span>
              </span>
              <button type="button" onClick={signOut}>
                Sign out
              </button>
            </div>
          )}
        </header>
      )}
      <main id="content" class={embedded ? 'embedded' : undefined}>
        {session === null ? (
          <p role="status">Loading…</p>
        ) : session === undefined || route.name === 'signIn' ? (
          <SignIn next={route.name === 'signIn' ? route.next : pathOf(route)} />
        ) : embedded && !withinTemplate(route, session.templateEid!) ? (
          <section>
            <h1 tabIndex={-1}>Not part of this link</h1>
            <p>
              This link opens one template only.{' '}
              <Link to={{ name: 'editor', eid: session.templateEid! }}>Back to the template</Link>
            </p>
          </section>
        ) : (
          <Screen route={route} />
        )}
      </main>
      <div class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
    </App.Provider>
  );
}

/** Whether a route is one of the template's own pages (its editor, its versions). */
function withinTemplate(route: Route, eid: string): boolean {
  return (route.name === 'editor' || route.name === 'versions') && route.eid === eid;
}

function Screen({ route }: { route: Route }) {
  switch (route.name) {
    case 'signIn':
      return <SignIn next={route.next} />;
    case 'templates':
      return <Templates />;
    case 'editor':
      return <Editor key={route.eid} eid={route.eid} />;
    case 'versions':
      return <Versions key={route.eid} eid={route.eid} />;
    case 'packets':
      return <Packets />;
    case 'deliveries':
      return <Deliveries />;
    case 'packet':
      return <PacketScreen key={route.eid} eid={route.eid} />;
    case 'settings':
      return <Settings />;
    case 'notFound':
      return (
        <section>
          <h1 tabIndex={-1}>Not found</h1>
          <p>
            Nothing lives at {route.path}. <Link to={{ name: 'templates' }}>Go to the templates</Link>.
          </p>
        </section>
      );
  }
}
