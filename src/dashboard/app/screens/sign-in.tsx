/** Sign-in with an API key of the server's keys file: the server answers with a session cookie. */
import { useState } from 'preact/hooks';
import { api, describeError } from '../io/api.js';
import { parseRoute } from '../io/route.js';
import { useApp } from '../ui/context.js';
import { FieldRow } from '../ui/controls.js';

export function SignIn({ next }: { next?: string }) {
  const { navigate, signedIn } = useApp();
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!key.trim()) {
      setError('Enter an API key.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const session = await api.signIn(key.trim());
      signedIn(session);
      const to = next ? parseRoute(next) : { name: 'templates' as const };
      navigate(to.name === 'notFound' || to.name === 'signIn' ? { name: 'templates' } : to, { replace: true });
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="sign-in narrow">
      <h1 tabIndex={-1}>Sign in</h1>
      <p>Sign in with one of your organization’s API keys. The dashboard shows only that organization’s templates.</p>
      <form onSubmit={submit} noValidate>
        <FieldRow id="api-key" label="API key" error={error}>
          {(describedBy, invalid) => (
            <input
              id="api-key"
              name="apiKey"
              type="password"
              autoComplete="current-password"
              value={key}
              onInput={(e) => setKey(e.currentTarget.value)}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              required
            />
          )}
        </FieldRow>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}
