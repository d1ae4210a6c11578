/**
 * The `title` of a packet file generated from HTML or Markdown is also its page header
 * (the spec), not only the PDF's Title. A tiny PNG logo fetched over http is drawn
 * where it can be seen.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { assemblePacket } from '../src/packets/index.js';
import { httpResolver } from '../src/resources/index.js';
import { openPacketBackend } from '../src/server/graphql/index.js';
import { RenderPool } from '../src/server/pool/render-pool.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';
import { pageText, readText } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';

const engine = createEngine({ now: () => new Date('2026-01-02T03:04:05Z') });

let port = 0;
let hits = 0;
const server = http.createServer((_req, res) => {
  hits++;
  void sharp({ create: { width: 2, height: 2, channels: 3, background: { r: 220, g: 0, b: 0 } } })
    .png()
    .toBuffer()
    .then((png) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    });
});
beforeAll(async () => {
  port = await new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
});
afterAll(async () => {
  server.close();
  await engine.close();
});

const signer = { id: 'client', name: 'Ada Lovelace', email: 'ada@example.com', fields: [] };

describe('the title of a generated packet file is its page header', () => {
  it('HTML (fragment and whole document) and Markdown: the title is the first text of page 1, escaped', async () => {
    const packet = await assemblePacket(engine, {
      name: 'Titles',
      files: [
        {
          id: 'frag',
          filename: 'frag.pdf',
          title: 'Terms & <Conditions>',
          markup: { html: '<p>Body of the terms.</p><p>{{ signature ::: client }}</p>' },
          fields: [],
        },
        {
          id: 'whole',
          filename: 'whole.pdf',
          title: 'Annex B',
          markup: { html: '<!doctype html><html><head></head><body class="x"><p>Annex body.</p></body></html>' },
          fields: [],
        },
        {
          id: 'md',
          filename: 'summary.md',
          title: 'Order summary',
          fields: [{ content: 'Markdown body.' }],
        },
      ],
      signers: [signer],
    });
    const texts = await Promise.all(packet.files.map(async (f) => (await pageText(f.pdf))[0]!.trim()));
    expect(texts[0]!.startsWith('Terms & <Conditions>')).toBe(true);
    expect(texts[0]).toContain('Body of the terms.');
    expect(texts[1]!.startsWith('Annex B')).toBe(true);
    expect(texts[2]!.startsWith('Order summary')).toBe(true);
    expect(packet.files.map((f) => f.title)).toEqual(['Terms & <Conditions>', 'Annex B', 'Order summary']);

    // A header: larger than the body text, above it.
    const [md] = await readText(packet.files[2]!.pdf);
    const title = md!.items.find((i) => i.str.includes('Order summary'))!;
    const body = md!.items.find((i) => i.str.includes('Markdown body.'))!;
    expect(title.height).toBeGreaterThan(body.height);
    expect(title.y).toBeLessThan(body.y);
  }, 180_000);

  it('a blank title draws nothing: the body is the first text', async () => {
    const packet = await assemblePacket(engine, {
      name: 'Blank',
      files: [{ id: 'md', filename: 'a.md', title: '  ', fields: [{ content: 'Only body.' }] }],
      signers: [signer],
    });
    expect((await pageText(packet.files[0]!.pdf))[0]!.trim().startsWith('Only body.')).toBe(true);
  }, 60_000);
});

describe('the server (HTML rendered on the main engine, the rest on threads)', () => {
  it('the signed document of an HTML file starts with its title', async () => {
    const tmp = await tempDir('castpress-packet-title-');
    const pool = new RenderPool({ engine: {}, threads: 1 });
    const backend = await openPacketBackend({
      dataDir: tmp.dir,
      engine,
      baseUrl: 'http://127.0.0.1:1',
      deliver: false,
      threads: pool,
    });
    try {
      const created = await backend.service.createEtchPacket({
        name: 'Server title',
        files: [
          {
            id: 'h',
            filename: 'h.pdf',
            title: 'House rules',
            markup: { html: '<p>No pets.</p><p>{{ signature ::: x }}</p>' },
            fields: [],
          },
        ],
        signers: [{ id: 'x', name: 'X Y', email: 'x@example.com', signerType: 'embedded', fields: [] }],
      });
      const signer = created.documentGroup.signers[0]!;
      const url = await backend.service.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'u-1' });
      await backend.service.submitSigning({ ...tokenOf(url), inputs: { signature: { type: 'typed', text: 'X Y' } } });
      const [doc] = await backend.service.groupDocuments(created.documentGroup.eid);
      const first = (await pageText(doc!.pdf))[0]!.trim();
      expect(first.startsWith('House rules'), first).toBe(true);
      expect(first).toContain('No pets.');
    } finally {
      await backend.close();
      await pool.close();
      await tmp.remove();
    }
  }, 180_000);
});

describe('a tiny custom logo over http', () => {
  it('a 2x2 px PNG logo is drawn large enough to be seen (red ink top right of page 1)', async () => {
    const fetching = createEngine({
      now: () => new Date('2026-01-02T03:04:05Z'),
      resolver: httpResolver({ allowHosts: [`127.0.0.1:${port}`] }),
    });
    try {
      const problems: unknown[] = [];
      const pdf = await fetching.generate(
        { includeTimestamp: false, logo: { src: `http://127.0.0.1:${port}/logo.png` }, data: [{ content: 'x' }] },
        { onResourceProblem: (p) => problems.push(p) },
      );
      expect(hits).toBeGreaterThan(0);
      expect(problems).toEqual([]);
      const [page] = await renderPages(pdf, 1);
      let red = 0;
      for (let i = 0; i < page!.width * page!.height; i++) {
        const [r, g, b] = [page!.rgba[i * 4]!, page!.rgba[i * 4 + 1]!, page!.rgba[i * 4 + 2]!];
        if (r > 150 && g < 80 && b < 80) red++;
      }
      // 24 CSS px = 18 pt: about 18 × 18 device pixels at scale 1; the old 1.5 pt dot gave 2–4.
      expect(red).toBeGreaterThan(200);
    } finally {
      await fetching.close();
    }
  }, 60_000);
});
