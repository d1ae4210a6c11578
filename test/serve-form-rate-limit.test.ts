/**
 * The public workflow forms' throttles through `castpress serve --form-rate-limit`: per
 * client address, per form, per organization, each a 429 with an integer Retry-After, the typed
 * error for JSON clients and an HTML page for browsers, and nothing made by a refused post (the runs
 * are counted through `weld(eid)`). Client addresses are real: the posts leave from 127.0.0.1,
 * 127.0.0.2, … (all loopback on Linux) to the server on 127.0.0.1. The window is an hour, so no
 * bucket empties during the test: nothing depends on the clock.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/signing.js';
import { startServe, type ServeProcess } from './helpers/serve.js';
import { rawRequest } from './server-setup.js';

const DEFAULT_KEY = 'prod-default-0123456789';
const OTHER_KEY = 'prod-other-0123456789';
const WINDOW_S = 3600;

let tmp: { dir: string; remove: () => Promise<void> };
let serve: ServeProcess;
let base = '';

/** A two-forge workflow: posting the first forge makes a run (and no packet yet). */
const workflow = (eid: string, slug: string, organization: string) => ({
  eid,
  slug,
  title: `Workflow ${slug}`,
  organization,
  forges: [
    {
      eid: `${eid}F1`,
      slug: 'who',
      name: 'Who',
      fields: [{ name: 'name', type: 'shortText', label: 'Name', required: true }],
    },
    { eid: `${eid}F2`, slug: 'ok', name: 'OK', fields: [{ name: 'ok', type: 'checkbox', label: 'OK' }] },
  ],
  packet: {
    name: 'Packet for {{who.name}}',
    isTest: true,
    files: [
      {
        id: 'doc',
        filename: 'doc.pdf',
        title: 'Doc',
        fields: [
          { content: 'Name: {{who.name}}' },
          { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } },
        ],
      },
    ],
    signers: [
      {
        id: 'signer',
        name: '{{who.name}}',
        email: 'signer@example.com',
        signerType: 'embedded',
        fields: [{ fileId: 'doc', fieldId: 'sig' }],
      },
    ],
  },
});

beforeAll(async () => {
  tmp = await tempDir('castpress-form-rate-');
  const workflows = path.join(tmp.dir, 'workflows');
  await mkdir(workflows, { recursive: true });
  await writeFile(path.join(workflows, 'a.json'), JSON.stringify(workflow('weldA', 'form-a', 'default')));
  await writeFile(path.join(workflows, 'b.json'), JSON.stringify(workflow('weldB', 'form-b', 'default')));
  await writeFile(path.join(workflows, 'c.json'), JSON.stringify(workflow('weldC', 'form-c', 'other')));
  await mkdir(path.join(tmp.dir, 'workflows-proxied'));
  await writeFile(
    path.join(tmp.dir, 'workflows-proxied', 'a.json'),
    JSON.stringify(workflow('weldA', 'form-a', 'default')),
  );
  const keys = path.join(tmp.dir, 'keys.json');
  await writeFile(
    keys,
    JSON.stringify({
      keys: [
        { key: DEFAULT_KEY, kind: 'production' },
        { key: OTHER_KEY, kind: 'production', organization: 'other' },
      ],
    }),
  );
  // The other organization's settings narrow its forms' own budget.
  const org = path.join(tmp.dir, 'org.json');
  await writeFile(
    org,
    JSON.stringify({
      organizations: { default: { name: 'Default' }, other: { name: 'Other', formRateLimit: { form: 2 } } },
    }),
  );
  serve = startServe([
    '--org',
    org,
    '--port',
    '0',
    '--keys',
    keys,
    '--workflows',
    workflows,
    '--data',
    path.join(tmp.dir, 'data'),
    '--log-level',
    'warn',
    '--form-rate-limit',
    `address=3,form=5,organization=7,views=4,window=${WINDOW_S}`,
  ]);
  base = await serve.url;
}, 60_000);

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await tmp?.remove();
}, 60_000);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request leaving from `from` (a loopback address), so the server sees that client address. */
async function request(
  from: string,
  method: 'GET' | 'POST',
  pathName: string,
  options: { body?: string; accept?: string; headers?: Record<string, string>; base?: string } = {},
): Promise<Answer> {
  const r = await rawRequest(options.base ?? base, pathName, {
    method,
    localAddress: from,
    headers: {
      accept: options.accept ?? 'application/json',
      ...options.headers,
      ...(options.body !== undefined
        ? {
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': String(Buffer.byteLength(options.body)),
          }
        : {}),
    },
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  return { ...r, body: r.body.toString() };
}

const post = (
  from: string,
  slug: string,
  accept?: string,
  extra: { headers?: Record<string, string>; base?: string } = {},
) =>
  request(from, 'POST', `/weld/${slug}/who`, {
    body: new URLSearchParams({
      name: 'Ada',
      submissionEid: `sub_${randomBytes(15).toString('base64url')}`,
    }).toString(),
    ...(accept ? { accept } : {}),
    ...extra,
  });

async function runsOf(key: string, eid: string): Promise<number> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
    },
    body: JSON.stringify({ query: 'query($eid: String){ weld(eid: $eid){ weldDatas{ eid } } }', variables: { eid } }),
  });
  const json = (await res.json()) as { data?: { weld: { weldDatas: unknown[] } }; errors?: unknown };
  expect(json.errors, JSON.stringify(json.errors)).toBeUndefined();
  return json.data!.weld.weldDatas.length;
}

