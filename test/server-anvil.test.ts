/**
 * The hosted API's own Node client (`@anvilco/anvil`), pointed at a castpress
 * server with `baseURL`: what a user running it for offline development sees.
 */
import anvilModule from '@anvilco/anvil';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageSizes, pageText, qpdfCheck } from './helpers/pdf.js';
import { DEV_KEY, EID, PROD_KEY, TOKEN, startTestServer, type TestServer } from './server-setup.js';
import { WATERMARK_TEXT } from '../src/server/index.js';

// A CommonJS package typed with `export default`: under NodeNext the class is `.default` (the package sets both).
const Anvil = anvilModule.default;
let server: TestServer;
let client: InstanceType<typeof Anvil>;

beforeAll(async () => {
  server = await startTestServer();
  client = new Anvil({ apiKey: PROD_KEY, baseURL: server.base });
});
afterAll(() => server.close());

function pdfBytes(result: { statusCode: number; data?: unknown; errors?: unknown }): Uint8Array {
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  expect(result.statusCode).toBe(200);
  expect(Buffer.isBuffer(result.data)).toBe(true);
  const bytes = new Uint8Array(result.data as Buffer);
  expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  return bytes;
}

const text = async (bytes: Uint8Array) => (await pageText(bytes)).join('\n');

describe('@anvilco/anvil against castpress', () => {
  it('fillPDF: latest published version, and the working version with versionNumber -1', async () => {
    const filled = pdfBytes(
      await client.fillPDF(EID, {
        title: 'Filled',
        fontSize: 12,
        textColor: '#CC0000',
        data: { name: 'Ada Lovelace' },
      }),
    );
    const t = await text(filled);
    expect(t).toContain('Ada Lovelace');
    expect(t).toContain('VERSION TWO');
    await qpdfCheck(filled);
    const working = pdfBytes(
      await client.fillPDF(EID, { data: { name: 'Ada' } }, { versionNumber: Anvil.VERSION_LATEST }),
    );
    expect(await text(working)).toContain('WORKING COPY');
  });

  it('generatePDF: Markdown', async () => {
    const pdf = pdfBytes(
      await client.generatePDF({
        title: 'Markdown',
        fontSize: 12,
        data: [
          { heading: 'Offline report' },
          { label: 'Summary', content: 'Everything is **fine**.' },
          {
            table: {
              rows: [
                ['Item', 'Qty'],
                ['Apples', '3'],
              ],
              rowGridLines: true,
            },
          },
        ],
        page: { width: '8.5in', height: '11in', margin: '50px' },
      }),
    );
    const t = await text(pdf);
    expect(t).toContain('Offline report');
    expect(t).toContain('Apples');
    expect(await pageSizes(pdf)).toEqual([{ width: 612, height: 792 }]);
  });

  it('generatePDF: HTML', async () => {
    const pdf = pdfBytes(
      await client.generatePDF({
        type: 'html',
        title: 'Invoice',
        data: {
          html: '<h1>Invoice 42</h1><p class="total">Total: $10</p>',
          css: 'h1 { color: navy } .total { font-weight: bold }',
        },
        page: { width: '210mm', height: '297mm' },
      }),
    );
    const t = await text(pdf);
    expect(t).toContain('Invoice 42');
    expect(t).toContain('Total: $10');
    const [size] = await pageSizes(pdf);
    expect(size!.width).toBeCloseTo(595.3, 0);
  });

  it("outputFormat 'url' comes back as data.url, not as an error", async () => {
    const result = await client.generatePDF({ data: [{ heading: 'Linked' }], outputFormat: 'url' });
    expect(result.errors).toBeUndefined();
    expect(result.statusCode).toBe(200);
    const { url } = result.data as { url: string };
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await text(new Uint8Array(await res.arrayBuffer()))).toContain('Linked');
  });

  it('errors reach the client in the shape it reads: 400 with fields, 404, 401', async () => {
    const invalid = await client.generatePDF({});
    expect(invalid.statusCode).toBe(400);
    expect(invalid.errors).toEqual([
      { name: 'ValidationError', message: expect.any(String), fields: [{ message: 'Required', property: 'data' }] },
    ]);

    const missing = await client.fillPDF('noSuchCast', { data: { a: 'b' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.errors?.[0]).toMatchObject({ name: 'NotFoundError' });

    const stranger = new Anvil({ apiKey: 'wrong-key', baseURL: server.base, requestLimit: 40 });
    const denied = await stranger.generatePDF({ data: [{ heading: 'x' }] });
    expect(denied.statusCode).toBe(401);
    expect(denied.errors?.[0]).toMatchObject({ name: 'AuthorizationError', message: 'Invalid API key.' });
  });

  it('accessToken (Bearer, base64) and development keys (watermarked)', async () => {
    const viaToken = new Anvil({ accessToken: TOKEN, baseURL: server.base, requestLimit: 40 });
    pdfBytes(await viaToken.generatePDF({ data: [{ heading: 'Token' }] }));

    const dev = new Anvil({ apiKey: DEV_KEY, baseURL: server.base, requestLimit: 40 });
    const pdf = pdfBytes(await dev.fillPDF(EID, { data: { name: 'Dev user' } }));
    const t = await text(pdf);
    expect(t).toContain(WATERMARK_TEXT);
    expect(t).toContain('Dev user');
  });

  it('stops throttling itself once it has read the rate headers', async () => {
    // With the announced 40 per second, three calls in a row need no waits of a second each.
    // Asserted by the client's own state rather than by timing.
    await client.generatePDF({ data: [{ heading: 'a' }] });
    const c = client as unknown as { hasSetLimiterFromResponse: boolean; limitTokens: number; limitIntervalMs: number };
    expect(c.hasSetLimiterFromResponse).toBe(true);
    expect(c.limitTokens).toBe(40);
    expect(c.limitIntervalMs).toBe(1000);
  });
});
