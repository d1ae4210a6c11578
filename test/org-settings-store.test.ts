/**
 * The organization settings store behind `/api/organization`, in process: a one-organization file
 * that serves several organizations is not written through the API (the change would be theirs too);
 * a one-organization server writes its file in the same form, keeping its permissions and leaving no
 * temporary file; concurrent changes of two organizations are both kept (they run one at a time, each
 * on the file as it is then); a change of the file is a `reload` event, a bad one keeps the settings.
 * The OpenAPI document describes both routes, and what GET answers is what PUT accepts.
 */
import { chmod, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OrganizationSettingsStore, type ReloadOutcome } from '../src/server/org/index.js';
import { basic, startTestServer, type TestServer } from './server-setup.js';

const A = 'prod-a-key-0123456789';
const B = 'prod-b-key-0123456789';

let dir = '';
let file = '';
let store: OrganizationSettingsStore | undefined;
let server: TestServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-org-store-'));
  file = path.join(dir, 'org.json');
});

afterEach(async () => {
  await server?.close();
  store?.close();
  server = undefined;
  store = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function serve(settings: unknown, organizations: string[]): Promise<void> {
  await writeFile(file, JSON.stringify(settings));
  store = await OrganizationSettingsStore.open(file);
  server = await startTestServer({
    organizationSettings: store,
    config: { keys: organizations.map((o, i) => ({ key: [A, B][i]!, kind: 'production' as const, organization: o })) },
  });
}

const put = (key: string, body: unknown) =>
  fetch(`${server!.base}/api/organization`, {
    method: 'PUT',
    headers: { authorization: basic(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const get = async (key: string) =>
  (await fetch(`${server!.base}/api/organization`, { headers: { authorization: basic(key) } })).json();

describe('OrganizationSettingsStore and /api/organization', () => {
  it('a one-organization file serving two organizations is read by both and written by neither (409)', async () => {
    await serve({ name: 'Shared' }, ['a', 'b']);
    expect(await get(A)).toEqual({ name: 'Shared' });
    expect(await get(B)).toEqual({ name: 'Shared' });
    const r = await put(A, { name: 'Mine only' });
    expect(r.status).toBe(409);
    expect(((await r.json()) as { name: string }).name).toBe('OrganizationSettingsConflictError');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ name: 'Shared' });
    expect(await get(B)).toEqual({ name: 'Shared' });
  });

  it("a one-organization server's file keeps its form and permissions; no temporary file is left", async () => {
    await serve({ name: 'Solo' }, ['a']);
    await chmod(file, 0o640);
    const r = await put(A, { name: 'Solo Two', supportEmail: 'help@solo.example' });
    expect(r.status, await r.clone().text()).toBe(200);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ name: 'Solo Two', supportEmail: 'help@solo.example' });
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(['org.json']);
    expect(store!.directory('a')?.name).toBe('Solo Two');
  });

  it('concurrent changes of two organizations are both kept', async () => {
    await serve({ organizations: { a: { name: 'A0' }, b: { name: 'B0' } } }, ['a', 'b']);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => put(i % 2 ? B : A, { name: `${i % 2 ? 'B' : 'A'}${i + 1}` })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as { organizations: Record<string, { name: string }> };
    // Each organization ends with one of its own names: neither change was written over by the other's.
    expect(onDisk.organizations.a!.name).toMatch(/^A\d$/);
    expect(onDisk.organizations.b!.name).toMatch(/^B\d$/);
    expect(onDisk.organizations.a!.name).not.toBe('A0');
    expect(onDisk.organizations.b!.name).not.toBe('B0');
    expect(store!.directory('a')?.name).toBe(onDisk.organizations.a!.name);
    expect(store!.directory('b')?.name).toBe(onDisk.organizations.b!.name);
  });

  it('a change of the file is a reload event; a bad file is a refused one and the settings stay', async () => {
    await writeFile(file, JSON.stringify({ name: 'First' }));
    store = await OrganizationSettingsStore.open(file, { debounceMs: 20 });
    const lookup = store.directory;
    const next = () => once(store!, 'reload') as Promise<[ReloadOutcome]>;

    let event = next();
    await writeFile(path.join(dir, 'new.json'), JSON.stringify({ name: 'Second' }));
    await rename(path.join(dir, 'new.json'), file);
    expect((await event)[0]).toEqual({ ok: true, cause: 'watch' });
    // The lookup taken before the reload answers with the new settings.
    expect(lookup('any')?.name).toBe('Second');

    event = next();
    await writeFile(path.join(dir, 'new.json'), JSON.stringify({ name: 'Third', style: { primaryColor: 'red' } }));
    await rename(path.join(dir, 'new.json'), file);
    const [refused] = await event;
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.name).toBe('ValidationError');
      expect(refused.error.fields.map((f) => f.property)).toEqual(['style.primaryColor']);
      expect(refused.error.message).toContain(file);
    }
    expect(lookup('any')?.name).toBe('Second');
    // An explicit reload (what SIGHUP does) reads the same bad file: still refused, still Second.
    expect((await store.reload('signal')).ok).toBe(false);
    expect(lookup('any')?.name).toBe('Second');
  });

  it('GET /openapi.json describes both routes (valid OpenAPI 3.1); what GET answers is a body PUT accepts', async () => {
    await serve({ name: 'Doc', style: { primaryColor: '#123456' }, signerDefaults: { allowNameChange: true } }, ['a']);
    const doc = (await (await fetch(`${server!.base}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId?: string;
            security?: unknown;
            requestBody?: { content: Record<string, { schema: object }> };
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    const ops = doc.paths['/api/organization']!;
    expect(Object.keys(ops).sort()).toEqual(['get', 'put']);
    expect(ops.put!.security).toEqual([{ apiKey: [] }]);
    expect(ops.get!.security).toEqual([{ apiKey: [] }]);
    expect([ops.get!.operationId, ops.put!.operationId]).toEqual([
      'getOrganizationSettings',
      'replaceOrganizationSettings',
    ]);
    // The 4xx each answers (org/routes.ts behind the API key): a development key's PUT is a 403, a bad body a 400.
    const codes = (op: { responses: Record<string, unknown> }) =>
      Object.keys(op.responses)
        .filter((c) => c.startsWith('4'))
        .join(' ');
    expect(codes(ops.get!)).toBe('401 404 429');
    expect(codes(ops.put!)).toBe('400 401 403 409 413 415 429');
    const body = await get(A);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    expect(ajv.validate(ops.put!.requestBody!.content['application/json']!.schema, body), ajv.errorsText()).toBe(true);
    expect((await put(A, body)).status).toBe(200);
  });
});
