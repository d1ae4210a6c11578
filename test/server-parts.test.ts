/** The server's parts on their own: watermark geometry, the signed-URL store, multipart coercion, keys and auth. */
import { PDFDocument, PDFName, degrees } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { pageText, qpdfCheck } from './helpers/pdf.js';
import { renderPages, type RenderedPage } from './helpers/render.js';
import { AuthorizationError, NotFoundError, PayloadTooLargeError, ValidationError } from '../src/index.js';
import { WATERMARK_TEXT, parseServerConfig, watermarkPdf } from '../src/server/index.js';
import { authenticate } from '../src/server/http/auth.js';
import { KeyRing } from '../src/server/keys.js';
import { bodyFromParts } from '../src/server/http/multipart.js';
import { LinkExpiredError, UrlStore } from '../src/server/replies/url-store.js';

/** Where the stamp's red pixels are, per quadrant of the page as rendered (as the reader sees it). */
function redQuadrants(p: RenderedPage) {
  const q = { topLeft: 0, topRight: 0, bottomLeft: 0, bottomRight: 0 };
  let minX = p.width,
    maxX = 0,
    minY = p.height,
    maxY = 0;
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) {
      const i = (y * p.width + x) * 4;
      const [r, g, b] = [p.rgba[i]!, p.rgba[i + 1]!, p.rgba[i + 2]!];
      if (!(r > 200 && g < 200 && r - g > 40 && r - b > 40)) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      const left = x < p.width / 2;
      const top = y < p.height / 2;
      q[top ? (left ? 'topLeft' : 'topRight') : left ? 'bottomLeft' : 'bottomRight']++;
    }
  }
  return { ...q, box: { minX, maxX, minY, maxY } };
}

describe('watermarkPdf', () => {
  it('stamps every page diagonally, bottom-left to top-right as seen, on rotated pages and over unbalanced content', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]);
    doc.addPage([612, 792]).setRotation(degrees(90));
    const messy = doc.addPage([400, 300]);
    // Content that leaves the graphics state scaled and clipped to a corner: the stamp must not inherit either.
    const stream = doc.context.register(doc.context.stream('0.1 0 0 0.1 0 0 cm 0 0 10 10 re W n'));
    messy.node.set(PDFName.of('Contents'), stream);
    const out = await watermarkPdf(await doc.save());
    await qpdfCheck(out);

    for (const t of await pageText(out)) expect(t).toContain(WATERMARK_TEXT);
    const pages = await renderPages(out, 0.5);
    expect(pages.map((p) => [p.width, p.height])).toEqual([
      [306, 396],
      [396, 306],
      [200, 150],
    ]);
    for (const p of pages) {
      const r = redQuadrants(p);
      // Spans most of the page and is centred.
      expect(r.box.maxX - r.box.minX).toBeGreaterThan(p.width * 0.6);
      expect(Math.abs((r.box.minX + r.box.maxX) / 2 - p.width / 2)).toBeLessThan(p.width * 0.06);
      expect(Math.abs((r.box.minY + r.box.maxY) / 2 - p.height / 2)).toBeLessThan(p.height * 0.06);
      // Rising to the right: the ink is in the bottom-left and top-right quadrants.
      expect(r.bottomLeft + r.topRight).toBeGreaterThan(4 * (r.topLeft + r.bottomRight));
    }
  });

  it('keeps the document (page count, sizes, form fields)', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([300, 200]);
    doc.getForm().createTextField('customer').addToPage(page, { x: 10, y: 10, width: 100, height: 20 });
    const out = await PDFDocument.load(await watermarkPdf(await doc.save()));
    expect(out.getPageCount()).toBe(1);
    expect(out.getPage(0).getSize()).toEqual({ width: 300, height: 200 });
    expect(
      out
        .getForm()
        .getFields()
        .map((f) => f.getName()),
    ).toEqual(['customer']);
  });
});

