/**
 * Output file names over raw HTTP: Content-Disposition named after the title
 * (generate: the request's; fill: the request's, else the template's, else the
 * EID), made safe, with an ASCII `filename` and the exact `filename*`; the same
 * on signed-URL downloads.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from '@cantoo/pdf-lib';
import { MemoryTemplateStore } from '../src/index.js';
import { pdfName } from '../src/server/replies/filename.js';
import { zipEntryNames } from '../src/server/graphql/downloads/index.js';
import { pageText } from './helpers/pdf.js';
import { EID, PROD_KEY, basic, startTestServer, type TestServer } from './server-setup.js';
import { expectLinearTime } from './helpers/scaling.js';

let server: TestServer;
let untitled: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const doc = await PDFDocument.create();
  doc.addPage([300, 300]);
  const store = new MemoryTemplateStore();
  store.publish({ eid: 'untitled01', pdf: await doc.save(), fields: [] });
  untitled = await startTestServer({ store });
});
afterAll(async () => {
  await server.close();
  await untitled.close();
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header lines exactly as received (name, value, name, value…). */
  rawHeaders: string[];
  body: Buffer;
}

function request(base: string, method: string, pathName: string, body?: unknown): Promise<Raw> {
  const bytes = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathName}`, {
      method,
      headers: {
        authorization: basic(PROD_KEY),
        ...(bytes ? { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) } : {}),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

function disposition(res: Raw): string {
  expect(res.status, res.body.toString('utf8').slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const i = res.rawHeaders.findIndex((h, n) => n % 2 === 0 && h.toLowerCase() === 'content-disposition');
  expect(i).toBeGreaterThanOrEqual(0);
  const value = res.rawHeaders[i + 1]!;
  // Header bytes are ASCII only: the exact name travels percent-encoded in filename*.
  expect(value).toMatch(/^[\x20-\x7e]+$/);
  return value;
}

/** `filename` and the decoded `filename*` of a Content-Disposition value. */
function names(value: string): { disposition: string; filename?: string; star?: string } {
  const [disp] = value.split(';');
  const plain = /;\s*filename="([^"]*)"/.exec(value)?.[1];
  const ext = /;\s*filename\*=UTF-8''([^;\s]+)/.exec(value)?.[1];
  if (ext !== undefined) expect(ext).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
  return { disposition: disp!.trim(), filename: plain, star: ext === undefined ? undefined : decodeURIComponent(ext) };
}

const markdown = (title?: string, extra: Record<string, unknown> = {}) => ({
  ...(title === undefined ? {} : { title }),
  data: [{ content: 'Body text' }],
  ...extra,
});
const generate = (body: unknown) => request(server.base, 'POST', '/api/v1/generate-pdf', body);

describe('generate-pdf: file name from title', () => {
  it('names the PDF after the title, inline, with filename and filename*', async () => {
    const value = disposition(await generate(markdown('Quarterly Report')));
    expect(value).toBe(`inline; filename="Quarterly Report.pdf"; filename*=UTF-8''Quarterly%20Report.pdf`);
  });

  it('keeps accented and other letters exactly in filename*, and an ASCII stand-in in filename', async () => {
    const n = names(disposition(await generate(markdown('Rechnung Müller – März 2024'))));
    expect(n.disposition).toBe('inline');
    expect(n.star).toBe('Rechnung Müller – März 2024.pdf');
    expect(n.filename).toBe('Rechnung Muller _ Marz 2024.pdf');
  });

  it('falls back to document.pdf in filename when the title has no Latin letters or digits', async () => {
    const n = names(disposition(await generate(markdown('請求書'))));
    expect(n.star).toBe('請求書.pdf');
    expect(n.filename).toBe('document.pdf');
  });

  it('removes what could break the header or the file system', async () => {
    const res = await generate(markdown('a"b\r\nX-Injected: 1\\..//etc/passwd\u202Efdp.exe'));
    const n = names(disposition(res));
    expect(res.headers['x-injected']).toBeUndefined();
    for (const name of [n.filename!, n.star!]) {
      expect(name).not.toMatch(/["\\/\r\n\u202E]/);
      expect(name.endsWith('.pdf')).toBe(true);
    }
    expect(n.star).toBe('a_b X-Injected_ 1_.__etc_passwdfdp.exe.pdf');
  });

  it('does not double .pdf, trims dots and spaces, and cuts very long titles', async () => {
    expect(names(disposition(await generate(markdown('  Invoice 42.PDF  ')))).star).toBe('Invoice 42.pdf');
    expect(names(disposition(await generate(markdown('...hidden')))).star).toBe('hidden.pdf');
    const long = names(disposition(await generate(markdown('é'.repeat(400))))).star!;
    expect(Array.from(long).length).toBe(120 + 4);
  });

  it('uses document.pdf without a title, or with one that is empty once cleaned', async () => {
    expect(disposition(await generate(markdown()))).toBe('inline; filename="document.pdf"');
    expect(disposition(await generate(markdown(' ... ')))).toBe('inline; filename="document.pdf"');
  });

  it('names HTML-mode PDFs too', async () => {
    const res = await generate({ type: 'html', title: 'Invoice 7', data: { html: '<p>Hello</p>' } });
    expect(names(disposition(res)).star).toBe('Invoice 7.pdf');
  }, 60_000);
});

describe('fill: file name from the request title, else the template title, else the EID', () => {
  const fill = (base: string, eid: string, body: unknown, query = '') =>
    request(base, 'POST', `/api/v1/fill/${eid}.pdf${query}`, body);

  it("uses the request's title over the template's", async () => {
    const res = await fill(server.base, EID, { title: 'Signed lease', data: { name: 'Ada' } });
    expect(names(disposition(res)).star).toBe('Signed lease.pdf');
  });

  it('uses the title of the template version that was filled', async () => {
    expect(names(disposition(await fill(server.base, EID, { data: { name: 'Ada' } }))).star).toBe('VERSION TWO.pdf');
    const working = await fill(server.base, EID, { data: { name: 'Ada' } }, '?versionNumber=-1');
    expect(names(disposition(working)).star).toBe('WORKING COPY.pdf');
    expect((await pageText(new Uint8Array(working.body))).join(' ')).toContain('WORKING COPY');
  });

  it('uses the EID when neither has a title', async () => {
    expect(disposition(await fill(untitled.base, 'untitled01', { data: {} }))).toBe(
      'inline; filename="untitled01.pdf"',
    );
  });
});

describe('signed-URL downloads carry the same name', () => {
  async function download(base: string, res: Raw): Promise<Raw> {
    expect(res.status, res.body.toString('utf8')).toBe(200);
    const { url } = JSON.parse(res.body.toString('utf8')) as { url: string };
    const u = new URL(url);
    return request(base, 'GET', u.pathname + u.search);
  }

  it('generate with a title', async () => {
    const res = await download(server.base, await generate(markdown('Résumé 2024', { outputFormat: 'url' })));
    expect(res.headers['cache-control']).toBe('private, no-store');
    const n = names(disposition(res));
    expect(n.star).toBe('Résumé 2024.pdf');
    expect(n.filename).toBe('Resume 2024.pdf');
  });

  it('fill without a title: the template title', async () => {
    const res = await download(
      server.base,
      await request(server.base, 'POST', `/api/v1/fill/${EID}.pdf`, { data: { name: 'Ada' }, outputFormat: 'url' }),
    );
    expect(names(disposition(res)).star).toBe('VERSION TWO.pdf');
  });

  it('generate without a title: document.pdf', async () => {
    const res = await download(server.base, await generate(markdown(undefined, { outputFormat: 'url' })));
    expect(disposition(res)).toBe('inline; filename="document.pdf"');
  });
});

describe('hostile titles', () => {
  it('dots and spaces inside a title are cleaned in linear time (80 KB took 10 s)', async () => {
    // n pairs of characters; 8x as many cost under 22.6x (quadratic: 64x).
    const titles = [
      [(n: number) => `a${'. '.repeat(n)}b`, 'a.pdf'],
      // A run of dots is one dot (no `..` in a name).
      [(n: number) => `a ${'.'.repeat(2 * n)}b`, 'a .b.pdf'],
      [(n: number) => `${'x'.repeat(118)}${' .'.repeat(n)}`, `${'x'.repeat(118)}.pdf`],
      [(n: number) => `.. report${' .'.repeat(n)}`, 'report.pdf'],
    ] as const;
    // Every pattern in one measurement: one that went quadratic again would dominate the sum.
    const names = await expectLinearTime(
      'titles',
      async (n) => titles.map(([title]) => pdfName(title(n), 'document').name),
      2_500,
      20_000,
    );
    expect(names).toEqual(titles.map(([, expected]) => expected));
  });

  it('document-group zips number documents of one name in linear time (8,000 took 21 s)', async () => {
    // Every entry ends in .pdf; names that differ only in case clash (case-blind file systems).
    expect(zipEntryNames(['a.pdf', 'a.pdf', 'a (2).pdf', 'a.pdf', 'b', 'b', 'A.PDF', 'a.pdf'])).toEqual([
      'a.pdf',
      'a (2).pdf',
      'a (2) (2).pdf',
      'a (3).pdf',
      'b.pdf',
      'b (2).pdf',
      'A (4).pdf',
      'a (5).pdf',
    ]);
    // 8x the documents cost under 22.6x (quadratic: 64x).
    const names = await expectLinearTime(
      'zip names',
      async (n) => zipEntryNames(Array<string>(n).fill('contract.pdf')),
      500,
      4_000,
    );
    expect(new Set(names).size).toBe(4_000);
    expect(names.at(-1)).toBe('contract (4000).pdf');
  });

  it('zip entry names of stored hostile filenames: no separators, `..`, drive colons, controls or bidi characters, ≤ 255 bytes, unique', () => {
    const hostile = [
      '../../../etc/evil.pdf',
      '/abs/path.pdf',
      'C:\\win\\evil.pdf',
      '..\\..\\evil.pdf',
      `${'n'.repeat(5000)}.pdf`,
      'evil.pdf\u0000.exe',
      'invoice\u202Efdp.exe',
      '\u200b',
      '日本語'.repeat(200),
      '😀'.repeat(100),
      '😀'.repeat(100),
    ];
    const names = zipEntryNames(hostile);
    expect(names.slice(0, 4)).toEqual(['_._._etc_evil.pdf', '_abs_path.pdf', 'C__win_evil.pdf', '_._evil.pdf']);
    expect(names[5]).toBe('evil.pdf .exe.pdf');
    expect(names[6]).toBe('invoicefdp.exe.pdf');
    expect(names[7]).toBe('document.pdf');
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    for (const n of names) {
      expect(n).not.toMatch(/[\\/:\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]|\.\.|^\./u);
      expect(n.endsWith('.pdf')).toBe(true);
      expect(Buffer.byteLength(n)).toBeLessThanOrEqual(255);
      // Cut on a character boundary: no lone surrogate, no U+FFFD from a split UTF-8 sequence.
      expect(Buffer.from(n).toString('utf8')).toBe(n);
      expect(n).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    expect(names[10]).toMatch(/^😀+ \(2\)\.pdf$/u);
    // Cleaning is idempotent: names a packet stored already cleaned come back unchanged.
    expect(zipEntryNames(names)).toEqual(names);
  });
});
