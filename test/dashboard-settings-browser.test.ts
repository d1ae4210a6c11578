/**
 * The organization's settings page and the editor embedded across sites, in a real Chromium against
 * `castpress serve`'s server started in-process with a `--org` file.
 * - Settings at 390 px: axe-core finds no serious or critical violation and nothing scrolls sideways;
 *   the server's 400 lands on the inputs it names; a saved change (name, colour, logo upload) is on the
 *   next signing page, without a restart.
 * - Embedding: a parent page on another origin (http://localhost:P, the server is http://127.0.0.1:Q:
 *   another site) frames the URL `generateEmbedURL` gave; the frame is signed in to that template only
 *   (no navigation to the rest), edits, and the parent receives `castpress:saved` and
 *   `castpress:published` from the server's origin. The same URL again, and an expired one, open no
 *   session in the frame.
 */
import { createServer, type Server } from 'node:http';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { launchTestBrowser } from './helpers/browser.js';
import { closeBrowser } from './helpers/close.js';
import { DashboardClient, labelledPdf } from './helpers/dashboard.js';
import { expectNoAxeViolations, signIn } from './helpers/dashboard-page.js';
import { Anvil, ok, signaturePacketVariables, signUrlOf } from './helpers/packet-serve.js';
import { tempDir } from './helpers/signing.js';

const KEY = 'prod-acme-settings-browser-0123456789';
const PHONE = { width: 390, height: 844 };
const GENERATE = `mutation GenerateEmbedURL($eid: String!, $type: String!, $validForSeconds: Int) {
  generateEmbedURL(eid: $eid, type: $type, validForSeconds: $validForSeconds) { url expiresAt }
}`;

let tmp: { dir: string; remove: () => Promise<void> };
let server: RunningServer;
let browser: Browser;
let parent: Server;
let parentOrigin = '';
let client: InstanceType<typeof Anvil>;

/** The parent page: frames `?src=` and keeps every message it receives, with its origin. */
const PARENT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parent</title></head>
<body><h1>Our builder</h1><iframe title="Template editor" width="1000" height="700"></iframe>
<script>
  window.received = [];
  addEventListener('message', (e) => window.received.push({ origin: e.origin, data: e.data }));
  document.querySelector('iframe').src = new URLSearchParams(location.search).get('src');
</script></body></html>`;

/** The signing page of a new test packet of acme's, titled with the organization's name. */
async function signingPage(): Promise<string> {
  const variables = signaturePacketVariables('Settings', 'Text.', [
    { id: 'sam', name: 'Sam', email: 'sam@example.com' },
  ]);
  const made = ok(
    await client.createEtchPacket({
      variables: { ...variables, signaturePageOptions: { title: 'For {{organization.name}}' } },
    }),
  ) as { createEtchPacket: { documentGroup: { signers: Array<{ eid: string }> } } };
  const url = await signUrlOf(client, made.createEtchPacket.documentGroup.signers[0]!.eid, 'u-1');
  return (await fetch(url)).text();
}

async function embedUrl(eid: string, validForSeconds = 600): Promise<{ url: string; expiresAt: string }> {
  const r = (await client.requestGraphQL({
    query: GENERATE,
    variables: { eid, type: 'edit-pdf-template', validForSeconds },
  })) as unknown as { data: { data: { generateEmbedURL: { url: string; expiresAt: string } } } };
  return r.data.data.generateEmbedURL;
}

async function fitsThePhone(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

beforeAll(async () => {
  tmp = await tempDir('castpress-dash-settings-browser-');
  parent = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PARENT_PAGE);
  });
  await new Promise<void>((done) => parent.listen(0, '127.0.0.1', done));
  const address = parent.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  // Another site than the server's 127.0.0.1: the browser sends no SameSite=Strict cookie into its frames.
  parentOrigin = `http://localhost:${address.port}`;
  const orgFile = path.join(tmp.dir, 'org.json');
  await writeFile(
    orgFile,
    JSON.stringify({ organizations: { acme: { name: 'Acme One', embedOrigins: [parentOrigin] } } }, null, 2),
  );
  server = await startServer({
    port: 0,
    config: { keys: [{ key: KEY, kind: 'production', organization: 'acme', label: 'Ada at Acme' }] },
    organizations: orgFile,
    packets: { dataDir: path.join(tmp.dir, 'data'), deliver: false },
    renderPool: false,
    fetch: false,
  });
  client = new Anvil({ apiKey: KEY, baseURL: server.url });
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await closeBrowser(browser);
  await server?.close();
  await new Promise((done) => parent?.close(done));
  await tmp?.remove();
}, 60_000);

