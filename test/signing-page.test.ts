/**
 * The signing page in a real browser (Debian's Chromium through playwright-core): a
 * signer draws with the mouse, consents and signs; the packet moves on, the document
 * carries the mark, the spec's iframe messages reach the parent frame in order, the
 * redirect carries the spec's parameters, and bad links show the error (or redirect).
 */
import path from 'node:path';
import fastify, { type FastifyInstance } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { findChromium } from '../src/html/find-chromium.js';
import { createPacketWorkflow, openSqliteStore, type PacketStore, type PacketWorkflow } from '../src/packets/index.js';
import { signingPageRoutes } from '../src/server/signing-page/index.js';
import { createSigningIdentity } from '../src/signing/index.js';
import { readText } from './helpers/pdf.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

const engine = createEngine({ now: () => new Date('2026-01-05T10:00:00Z') });
let tmp: { dir: string; remove: () => Promise<void> };
let store: PacketStore;
let flow: PacketWorkflow;
let app: FastifyInstance;
let base: string;
let browser: Browser;
/** A second origin that frames the page, as a caller's app would. */
let parent: FastifyInstance;
let parentBase: string;

beforeAll(async () => {
  tmp = await tempDir('castpress-signing-page-');
  store = await openSqliteStore({ dir: path.join(tmp.dir, 'store') });
  app = fastify();
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  await app.close();
  // The base URL must be known before the workflow makes links: listen on a fixed port of a fresh app.
  const port = Number(new URL(base).port);
  flow = createPacketWorkflow({ store, engine, identity: await createSigningIdentity({ dataDir: path.join(tmp.dir, 'id') }), baseUrl: base, deliver: false, mailDir: path.join(tmp.dir, 'mail') });
  app = fastify();
  await app.register(signingPageRoutes, { service: flow.service, organization: 'Acme' });
  app.get('/done', async () => 'redirected');
  await app.listen({ port, host: '127.0.0.1' });
  parent = fastify();
  parent.get('/host', async (req, reply) => {
    const src = String((req.query as Record<string, string>).src);
    return reply.type('text/html').send(`<!doctype html><body><script>window.messages=[];addEventListener('message',e=>{window.messages.push({origin:e.origin,data:e.data})});</script><iframe id="f" style="width:800px;height:900px" src="${src.replace(/"/g, '&quot;')}"></iframe></body>`);
  });
  await parent.listen({ port: 0, host: '127.0.0.1' });
  parentBase = `http://localhost:${(parent.server.address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await parent?.close();
  await flow?.close();
  await store?.close();
  await engine.close();
  await tmp?.remove();
});

const sig = (id: string, y: number) => ({ id, type: 'signature', pageNum: 0, rect: { x: 72, y, width: 220, height: 40 } });

async function newPacket(signers: unknown[]) {
  return flow.service.createEtchPacket({
    name: 'Offer letter',
    signaturePageOptions: { title: 'Sign {{packet.name}} for {{organization.name}}', style: { primaryColor: '#aa3300' } },
    files: [{ id: 'offer', filename: 'offer.pdf', title: 'Offer', fields: [{ content: 'We offer you the job.' }, sig('a', 260), sig('b', 330)] }],
    signers,
  });
}

describe('signing page in Chromium', () => {
  it('draws, consents, signs inside an iframe: signerLoad, signerSign, signerComplete reach the parent; the mark is in the document', async () => {
    const created = await newPacket([
      { id: 'a', name: 'Ada Applicant', email: 'ada@example.com', signerType: 'embedded', fields: [{ fileId: 'offer', fieldId: 'a' }] },
      { id: 'b', name: 'Hiring Manager', email: 'hm@example.com', signerType: 'embedded', fields: [{ fileId: 'offer', fieldId: 'b' }] },
    ]);
    const signer = created.documentGroup.signers[0]!;
    const url = await flow.service.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'u-1' });
    const page = await browser.newPage();
    try {
      await page.goto(`${parentBase}/host?src=${encodeURIComponent(`${url}&withinIframe=true`)}`);
      const frame = page.frameLocator('#f');
      await expect.poll(() => frame.locator('h1').textContent()).toBe('Sign Offer letter for Acme');
      await expect.poll(() => page.evaluate(() => (window as unknown as { messages: Array<{ data: { action: string } }> }).messages.map((m) => m.data.action))).toEqual(['signerLoad']);
      expect(await frame.locator('#submit').isDisabled()).toBe(true);
      const inner = page.frames().find((f) => f.url().startsWith(base))!;
      const box = (await frame.locator('#pad').boundingBox())!;
      await page.mouse.move(box.x + 30, box.y + 100);
      await page.mouse.down();
      for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 30 + i * 25, box.y + 100 - Math.sin(i / 2) * 40, { steps: 2 });
      await page.mouse.up();
      expect(await frame.locator('#submit').isDisabled()).toBe(true); // consent first
      await frame.locator('#consent').check();
      await frame.locator('#submit').click();
      await expect.poll(() => inner.locator('#status').textContent(), { timeout: 30_000 }).toBe('You have signed. Thank you.');
      const messages = await page.evaluate(() => (window as unknown as { messages: Array<{ origin: string; data: Record<string, unknown> }> }).messages);
      expect(messages.map((m) => m.data.action)).toEqual(['signerLoad', 'signerSign', 'signerComplete']);
      expect(messages.every((m) => m.origin === base)).toBe(true);
      expect(messages[2]!.data).toMatchObject({ signerStatus: 'completed', signerEid: signer.eid, documentGroupStatus: 'partial', etchPacketEid: created.eid, nextSignerEid: created.documentGroup.signers[1]!.eid });
    } finally {
      await page.close();
    }
    const after = await flow.service.etchPacket({ eid: created.eid });
    expect(after.status).toBe('partial');
    const [doc] = await flow.service.groupDocuments(after.documentGroup.eid);
    // The drawn mark is vector strokes in a new update: the document grew and still reads.
    expect((await readText(doc!.pdf))[0]!.items.map((i) => i.str).join(' ')).toContain('We offer you the job.');
    expect(doc!.pdf.length).toBeGreaterThan((await store.blobs.get((await store.documents(created.eid))[0]!.assembledHash))!.length);
  }, 120_000);

  it('typed signature mode and a redirectURL: the browser lands on it with the spec\'s parameters', async () => {
    const created = await newPacket([
      { id: 'a', name: 'Ada Applicant', email: 'ada@example.com', signerType: 'embedded', signatureMode: 'text', redirectURL: `${base}/done`, fields: [{ fileId: 'offer', fieldId: 'a' }] },
    ]);
    const signer = created.documentGroup.signers[0]!;
    const url = await flow.service.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'u-2' });
    const page = await browser.newPage();
    try {
      await page.goto(url);
      expect(await page.locator('#typed').inputValue()).toBe('Ada Applicant');
      await page.locator('#consent').check();
      await Promise.all([page.waitForURL(/\/done\?/, { timeout: 30_000 }), page.locator('#submit').click()]);
      const landed = new URL(page.url());
      expect(Object.fromEntries(landed.searchParams)).toMatchObject({
        action: 'signerComplete',
        signerStatus: 'completed',
        signerEid: signer.eid,
        documentGroupStatus: 'completed',
        documentGroupEid: created.documentGroup.eid,
        etchPacketEid: created.eid,
      });
    } finally {
      await page.close();
    }
    expect((await flow.service.etchPacket({ eid: created.eid })).status).toBe('complete');
  }, 120_000);

  it('bad links: another signer\'s token shows the error page; an expired one redirects with signerError tokenExpired', async () => {
    const created = await newPacket([
      { id: 'a', name: 'Ada', email: 'ada@example.com', signerType: 'embedded', redirectURL: `${base}/done`, fields: [{ fileId: 'offer', fieldId: 'a' }] },
      { id: 'b', name: 'Bob', email: 'bob@example.com', signerType: 'embedded', routingOrder: 1, fields: [{ fileId: 'offer', fieldId: 'b' }] },
    ]);
    const [a, b] = created.documentGroup.signers;
    const bUrl = await flow.service.generateEtchSignURL({ signerEid: b!.eid, clientUserId: 'u-b' });
    const page = await browser.newPage();
    try {
      const res = await page.goto(`${base}/sign/${a!.eid}?token=${tokenOf(bUrl).token}`);
      expect(res!.status()).toBe(403);
      expect(await page.locator('h1').textContent()).toBe('Invalid link');
      const aUrl = await flow.service.generateEtchSignURL({ signerEid: a!.eid, clientUserId: 'u-a' });
      await flow.service.expireSignerTokens({ signerEid: a!.eid });
      await page.goto(aUrl);
      const landed = new URL(page.url());
      expect(landed.pathname).toBe('/done');
      expect(Object.fromEntries(landed.searchParams)).toMatchObject({ action: 'signerError', errorType: 'tokenExpired', signerEid: a!.eid, etchPacketEid: created.eid });
    } finally {
      await page.close();
    }
  }, 120_000);
});
