/**
 * The REST server over raw HTTP: every status code with its body, the rate
 * headers, multipart, signed URLs and their expiry, the watermark, versions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageSizes, pageText, qpdfCheck } from './helpers/pdf.js';
import {
  DEV_KEY,
  EID,
  PROD_KEY,
  TOKEN,
  basic,
  chunkedRequest,
  heldRequest,
  startTestServer,
  type TestServer,
} from './server-setup.js';
import { URL_LIFETIME_MS, WATERMARK_TEXT } from '../src/server/index.js';

let server: TestServer;
let arrived: (() => void) | undefined;

beforeAll(async () => {
  server = await startTestServer({
    multipart: { totalBytes: 3 * 1024 * 1024, partBytes: 2 * 1024 * 1024, parts: 16 },
    // preParsing runs after every onRequest hook (auth and the concurrency count): the held request is in flight.
    beforeListen: (app) =>
      app.addHook('preParsing', async (request) => {
        if (request.headers['x-test-hold']) arrived?.();
      }),
  });
});
afterAll(() => server.close());

const json = (key: string | undefined, body: unknown, extra: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { ...(key ? { authorization: basic(key) } : {}), 'content-type': 'application/json', ...extra },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

const markdown = { title: 'Report', data: [{ heading: 'Quarterly report' }, { content: 'Revenue grew **12%**.' }] };

async function pdfOf(res: Response): Promise<Uint8Array> {
  expect(
    res.status,
    await res
      .clone()
      .text()
      .catch(() => ''),
  ).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  return bytes;
}

function expectRateHeaders(headers: Headers | Record<string, unknown>) {
  const get = (n: string) => (headers instanceof Headers ? headers.get(n) : headers[n]);
  expect(get('x-ratelimit-limit')).toBe('40');
  expect(get('x-ratelimit-interval-ms')).toBe('1000');
}

async function expectError(res: Response, status: number, name: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expectRateHeaders(res.headers);
  const body = (await res.json()) as { name: string; message: string; fields: { message: string; property: string }[] };
  expect(Object.keys(body).sort()).toEqual(['fields', 'message', 'name']);
  expect(body.name).toBe(name);
  expect(typeof body.message).toBe('string');
  expect(Array.isArray(body.fields)).toBe(true);
  return body;
}

const text = async (bytes: Uint8Array) => (await pageText(bytes)).join('\n');

describe('authentication', () => {
  it('answers 401 without credentials, with an unknown key, a wrong scheme or a bad token', async () => {
    const url = `${server.base}/api/v1/generate-pdf`;
    const none = await fetch(url, json(undefined, markdown));
    const noneBody = await expectError(none, 401, 'AuthorizationError');
    expect(noneBody.message).toBe('Not logged in.');
    // One field entry, as every other status has.
    expect(noneBody.fields).toEqual([{ message: 'Not logged in.', property: 'authorization' }]);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic /);
    await expectError(await fetch(url, json('not-a-key', markdown)), 401, 'AuthorizationError');
    await expectError(
      await fetch(url, json(undefined, markdown, { authorization: `Digest ${PROD_KEY}` })),
      401,
      'AuthorizationError',
    );
    await expectError(
      await fetch(
        url,
        json(undefined, markdown, { authorization: `Bearer ${Buffer.from('nope').toString('base64')}` }),
      ),
      401,
      'AuthorizationError',
    );
    // The key must be the user name, not the password.
    const asPassword = `Basic ${Buffer.from(`user:${PROD_KEY}`).toString('base64')}`;
    await expectError(
      await fetch(url, json(undefined, markdown, { authorization: asPassword })),
      401,
      'AuthorizationError',
    );
  });

  it('accepts Basic with the key as user name and a Bearer token base64-encoded (as the Node client sends it) or raw', async () => {
    const url = `${server.base}/api/v1/generate-pdf`;
    expect(await text(await pdfOf(await fetch(url, json(PROD_KEY, markdown))))).toContain('Quarterly report');
    const b64 = `Bearer ${Buffer.from(TOKEN).toString('base64')}`;
    await pdfOf(await fetch(url, json(undefined, markdown, { authorization: b64 })));
    await pdfOf(await fetch(url, json(undefined, markdown, { authorization: `Bearer ${TOKEN}` })));
  });
});

describe('status codes and error bodies', () => {
  it('400: empty body, invalid JSON, bad property with its path, bad versionNumber', async () => {
    const gen = `${server.base}/api/v1/generate-pdf`;
    const empty = await expectError(await fetch(gen, json(PROD_KEY, '')), 400, 'ValidationError');
    expect(empty.fields).toEqual([{ message: 'Required', property: 'data' }]);
    expect((await expectError(await fetch(gen, json(PROD_KEY, {})), 400, 'ValidationError')).fields).toEqual([
      { message: 'Required', property: 'data' },
    ]);
    expect(
      (await expectError(await fetch(gen, json(PROD_KEY, '{"data": [')), 400, 'ValidationError')).fields[0]!.property,
    ).toBe('body');
    const bad = await expectError(
      await fetch(gen, json(PROD_KEY, { data: [{ content: 'x', fontSize: 99 }] })),
      400,
      'ValidationError',
    );
    expect(bad.fields.map((f) => f.property)).toEqual(['data[0].fontSize']);
    const version = await fetch(
      `${server.base}/api/v1/fill/${EID}.pdf?versionNumber=abc`,
      json(PROD_KEY, { data: { name: 'x' } }),
    );
    expect((await expectError(version, 400, 'ValidationError')).fields).toEqual([
      { message: 'Must be an integer', property: 'versionNumber' },
    ]);
  });

  it('404: unknown template, unknown version, unknown route, wrong method', async () => {
    const unknown = await expectError(
      await fetch(`${server.base}/api/v1/fill/noSuchCast.pdf`, json(PROD_KEY, { data: { name: 'x' } })),
      404,
      'NotFoundError',
    );
    expect(unknown.fields[0]!.property).toBe('castEid');
    expect(unknown.message).toContain('noSuchCast');
    await expectError(
      await fetch(`${server.base}/api/v1/fill/${EID}.pdf?versionNumber=7`, json(PROD_KEY, { data: { name: 'x' } })),
      404,
      'NotFoundError',
    );
    await expectError(
      await fetch(`${server.base}/api/v1/fill/${EID}`, json(PROD_KEY, { data: { name: 'x' } })),
      404,
      'NotFoundError',
    );
    await expectError(await fetch(`${server.base}/api/v2/nothing`), 404, 'NotFoundError');
    await expectError(
      await fetch(`${server.base}/api/v1/generate-pdf`, { headers: { authorization: basic(PROD_KEY) } }),
      404,
      'NotFoundError',
    );
  });

  it('413: JSON over 1,048,576 bytes by Content-Length, and streamed without one', async () => {
    const limit = 1_048_576;
    // Valid JSON one byte over the limit: refused for its size, not its content.
    const padding = 'x'.repeat(limit - JSON.stringify({ data: [{ content: '' }] }).length + 1);
    const over = JSON.stringify({ data: [{ content: padding }] });
    expect(Buffer.byteLength(over)).toBe(limit + 1);
    const big = await expectError(
      await fetch(`${server.base}/api/v1/generate-pdf`, json(PROD_KEY, over)),
      413,
      'PayloadTooLargeError',
    );
    expect(big.fields).toEqual([{ message: expect.stringContaining('1048576'), property: 'body' }]);

    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const streamed = await chunkedRequest(
      server.base,
      '/api/v1/generate-pdf',
      { authorization: basic(PROD_KEY) },
      Array.from({ length: 20 }, () => chunk),
    );
    expect(streamed.status).toBe(413);
    expectRateHeaders(streamed.headers);
    expect(JSON.parse(streamed.body.toString('utf8'))).toMatchObject({
      name: 'PayloadTooLargeError',
      fields: [{ property: 'body' }],
    });
  });

  it('413: data: URLs in a fill payload over the 100k budget', async () => {
    const dataUrl = `data:image/png;base64,${'A'.repeat(110 * 1024)}`;
    const res = await fetch(
      `${server.base}/api/v1/fill/${EID}.pdf`,
      json(PROD_KEY, { data: { name: 'x', photo: dataUrl } }),
    );
    await expectError(res, 413, 'PayloadTooLargeError');
    // The same string under a key no field reads is ignored, as the spec ignores the key.
    const unknown = await fetch(
      `${server.base}/api/v1/fill/${EID}.pdf`,
      json(PROD_KEY, { data: { name: 'x', unknownKey: dataUrl } }),
    );
    expect(unknown.status).toBe(200);
  });

  it('415: any other content type, and none', async () => {
    const url = `${server.base}/api/v1/generate-pdf`;
    const plain = await fetch(url, {
      method: 'POST',
      headers: { authorization: basic(PROD_KEY), 'content-type': 'text/plain' },
      body: JSON.stringify(markdown),
    });
    expect((await expectError(plain, 415, 'UnsupportedMediaTypeError')).fields[0]!.property).toBe('Content-Type');
    const form = await fetch(url, {
      method: 'POST',
      headers: { authorization: basic(PROD_KEY), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'data=x',
    });
    await expectError(form, 415, 'UnsupportedMediaTypeError');
    await expectError(
      await fetch(url, { method: 'POST', headers: { authorization: basic(PROD_KEY) } }),
      415,
      'UnsupportedMediaTypeError',
    );
  });

  it('429: a development key over its concurrency limit, with an integer Retry-After; the slot comes back', async () => {
    const url = `${server.base}/api/v1/generate-pdf`;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const held = heldRequest(
      server.base,
      '/api/v1/generate-pdf',
      { authorization: basic(DEV_KEY), 'x-test-hold': '1' },
      JSON.stringify(markdown),
    );
    await inFlight;
    const busy = await fetch(url, json(DEV_KEY, markdown));
    const body = await expectError(busy, 429, 'TooManyRequestsError');
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(body.message).toMatch(/limit 1/);
    expect(body.fields).toEqual([{ message: body.message, property: 'request' }]);
    // Other keys are not affected.
    await pdfOf(await fetch(url, json(PROD_KEY, markdown)));
    const first = await held.finish();
    expect(first.status).toBe(200);
    // The held request's slot is free again once it has been answered.
    await pdfOf(await fetch(url, json(DEV_KEY, markdown)));
  });

  it('429: a client that goes away gives its slot back', async () => {
    const url = `${server.base}/api/v1/generate-pdf`;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const held = heldRequest(
      server.base,
      '/api/v1/generate-pdf',
      { authorization: basic(DEV_KEY), 'x-test-hold': '1' },
      JSON.stringify(markdown),
    );
    held.response.catch(() => {});
    await inFlight;
    await expectError(await fetch(url, json(DEV_KEY, markdown)), 429, 'TooManyRequestsError');
    held.abort();
    // The server learns of the abort asynchronously: a bounded number of tries, each a full request.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      const res = await fetch(url, json(DEV_KEY, markdown));
      status = res.status;
      await res.arrayBuffer();
      if (status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(200);
  });
});

describe('fill', () => {
  it('fills the latest published version by default, a numbered one, and the working version with -1', async () => {
    const fill = (query: string) =>
      fetch(`${server.base}/api/v1/fill/${EID}.pdf${query}`, json(PROD_KEY, { data: { name: 'Ada Lovelace' } }));
    const latest = await text(await pdfOf(await fill('')));
    expect(latest).toContain('VERSION TWO');
    expect(latest).toContain('Ada Lovelace');
    expect(await text(await pdfOf(await fill('?versionNumber=1')))).toContain('VERSION ONE');
    expect(await text(await pdfOf(await fill('?versionNumber=-1')))).toContain('WORKING COPY');
    expect(await text(await pdfOf(await fill('?versionNumber=-2')))).toContain('VERSION TWO');
  });
});

describe('multipart/form-data', () => {
  it('generate: each property a part; fontSize and page strings parsed', async () => {
    const form = new FormData();
    form.append('title', 'Multipart');
    form.append('data', JSON.stringify([{ heading: 'From parts' }, { content: 'body text' }]));
    form.append('fontSize', '12');
    form.append('page', JSON.stringify({ width: '400px', height: '300px', margin: '20px' }));
    form.append('includeTimestamp', 'false');
    form.append('logo', 'false');
    const res = await fetch(`${server.base}/api/v1/generate-pdf`, {
      method: 'POST',
      headers: { authorization: basic(PROD_KEY) },
      body: form,
    });
    const pdf = await pdfOf(res);
    expect(await text(pdf)).toContain('From parts');
    expect(await pageSizes(pdf)).toEqual([{ width: 300, height: 225 }]);
  });

  it('fill: data as a file part declared application/json, versionNumber in the query', async () => {
    const form = new FormData();
    form.append(
      'data',
      new Blob([JSON.stringify({ name: 'Grace Hopper' })], { type: 'application/json' }),
      'data.json',
    );
    form.append('fontSize', '14');
    const res = await fetch(`${server.base}/api/v1/fill/${EID}.pdf?versionNumber=1`, {
      method: 'POST',
      headers: { authorization: basic(PROD_KEY) },
      body: form,
    });
    const t = await text(await pdfOf(res));
    expect(t).toContain('Grace Hopper');
    expect(t).toContain('VERSION ONE');
  });

  it('takes bodies over the JSON limit, up to its own caps (413 above them)', async () => {
    // 1.2 MB of HTML: a 413 as JSON, fine as multipart.
    const html = `<h1>Large body</h1><!-- ${'x'.repeat(1_200_000)} -->`;
    const body = { type: 'html', data: { html } };
    await expectError(
      await fetch(`${server.base}/api/v1/generate-pdf`, json(PROD_KEY, body)),
      413,
      'PayloadTooLargeError',
    );
    const form = new FormData();
    form.append('type', 'html');
    form.append('data', JSON.stringify({ html }));
    const pdf = await pdfOf(
      await fetch(`${server.base}/api/v1/generate-pdf`, {
        method: 'POST',
        headers: { authorization: basic(PROD_KEY) },
        body: form,
      }),
    );
    expect(await text(pdf)).toContain('Large body');
    // The same as a file part.
    const asFile = new FormData();
    asFile.append('type', 'html');
    asFile.append(
      'data',
      new Blob([JSON.stringify({ html: html.replace('Large body', 'Big upload part') })], { type: 'application/json' }),
      'data.json',
    );
    const filePdf = await pdfOf(
      await fetch(`${server.base}/api/v1/generate-pdf`, {
        method: 'POST',
        headers: { authorization: basic(PROD_KEY) },
        body: asFile,
      }),
    );
    expect(await text(filePdf)).toContain('Big upload part');

    const huge = new FormData();
    huge.append('data', JSON.stringify({ html: 'x'.repeat(2.5 * 1024 * 1024) }));
    const res = await fetch(`${server.base}/api/v1/generate-pdf`, {
      method: 'POST',
      headers: { authorization: basic(PROD_KEY) },
      body: huge,
    });
    await expectError(res, 413, 'PayloadTooLargeError');
    const hugeFile = new FormData();
    hugeFile.append('data', new Blob(['x'.repeat(2.5 * 1024 * 1024)], { type: 'application/json' }), 'data.json');
    const fileRes = await fetch(`${server.base}/api/v1/generate-pdf`, {
      method: 'POST',
      headers: { authorization: basic(PROD_KEY) },
      body: hugeFile,
    });
    await expectError(fileRes, 413, 'PayloadTooLargeError');
  });

  it('400 for a part sent twice, invalid JSON in data, and a malformed body', async () => {
    const url = `${server.base}/api/v1/generate-pdf`;
    const twice = new FormData();
    twice.append('title', 'a');
    twice.append('title', 'b');
    twice.append('data', JSON.stringify([{ heading: 'x' }]));
    const dup = await expectError(
      await fetch(url, { method: 'POST', headers: { authorization: basic(PROD_KEY) }, body: twice }),
      400,
      'ValidationError',
    );
    expect(dup.fields).toEqual([{ property: 'title', message: 'Sent more than once' }]);

    const broken = new FormData();
    broken.append('data', '[{"heading": ');
    const bad = await expectError(
      await fetch(url, { method: 'POST', headers: { authorization: basic(PROD_KEY) }, body: broken }),
      400,
      'ValidationError',
    );
    expect(bad.fields).toEqual([{ property: 'data', message: 'Must be valid JSON' }]);

    const malformed = await fetch(url, {
      method: 'POST',
      headers: { authorization: basic(PROD_KEY), 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="data"\r\n\r\n[{"heading":"x"}]',
    });
    await expectError(malformed, 400, 'ValidationError');
  });
});

describe("outputFormat: 'url'", () => {
  it('answers {url} only; the link serves the PDF, refuses tampering and expires after 5 minutes (410)', async () => {
    const res = await fetch(`${server.base}/api/v1/generate-pdf`, json(PROD_KEY, { ...markdown, outputFormat: 'url' }));
    expect(res.status).toBe(200);
    expectRateHeaders(res.headers);
    const body = (await res.json()) as { url: string };
    expect(Object.keys(body)).toEqual(['url']);
    const url = new URL(body.url);
    expect(url.origin).toBe(server.base);

    const pdf = await pdfOf(await fetch(body.url));
    expect(await text(pdf)).toContain('Quarterly report');
    // Still there for a second download.
    await pdfOf(await fetch(body.url));

    const tampered = new URL(body.url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 60_000));
    await expectError(await fetch(tampered), 404, 'NotFoundError');
    const noSig = new URL(body.url);
    noSig.searchParams.delete('signature');
    await expectError(await fetch(noSig), 404, 'NotFoundError');

    server.advance(URL_LIFETIME_MS - 1000);
    await pdfOf(await fetch(body.url));
    server.advance(1000);
    const expired = await expectError(await fetch(body.url), 410, 'LinkExpiredError');
    expect(expired.fields).toEqual([{ message: 'Expired', property: 'expires' }]);
  });

  it('works for fill too', async () => {
    const res = await fetch(
      `${server.base}/api/v1/fill/${EID}.pdf`,
      json(PROD_KEY, { data: { name: 'Ada' }, outputFormat: 'url' }),
    );
    const { url } = (await res.json()) as { url: string };
    expect(await text(await pdfOf(await fetch(url)))).toContain('Ada');
  });
});

describe('watermark', () => {
  it('development keys get it on every page; production keys do not', async () => {
    const long = {
      data: [{ heading: 'Long' }, { content: Array.from({ length: 120 }, (_, i) => `Paragraph ${i}.`).join('\n\n') }],
    };
    const dev = await pdfOf(await fetch(`${server.base}/api/v1/generate-pdf`, json(DEV_KEY, long)));
    const pages = await pageText(dev);
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages) expect(p).toContain(WATERMARK_TEXT);
    expect(pages[0]).toContain('Paragraph 0.');
    await qpdfCheck(dev);

    const prod = await pdfOf(await fetch(`${server.base}/api/v1/generate-pdf`, json(PROD_KEY, long)));
    for (const p of await pageText(prod)) expect(p).not.toContain('DEVELOPMENT');
  });

  it('on fills and on PDFs behind signed links', async () => {
    const filled = await pdfOf(
      await fetch(`${server.base}/api/v1/fill/${EID}.pdf`, json(DEV_KEY, { data: { name: 'Ada' } })),
    );
    const t = await text(filled);
    expect(t).toContain(WATERMARK_TEXT);
    expect(t).toContain('Ada');
    const res = await fetch(`${server.base}/api/v1/generate-pdf`, json(DEV_KEY, { ...markdown, outputFormat: 'url' }));
    const { url } = (await res.json()) as { url: string };
    expect(await text(await pdfOf(await fetch(url)))).toContain(WATERMARK_TEXT);
  });
});