describe('organization settings in a browser', () => {
  it('at 390 px: read, problems placed on their inputs, saved, and in force on the next signing page; a logo uploaded', async () => {
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await context.newPage();
    try {
      await signIn(page, server.url, KEY);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { level: 1, name: 'Organization settings' }).waitFor();
      const name = page.getByLabel('Name', { exact: true });
      await expect.poll(() => name.inputValue()).toBe('Acme One');
      expect(await page.title()).toContain('Organization settings');
      await fitsThePhone(page);
      await expectNoAxeViolations(page, 'settings at 390 px');

      await name.fill('Acme Two');
      const primary = page.getByLabel('Primary colour');
      await primary.fill('blue');
      const origins = page.getByLabel('Origins that may embed');
      await origins.fill(`${parentOrigin}\nhttps://app.acme.test/path`);
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Not saved: 2 problems to fix.').waitFor();
      expect(await primary.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator(`#${await primary.getAttribute('id')}-error`).innerText()).toContain('hex colour');
      expect(await origins.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator(`#${await origins.getAttribute('id')}-error`).innerText()).toMatch(/^Line 2: /);
      // The first input named has the focus, and the page still fits with its errors shown.
      expect(await primary.evaluate((el) => el === document.activeElement)).toBe(true);
      await fitsThePhone(page);
      await expectNoAxeViolations(page, 'settings with errors at 390 px');
      expect(await signingPage()).toContain('<h1>For Acme One</h1>');

      await primary.fill('#0033aa');
      await origins.fill(parentOrigin);
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByRole('status').filter({ hasText: 'Settings saved' }).waitFor();
      expect(await primary.getAttribute('aria-invalid')).toBe('false');
      const after = await signingPage();
      expect(after).toContain('<h1>For Acme Two</h1>');
      expect(after).toContain('h1{color:#0033aa}');

      const logo = path.join(tmp.dir, 'logo.png');
      await writeFile(
        logo,
        await sharp({ create: { width: 8, height: 4, channels: 3, background: '#ff0000' } })
          .png()
          .toBuffer(),
      );
      await page.getByLabel('Logo image').setInputFiles(logo);
      await page.getByRole('button', { name: 'Upload logo' }).click();
      await page.getByRole('img', { name: "The organization's current logo" }).waitFor();
      expect(await signingPage()).toMatch(/<img[^>]+src="data:image\/png;base64,/);
      await fitsThePhone(page);
      await expectNoAxeViolations(page, 'settings with a logo at 390 px');
    } finally {
      await context.close();
    }
  });
});

describe('the editor embedded across sites', () => {
  it('a parent on another origin frames the embed URL: the frame edits its template and the parent hears saved and published; the URL again, or expired, opens nothing', async () => {
    const owner = new DashboardClient(server.url);
    await owner.signIn(KEY);
    const eid = (
      (await owner.upload(await labelledPdf('Offer letter'), 'offer.pdf', { detect: 'false' })).json as {
        template: { eid: string };
      }
    ).template.eid;
    const link = await embedUrl(eid);

    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${parentOrigin}/?src=${encodeURIComponent(link.url)}`);
      const frame = page.frameLocator('iframe');
      await frame.getByRole('heading', { level: 1, name: 'Edit offer' }).waitFor({ timeout: 30_000 });
      // Limited to the template: none of the dashboard's navigation, no sign-in.
      expect(await frame.getByRole('link', { name: 'Settings' }).count()).toBe(0);
      expect(await frame.getByRole('button', { name: 'Sign out' }).count()).toBe(0);

      await frame.getByRole('button', { name: 'Add field' }).click();
      const received = () =>
        page.evaluate(() => (window as unknown as { received: Array<{ origin: string; data: unknown }> }).received);
      await expect.poll(received, { timeout: 20_000 }).toContainEqual({
        origin: server.url,
        data: { type: 'castpress:saved', eid },
      });
      await frame.getByRole('button', { name: 'Publish' }).click();
      await expect.poll(received, { timeout: 20_000 }).toContainEqual({
        origin: server.url,
        data: { type: 'castpress:published', eid, versionNumber: 1 },
      });
      const saved = (await owner.call('GET', `/dashboard/api/templates/${encodeURIComponent(eid)}`)).json as {
        working: { fields: unknown[] };
        publishedVersion: number;
      };
      expect(saved.working.fields).toHaveLength(1);
      expect(saved.publishedVersion).toBe(1);

      // The same URL in a fresh frame (another browser, no cookie): used, so refused.
      const again = await browser.newContext();
      try {
        const second = await again.newPage();
        await second.goto(`${parentOrigin}/?src=${encodeURIComponent(link.url)}`);
        const body = second.frameLocator('iframe').locator('body');
        await expect.poll(() => body.innerText(), { timeout: 20_000 }).toContain('has been used or has expired');

        const short = await embedUrl(eid, 1);
        // The test waits out the link's own expiry (as the server states it), then opens it.
        while (Date.now() <= Date.parse(short.expiresAt) + 50) await new Promise((r) => setTimeout(r, 100));
        await second.goto(`${parentOrigin}/?src=${encodeURIComponent(short.url)}`);
        await expect.poll(() => body.innerText(), { timeout: 20_000 }).toContain('has been used or has expired');
      } finally {
        await again.close();
      }
    } finally {
      await context.close();
    }
  });
});
