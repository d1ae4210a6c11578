import { AuthorizationError } from '../../errors/index.js';
import { DEFAULT_ORGANIZATION } from '../../packets/index.js';
import type { KeyEntry, KeyRing } from '../keys.js';

/** With `--no-auth` every caller is this key: clean PDFs, no concurrency limit, the default organization. */
export const ANONYMOUS_KEY: KeyEntry = {
  id: 'anonymous',
  kind: 'production',
  concurrency: Number.POSITIVE_INFINITY,
  organization: DEFAULT_ORGANIZATION,
  label: 'anonymous',
  digest: 'anonymous',
};

function decodeBase64(s: string): string | undefined {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(s)) return undefined;
  return Buffer.from(s, 'base64').toString('utf8');
}

/**
 * Resolves the Authorization header to a known key.
 *
 * - `Basic base64(key + ":" + password)`: the key is the user name; the hosted API
 *   asks for an empty password, and since nothing secret can be in it we ignore it.
 * - `Bearer base64(token)`: what the Node client sends for `accessToken`. A raw
 *   (not encoded) token is accepted too, because other clients send it that way.
 */
export function authenticate(header: string | undefined, keys: KeyRing | undefined): KeyEntry {
  if (!keys) return ANONYMOUS_KEY;
  if (!header) throw new AuthorizationError('Not logged in.');
  const m = /^(Basic|Bearer)\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new AuthorizationError('Unsupported Authorization scheme: use Basic (API key as user name) or Bearer');
  const scheme = m[1]!.toLowerCase();
  const credential = m[2]!;
  if (scheme === 'basic') {
    const decoded = decodeBase64(credential);
    const colon = decoded?.indexOf(':') ?? -1;
    const user = decoded === undefined ? undefined : colon >= 0 ? decoded.slice(0, colon) : decoded;
    const found = user ? keys.find(user) : undefined;
    if (!found) throw new AuthorizationError('Invalid API key.');
    return found;
  }
  const decoded = decodeBase64(credential);
  const found = (decoded ? keys.find(decoded) : undefined) ?? keys.find(credential);
  if (!found) throw new AuthorizationError('Invalid access token.');
  return found;
}
