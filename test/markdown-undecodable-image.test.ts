/**
 * A Markdown `logo.src` (or content image) that is fetched but cannot be decoded is reported
 * like an image that did not load: the library's
 * `onResourceProblem`, the server's X-Castpress-Resource-Warning header naming `logo.src`, a 400 on
 * `logo.src` with strict resources. A fetched image that decodes reports nothing.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { UNDECODABLE_IMAGE, type ResourceProblem, type ResourceResolver } from '../src/resources/index.js';
import { buildApp, RESOURCE_WARNING_HEADER } from '../src/server/index.js';

const A = 'https://assets.example';
let png: Uint8Array;

/** Serves a real 2×2 PNG, junk bytes under a .png name, and a truncated PNG (checks addresses itself, as httpResolver does). */
const resolver: ResourceResolver = Object.assign(
  async (url: string) => {
    if (url === `${A}/tiny.png`) return { body: png, contentType: 'image/png' };
    if (url === `${A}/junk.png`)
      return { body: new TextEncoder().encode('not an image at all'), contentType: 'image/png' };
    if (url === `${A}/cut.png`) return { body: png.slice(0, 20), contentType: 'image/png' };
    throw new Error('status 404');
  },
  { guardsAddresses: true },
);

let engine: Engine;
beforeAll(async () => {
  png = new Uint8Array(
    await sharp({ create: { width: 2, height: 2, channels: 3, background: '#1985a1' } })
      .png()
      .toBuffer(),
  );
  engine = createEngine({ resolver });
});
afterAll(() => engine.close());

const markdown = (src: string) => ({
  type: 'markdown',
  title: 'Logo',
  logo: { src, maxWidth: 100, maxHeight: 100 },
  data: [{ content: 'Text' }, { content: `![pic](${A}/cut.png)` }],
});

describe('Markdown: fetched images that do not decode are reported', () => {
  it('the library reports logo.src and a content image with the reason; a decodable one reports nothing', async () => {
    const problems: ResourceProblem[] = [];
    await engine.generate(markdown(`${A}/junk.png`), { onResourceProblem: (p) => problems.push(p) });
    expect(problems.map((p) => `${p.kind} ${p.url} ${p.reason}`).sort()).toEqual([
      `image ${A}/cut.png ${UNDECODABLE_IMAGE}`,
      `image ${A}/junk.png ${UNDECODABLE_IMAGE}`,
    ]);
    const none: ResourceProblem[] = [];
    await engine.generate(
      { type: 'markdown', logo: { src: `${A}/tiny.png` }, data: [{ content: 'Text' }] },
      { onResourceProblem: (p) => none.push(p) },
    );
    expect(none).toEqual([]);
  }, 60_000);

  it('the server names logo.src in its warning header; strict resources make it a 400 on logo.src', async () => {
    const app = await buildApp({ engine, logger: false });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/generate-pdf',
        payload: { type: 'markdown', logo: { src: `${A}/junk.png` }, data: [{ content: 'Text' }] },
      });
      expect(res.statusCode).toBe(200);
      expect([res.headers[RESOURCE_WARNING_HEADER.toLowerCase()]].flat()).toEqual([
        `logo.src: image not loaded (${UNDECODABLE_IMAGE})`,
      ]);
    } finally {
      await app.close();
    }
    const strict = await buildApp({
      engine: createEngine({ resolver }),
      closeEngine: true,
      strictResources: true,
      logger: false,
    });
    try {
      const res = await strict.inject({
        method: 'POST',
        url: '/api/v1/generate-pdf',
        payload: { type: 'markdown', logo: { src: `${A}/junk.png` }, data: [{ content: 'Text' }] },
      });
      expect(res.statusCode).toBe(400);
      const fields = (res.json() as { fields: Array<{ property: string; message: string }> }).fields;
      expect(fields.map((f) => f.property)).toEqual(['logo.src']);
    } finally {
      await strict.close();
    }
  }, 60_000);
});
