/** What every screen reaches: the session, navigation and the app's announcement region. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session } from '../model/types.js';
import type { Route } from '../io/route.js';

export interface AppContext {
  session: Session | undefined;
  navigate(route: Route, options?: { replace?: boolean }): void;
  /** Said by screen readers through the app's polite live region (and shown nowhere else). */
  announce(message: string): void;
  signedIn(session: Session): void;
}

export const App = createContext<AppContext | undefined>(undefined);

export function useApp(): AppContext {
  const app = useContext(App);
  if (!app) throw new Error('useApp outside the app');
  return app;
}
