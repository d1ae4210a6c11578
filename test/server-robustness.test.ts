/**
 * The REST server under seeded junk: wrong and garbled credentials, content types,
 * truncated and mutated JSON, broken multipart, random bytes. Every answer must be
 * a PDF (200) or one of the spec's statuses with the error body
 * `{name, message, fields: [{message, property}]}` — never a 500, never a hang.
 */
import { seededRandom } from './helpers/random.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { basic, EID, PROD_KEY, startTestServer, TOKEN, type TestServer } from './server-setup.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const ALLOWED = new Set([200, 400, 401, 404, 413, 415, 429]);

it('answers 400 requests of junk with a PDF or a typed error body of the spec', async () => {
  const rnd = seededRandom(Number(process.env.ROBUST_SEED ?? 8080));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const fillBody = JSON.stringify({ title: 'T', fontSize: 10, data: { name: 'Ada' } });
  const mdBody = JSON.stringify({
    title: 'T',
    data: [{ heading: 'H' }, { content: '**x**' }, { table: { rows: [['a', 'b']] } }],
  });
  const paths = [
    `/api/v1/fill/${EID}.pdf`,
    `/api/v1/fill/${EID}.pdf?versionNumber=-1`,
    `/api/v1/fill/${EID}.pdf?versionNumber=abc`,
    `/api/v1/fill/${EID}.pdf?versionNumber=99`,
    '/api/v1/fill/nope.pdf',
    '/api/v1/generate-pdf',
    '/api/v1/generate-pdf?x=%ZZ',
    '/api/v1/unknown',
  ];
  const auths = [
    basic(PROD_KEY),
    basic(PROD_KEY),
    `Bearer ${Buffer.from(TOKEN).toString('base64')}`,
    basic('wrong'),
    'Basic !!!notbase64',
    'Bearer',
    '',
    'Digest x',
  ];
  const bodies = (path: string): string[] => {
    const base = path.includes('fill') ? fillBody : mdBody;
    return [
      base,
      base.slice(0, Math.floor(rnd() * base.length)),
      base.replace(/"[a-z]+"/, '"\u0000"'),
      base.replace('10', '"ten"').replace('"Ada"', '{"value":[[[]]]}'),
      '[]',
      'null',
      '{"data":"not-encrypted:zz:yy"}',
      '{"data":' + '['.repeat(2000) + ']'.repeat(2000) + '}',
      Buffer.from(Array.from({ length: 64 }, () => Math.floor(rnd() * 256))).toString('latin1'),
      '',
    ];
  };
  const bad: string[] = [];
  const seen = new Map<number, number>();
  for (let i = 0; i < 400; i++) {
    // A third of the requests are well formed but for one thing, so rendering is reached too.
    const sane = rnd() < 0.35;
    const url = sane ? pick(paths.slice(0, 2).concat(paths[5]!)) : pick(paths);
    const auth = sane ? basic(PROD_KEY) : pick(auths);
    const type = sane
      ? 'application/json'
      : pick([
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'multipart/form-data; boundary=XyZ',
          'multipart/form-data',
          'application/x-www-form-urlencoded',
          '',
        ]);
    let payload = sane && rnd() < 0.5 ? bodies(url)[0]! : pick(bodies(url));
    if (type.startsWith('multipart')) {
      payload =
        rnd() < 0.5
          ? `--XyZ\r\nContent-Disposition: form-data; name="data"\r\n\r\n${payload}\r\n--XyZ--\r\n`
          : `--XyZ\r\nContent-Disposition: form-data\r\n\r\n${payload}`;
    }
    const headers: Record<string, string> = {};
    if (auth) headers.authorization = auth;
    if (type) headers['content-type'] = type;
    const res = await server.app.inject({
      method: sane ? 'POST' : pick(['POST', 'POST', 'POST', 'GET', 'PUT']),
      url,
      headers,
      payload,
    });
    seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
    const where = `#${i} ${res.statusCode} ${url} [${type}] ${JSON.stringify(payload.slice(0, 120))}`;
    if (!ALLOWED.has(res.statusCode) && res.statusCode !== 405) {
      bad.push(`${where}\n  ${res.body.slice(0, 300)}`);
      continue;
    }
    if (res.statusCode === 200) {
      if (!res.rawPayload.subarray(0, 5).equals(Buffer.from('%PDF-'))) bad.push(`${where}: 200 without a PDF`);
      continue;
    }
    let body: { name?: unknown; message?: unknown; fields?: unknown } = {};
    try {
      body = JSON.parse(res.body) as typeof body;
    } catch {
      bad.push(`${where}: error body is not JSON: ${res.body.slice(0, 200)}`);
      continue;
    }
    const fieldsOk =
      Array.isArray(body.fields) &&
      body.fields.every(
        (f: { message?: unknown; property?: unknown }) =>
          typeof f.message === 'string' && typeof f.property === 'string',
      );
    if (typeof body.name !== 'string' || typeof body.message !== 'string' || !fieldsOk)
      bad.push(`${where}: error body ${res.body.slice(0, 200)}`);
  }
  expect(bad, bad.join('\n')).toEqual([]);
  console.log('server junk: statuses', JSON.stringify(Object.fromEntries(seen)));
  // Both outcomes are reached, so validation and rendering both ran.
  expect(seen.get(200) ?? 0).toBeGreaterThan(10);
  expect(seen.get(400) ?? 0).toBeGreaterThan(10);
}, 180_000);