describe('UrlStore', () => {
  const pdf = (n: number) => new Uint8Array(n).fill(7);

  it('serves until the expiry, then 410; refuses other signatures, ids and expiries with 404', () => {
    let now = 1_000_000;
    const store = new UrlStore({ secret: 'secret-of-this-test', now: () => now });
    const link = store.put(pdf(10));
    expect(link.expires).toBe(now + 5 * 60 * 1000);
    expect(store.get(link.id, String(link.expires), link.signature)).toHaveLength(10);
    expect(() => store.get(link.id, String(link.expires + 1), link.signature)).toThrow(NotFoundError);
    expect(() => store.get('other', String(link.expires), link.signature)).toThrow(NotFoundError);
    // One character changed (a fixed 'A' would be no change when the signature already ends with it).
    const tampered = `${link.signature.slice(0, -1)}${link.signature.endsWith('A') ? 'B' : 'A'}`;
    expect(() => store.get(link.id, String(link.expires), tampered)).toThrow(NotFoundError);
    expect(() => store.get(link.id, undefined, link.signature)).toThrow(NotFoundError);
    expect(() => store.get(link.id, [String(link.expires)], link.signature)).toThrow(NotFoundError);
    // Another server's secret signs differently.
    const other = new UrlStore({ secret: 'another-secret-value', now: () => now });
    expect(() => other.get(link.id, String(link.expires), link.signature)).toThrow(NotFoundError);
    now = link.expires;
    expect(() => store.get(link.id, String(link.expires), link.signature)).toThrow(LinkExpiredError);
    expect(store.size).toBe(0);
  });

  it('sweeps expired entries on write and drops the oldest when over its caps', () => {
    let now = 0;
    const store = new UrlStore({ secret: 's', now: () => now, maxBytes: 100, maxEntries: 3 });
    const a = store.put(pdf(40));
    store.put(pdf(40));
    expect(store.totalBytes).toBe(80);
    store.put(pdf(40)); // 120 > 100: the first goes
    expect(store.size).toBe(2);
    expect(store.totalBytes).toBe(80);
    expect(() => store.get(a.id, String(a.expires), a.signature)).toThrow(NotFoundError);
    now += 5 * 60 * 1000;
    store.put(pdf(1));
    expect(store.size).toBe(1);
    expect(store.totalBytes).toBe(1);
    for (let i = 0; i < 5; i++) store.put(pdf(1));
    expect(store.size).toBe(3);
    expect(() => store.put(pdf(101))).toThrow(PayloadTooLargeError);
  });
});

describe('multipart body', () => {
  const part = (name: string, text: string, json = false) => ({ name, text, json });

  it('parses structured properties and fontSize, keeps other strings and the encrypted data form', () => {
    expect(
      bodyFromParts([
        part('data', '{"a": 1}'),
        part('page', '{"width": "100px"}'),
        part('logo', 'false'),
        part('fontSize', '12'),
        part('title', '{"not": "parsed"}'),
        part('includeTimestamp', 'false'),
      ]),
    ).toEqual({
      data: { a: 1 },
      page: { width: '100px' },
      logo: false,
      fontSize: 12,
      title: '{"not": "parsed"}',
      includeTimestamp: 'false',
    });
    expect(bodyFromParts([part('data', 'base64key==:00ff:abcd')])).toEqual({ data: 'base64key==:00ff:abcd' });
    expect(bodyFromParts([part('title', '"quoted"', true)])).toEqual({ title: 'quoted' });
  });

  it('refuses duplicates and bad JSON with the property, and drops prototype keys', () => {
    expect(() => bodyFromParts([part('title', 'a'), part('title', 'b')])).toThrow(ValidationError);
    expect(() => bodyFromParts([part('data', '[1,')])).toThrow(/data: Must be valid JSON/);
    const body = bodyFromParts([
      part('__proto__', '{"polluted": true}'),
      part('data', '{"__proto__": {"polluted": true}, "a": [{"__proto__": 1, "b": 2}]}'),
    ]);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(body.data).toEqual({ a: [{ b: 2 }] });
    expect(Object.hasOwn(body.data as object, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(body.data)).toBe(Object.prototype);
  });
});

describe('keys and auth', () => {
  const ring = new KeyRing([
    { key: 'dev', kind: 'development' },
    { key: 'prod', kind: 'production', concurrency: 3 },
  ]);
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  it('resolves Basic and Bearer to the key with its kind and limit', () => {
    expect(authenticate(`Basic ${b64('dev:')}`, ring)).toMatchObject({ kind: 'development', concurrency: 2 });
    expect(authenticate(`basic ${b64('prod')}`, ring)).toMatchObject({ kind: 'production', concurrency: 3 });
    expect(authenticate(`Bearer ${b64('prod')}`, ring)).toMatchObject({ kind: 'production' });
    expect(authenticate(`Bearer prod`, ring)).toMatchObject({ kind: 'production' });
    expect(authenticate(undefined, undefined)).toMatchObject({ kind: 'production', id: 'anonymous' });
    for (const bad of [
      undefined,
      '',
      'Basic',
      `Basic ${b64(':dev')}`,
      'Basic !!!',
      `Token ${b64('dev:')}`,
      `Bearer ${b64('prod ')}`,
    ]) {
      expect(() => authenticate(bad, ring), String(bad)).toThrow(AuthorizationError);
    }
  });

  it('reads a config and names the bad property', () => {
    expect(parseServerConfig({ keys: [{ key: 'k', kind: 'development', concurrency: 1 }] }).keys).toHaveLength(1);
    expect(() => parseServerConfig({ keys: [{ key: 'k', kind: 'staging' }] })).toThrow(/keys\.0\.kind/);
    expect(() => parseServerConfig({ keys: [] })).toThrow(/keys/);
    expect(() => parseServerConfig({ keys: [{ key: 'k', kind: 'production' }], signingSecret: 'short' })).toThrow(
      /signingSecret/,
    );
  });
});
