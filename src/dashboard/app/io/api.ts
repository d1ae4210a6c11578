/**
 * The dashboard's JSON API (DASHBOARD-API.md) as typed calls. The session cookie goes by itself
 * (same origin, HttpOnly); every mutating call carries the session's CSRF token. A failure is an
 * ApiError with the server's typed body, so a 400's `fields` can be placed on the inputs.
 */
import type {
  ErrorBody,
  FieldDiff,
  Proposal,
  Session,
  TemplateDetail,
  TemplateJson,
  TemplateSummary,
} from '../model/types.js';

export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  constructor(status: number, body: ErrorBody) {
    super(body.message || body.name || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** The message a person reads for an error: the server's message and each named problem. */
export function describeError(e: unknown): string {
  if (e instanceof ApiError) {
    const details = e.body.fields.map((f) => (f.property ? `${f.property}: ${f.message}` : f.message));
    return [e.body.message || e.body.name, ...details].filter(Boolean).join(' — ');
  }
  return e instanceof Error ? e.message : String(e);
}

let csrfToken = '';
/** Called when a request answers 401: the session ended (the app shows the sign-in). */
let onSignedOut: () => void = () => undefined;

export function useSession(session: Session | undefined, signedOut: () => void): void {
  csrfToken = session?.csrfToken ?? '';
  onSignedOut = signedOut;
}

async function errorOf(res: Response): Promise<ApiError> {
  let body: ErrorBody = { name: 'Error', message: `${res.status} ${res.statusText}`, fields: [] };
  try {
    const parsed = (await res.json()) as Partial<ErrorBody>;
    body = {
      name: parsed.name ?? body.name,
      message: parsed.message ?? body.message,
      fields: Array.isArray(parsed.fields) ? parsed.fields : [],
    };
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  return new ApiError(res.status, body);
}

type Body = object | FormData | undefined;

export async function send(method: string, path: string, body?: Body, quiet401 = false): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  if (res.ok) return res;
  if (res.status === 401 && !quiet401) onSignedOut();
  throw await errorOf(res);
}

export async function json<T>(method: string, path: string, body?: Body): Promise<T> {
  return (await (await send(method, path, body)).json()) as T;
}

async function bytes(res: Response): Promise<Uint8Array> {
  return new Uint8Array(await res.arrayBuffer());
}

const T = '/dashboard/api/templates';
const one = (eid: string) => `${T}/${encodeURIComponent(eid)}`;

export const api = {
  /** The current session, or undefined when signed out. */
  async session(): Promise<Session | undefined> {
    try {
      return (await (await send('GET', '/dashboard/session', undefined, true)).json()) as Session;
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return undefined;
      throw e;
    }
  },
  async signIn(apiKey: string): Promise<Session> {
    return (await (await send('POST', '/dashboard/session', { apiKey }, true)).json()) as Session;
  },
  async signOut(): Promise<void> {
    await send('DELETE', '/dashboard/session', undefined, true);
  },
  async templates(q: string): Promise<TemplateSummary[]> {
    const query = q.trim() ? `?q=${encodeURIComponent(q.trim())}` : '';
    return (await json<{ templates: TemplateSummary[] }>('GET', `${T}${query}`)).templates;
  },
  upload(file: File, name: string, detect: boolean) {
    const form = new FormData();
    if (name.trim()) form.set('name', name.trim());
    form.set('detect', String(detect));
    form.set('file', file, file.name);
    return json<{ template: TemplateDetail; proposals: Proposal[] }>('POST', T, form);
  },
  template: (eid: string) => json<TemplateDetail>('GET', one(eid)),
  async pdf(eid: string): Promise<Uint8Array> {
    return bytes(await send('GET', `${one(eid)}/pdf`));
  },
  async proposals(eid: string): Promise<Proposal[]> {
    return (await json<{ proposals: Proposal[] }>('GET', `${one(eid)}/proposals`)).proposals;
  },
  saveWorking: (eid: string, template: TemplateJson) => json<TemplateDetail>('PUT', `${one(eid)}/working`, template),
  rename: (eid: string, name: string) => json<TemplateDetail>('PATCH', one(eid), { name }),
  async remove(eid: string): Promise<void> {
    await send('DELETE', one(eid));
  },
  duplicate: (eid: string, name?: string) =>
    json<TemplateDetail>('POST', `${one(eid)}/duplicate`, name ? { name } : {}),
  publish: (eid: string) => json<{ versionNumber: number }>('POST', `${one(eid)}/publish`, {}),
  version: (eid: string, n: number) => json<TemplateJson>('GET', `${one(eid)}/versions/${n}`),
  diff: (eid: string, from: number, to: number) => json<FieldDiff>('GET', `${one(eid)}/diff?from=${from}&to=${to}`),
  async preview(eid: string, data: unknown, versionNumber = -1): Promise<Uint8Array> {
    return bytes(await send('POST', `${one(eid)}/preview`, { data, versionNumber }));
  },
  async exportJson(eid: string): Promise<Blob> {
    return (await send('GET', `${one(eid)}/export`)).blob();
  },
  importJson: (body: object) => json<TemplateDetail>('POST', `${T}/import`, body),
};