function expectRefused(answer: Answer, property = 'request'): void {
  expect(answer.status, answer.body).toBe(429);
  const retryAfter = answer.headers['retry-after'];
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(WINDOW_S);
  expect(JSON.parse(answer.body)).toMatchObject({ name: 'TooManyRequestsError', fields: [{ property }] });
}

describe('castpress serve --form-rate-limit', () => {
  it('refuses the posts over each bucket with 429 and Retry-After, and makes nothing for them', async () => {
    // Per address: the fourth post from 127.0.0.1 is refused, JSON and browser alike.
    for (let i = 0; i < 3; i++) expect((await post('127.0.0.1', 'form-a')).status).toBe(201);
    expectRefused(await post('127.0.0.1', 'form-a'));
    const page = await post('127.0.0.1', 'form-a', 'text/html');
    expect(page.status).toBe(429);
    expect(page.headers['retry-after']).toMatch(/^\d+$/);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Too many form submissions from this address');
    // The address counts all forms together.
    expectRefused(await post('127.0.0.1', 'form-b'));
    // Another address still goes through.
    expect((await post('127.0.0.2', 'form-a')).status).toBe(201);
    expect((await post('127.0.0.2', 'weldA')).status).toBe(201); // the eid names the same form: 5 posts to it

    // Per form: form A has had its 5; a fresh address is refused on it, and goes through on form B.
    expectRefused(await post('127.0.0.3', 'form-a'));
    expect((await post('127.0.0.3', 'form-b')).status).toBe(201);
    expect((await post('127.0.0.3', 'form-b')).status).toBe(201);

    // Per organization: A's 5 and B's 2 are the default organization's 7; form C is another's.
    const org = await post('127.0.0.4', 'form-b');
    expectRefused(org);
    expect(JSON.parse(org.body).message).toMatch(/organization/);
    expect((await post('127.0.0.4', 'form-c')).status).toBe(201);

    // Nothing was made for a refused post.
    expect(await runsOf(DEFAULT_KEY, 'weldA')).toBe(5);
    expect(await runsOf(DEFAULT_KEY, 'weldB')).toBe(2);
    expect(await runsOf(OTHER_KEY, 'weldC')).toBe(1);

    // The other organization's own budget for one form (--org formRateLimit.form: 2) replaces the server's 5.
    expect((await post('127.0.0.7', 'form-c')).status).toBe(201);
    expectRefused(await post('127.0.0.7', 'form-c'));
    expect(await runsOf(OTHER_KEY, 'weldC')).toBe(2);
  }, 120_000);

  it('limits the form pages one address loads', async () => {
    for (let i = 0; i < 4; i++)
      expect((await request('127.0.0.5', 'GET', '/weld/form-a', { accept: 'text/html' })).status).toBe(200);
    const refused = await request('127.0.0.5', 'GET', '/weld/form-a', { accept: 'text/html' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect((await request('127.0.0.6', 'GET', '/weld/form-a', { accept: 'text/html' })).status).toBe(200);
  }, 60_000);
});

describe('castpress serve --trust-proxy', () => {
  let proxied: ServeProcess;
  let proxiedBase = '';
  beforeAll(async () => {
    proxied = startServe([
      '--port',
      '0',
      '--no-auth',
      '--workflows',
      path.join(tmp.dir, 'workflows-proxied'),
      '--data',
      path.join(tmp.dir, 'data-proxied'),
      '--log-level',
      'warn',
      '--trust-proxy',
      '127.0.0.8',
      '--form-rate-limit',
      `address=1,window=${WINDOW_S}`,
    ]);
    proxiedBase = await proxied.url;
  }, 60_000);
  afterAll(async () => {
    proxied?.child.kill('SIGTERM');
    await proxied?.exited;
  });

  it("counts the forwarded client's address behind a trusted proxy, and ignores the header from anyone else", async () => {
    const via = (from: string, client: string) =>
      post(from, 'form-a', undefined, { base: proxiedBase, headers: { 'x-forwarded-for': client } });
    expect((await via('127.0.0.8', '203.0.113.1')).status).toBe(201);
    expectRefused(await via('127.0.0.8', '203.0.113.1'));
    expect((await via('127.0.0.8', '203.0.113.2')).status).toBe(201);
    // Not the trusted proxy: its header is ignored, the connection's address is the client.
    expect((await via('127.0.0.9', '203.0.113.3')).status).toBe(201);
    expectRefused(await via('127.0.0.9', '203.0.113.4'));
  }, 60_000);
});
