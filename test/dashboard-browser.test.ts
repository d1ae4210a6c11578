/**
 * The dashboard in a real Chromium against a real castpress server: sign in with an API key, upload a
 * flat PDF, accept the detected fields, draw a signature and a date field with the mouse, edit a field
 * with the keyboard alone, preview a fill drawn by the engine, publish, then fill the published
 * template through the official client and read the values back at their places. A 400 of the server
 * shows under the input it names. axe-core finds no serious or critical violation on any screen, on a
 * desktop and on a phone (390 px, where the editor's panels stack under the pages).
 */
import anvilModule from '@anvilco/anvil';
import type { FastifyInstance } from 'fastify';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { buildApp } from '../src/server/index.js';
import { launchTestBrowser } from './helpers/browser.js';
import { closeBrowser, closeServer } from './helpers/close.js';
import { itemsInRect, joinItems, readText } from './helpers/pdf.js';
import { tempDir } from './helpers/signing.js';
import {
  dragOnPage,
  drawField,
  expectNoAxeViolations,
  makeFlatForm,
  signIn,
  tabTo,
  upload,
  waitSaved,
  working,
} from './helpers/dashboard-page.js';
import { watchPage } from './helpers/signing-page.js';

const Anvil = anvilModule.default;
const KEY = 'prod-acme-key-0123456789';
let app: FastifyInstance;
let server: { base: string };
/** The organization's own page that frames the editor (another origin on the same loopback host). */
let parent: http.Server;
let parentOrigin = '';
let tmp: { dir: string; remove: () => Promise<void> };
let browser: Browser;
let flatPdf: string;

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  tmp = await tempDir('castpress-dashboard-');
  flatPdf = path.join(tmp.dir, 'membership.pdf');
  await makeFlatForm(flatPdf);
  app = await buildApp({
    engine: createEngine({}),
    closeEngine: true,
    config: { keys: [{ key: KEY, kind: 'production', organization: 'acme', label: 'Ada at Acme' }] },
    // Read per request: the parent page's origin is known once it listens.
    organizations: () => ({ name: 'Acme', embedOrigins: [parentOrigin] }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  server = { base: `http://127.0.0.1:${address.port}` };
  parent = http.createServer((req, res) => {
    const src = `${server.base}${new URL(req.url ?? '/', 'http://x').searchParams.get('frame') ?? ''}`;
    res.setHeader('content-type', 'text/html');
    res.end(
      `<!doctype html><title>Parent</title><script>window.messages=[];addEventListener('message',e=>messages.push({origin:e.origin,data:e.data}))</script>` +
        `<iframe src="${src}" width="1200" height="800" title="Template editor"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => parent.listen(0, '127.0.0.1', resolve));
  const parentAddress = parent.address();
  if (typeof parentAddress !== 'object' || !parentAddress) throw new Error('no address');
  parentOrigin = `http://127.0.0.1:${parentAddress.port}`;
  browser = await launchTestBrowser();
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
  await closeServer(parent);
  await app?.close();
  await tmp?.remove();
}, 60_000);

describe('dashboard in a browser', () => {
  it('from a flat PDF to a published template: detect, draw, keyboard edit, preview, publish, fill', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const { errors } = watchPage(page);
    // Failed loads are counted by response below (the signed-out check's 401 is by design, the favicon is none of the app's).
    const failed: string[] = [];
    page.on('response', (r) => {
      const url = new URL(r.url());
      const expected = (r.status() === 401 && url.pathname === '/dashboard/session') || url.pathname === '/favicon.ico';
      if (r.status() >= 400 && !expected) failed.push(`${r.status()} ${url.pathname}`);
    });
    await signIn(page, server.base, KEY);
    await expectNoAxeViolations(page, 'templates');
    const eid = await upload(page, flatPdf, 'Membership');

    const proposals = page.locator('.proposal-box');
    await proposals.first().waitFor();
    const proposed = await proposals.count();
    expect(proposed).toBeGreaterThan(0);
    await expectNoAxeViolations(page, 'editor with proposals');
    await page.getByRole('button', { name: 'Accept all' }).click();
    await expect.poll(() => page.locator('.field-box').count()).toBe(proposed);
    expect(await proposals.count()).toBe(0);

    // The mouse draws two fields; the zoom is 100% on this window, so CSS px are points.
    expect(await page.getByLabel('Zoom').inputValue()).toBe('1');
    const signatureId = await drawField(page, 'signature', [72, 380], [252, 416]);
    const dateId = await drawField(page, 'date', [360, 380], [460, 400]);
    await waitSaved(page);
    let fields = (await working(page, eid)).working.fields;
    const byId = (id: string) => fields.find((f) => f.id === id);
    expect(byId(signatureId)).toMatchObject({ type: 'signature', rect: { x: 72, y: 380, width: 180, height: 36 } });
    expect(byId(dateId)).toMatchObject({ type: 'date', rect: { x: 360, y: 380, width: 100, height: 20 } });

    // The keyboard alone: Tab to the date field, select it, move it, make it wider, give it an alias.
    await page.locator('.pages').focus();
    await tabTo(page, `document.activeElement?.dataset?.fieldId === ${JSON.stringify(dateId)}`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Alt+ArrowRight');
    await tabTo(page, `document.activeElement?.id === 'prop-alias'`);
    await page.keyboard.type('start_date');
    // The exact numbers: the width typed into the properties' form.
    await tabTo(page, `document.activeElement?.id === 'prop-rect-width'`);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('120');
    await page.keyboard.press('Tab');
    await waitSaved(page);
    fields = (await working(page, eid)).working.fields;
    const date = byId(dateId)!;
    expect(date).toMatchObject({ alias: 'start_date', rect: { x: 370, y: 382, width: 120, height: 20 } });
    // Undo by the keyboard takes back the width, then the alias whole (one step for the typing); redo both.
    const now = async () => (await working(page, eid)).working.fields.find((f) => f.id === dateId)!;
    await page.locator('.pages').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(now).toMatchObject({ alias: 'start_date', rect: { width: 101 } });
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await now()).alias).toBeUndefined();
    await page.keyboard.press('Control+Shift+z');
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(now).toMatchObject({ alias: 'start_date', rect: { width: 120 } });

    // The preview: the engine's fill of the working version with the sample data, drawn by pdf.js.
    const sample = JSON.parse(await page.getByLabel(/Sample data/).inputValue()) as Record<string, unknown>;
    expect(sample.start_date).toBe('2024-03-15');
    const response = page.waitForResponse((r) => r.url().endsWith('/preview') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const previewPdf = new Uint8Array(await (await response).body());
    await page.locator('.preview-pages canvas').first().waitFor();
    const [previewPage] = await readText(previewPdf);
    expect(joinItems(itemsInRect(previewPage!, date.rect))).toBe('03/15/2024');

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published: version 1').waitFor();
    await expectNoAxeViolations(page, 'editor after publishing');

    // The published template through the official client: the values at the fields' places.
    const client = new Anvil({ apiKey: KEY, baseURL: server.base });
    const result = await client.fillPDF(eid, { data: { start_date: '2025-01-31' } });
    expect(result.statusCode).toBe(200);
    const [filled] = await readText(new Uint8Array(result.data as Buffer));
    expect(joinItems(itemsInRect(filled!, date.rect))).toBe('01/31/2025');

    // A later edit and the versions page: the diff of version 1 and the working version, drawn.
    await page.locator(`[data-field-id="${dateId}"]`).focus();
    await page.keyboard.press('ArrowUp');
    await waitSaved(page);
    await page.getByRole('link', { name: 'Versions' }).click();
    await page.getByLabel('From').selectOption('1');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByText('0 added, 0 removed, 1 changed.').waitFor();
    expect(await page.locator('.diff-box.diff-changed').getAttribute('aria-label')).toContain('start_date');
    await page.locator('.diff-pages canvas').first().waitFor();
    await expectNoAxeViolations(page, 'versions with a diff');
    expect(failed).toEqual([]);
    expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
    await context.close();
  });

  it('the mouse: band selection, Shift+click, align, move and resize by a handle, copy and paste, undo', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, server.base, KEY);
    const eid = await upload(page, flatPdf, 'Mouse');
    const a = await drawField(page, 'shortText', [100, 100], [200, 120]);
    const b = await drawField(page, 'shortText', [130, 200], [330, 230]);
    const c = await drawField(page, 'checkbox', [400, 300], [414, 314]);
    // A band from empty paper over a and b selects those two, not c.
    await dragOnPage(page, [80, 80], [350, 250]);
    await page.getByRole('heading', { name: '2 fields selected' }).waitFor();
    // Shift+click adds c; align the left edges (the leftmost: a's 100).
    const box = (await page.locator('.page').first().boundingBox())!;
    await page.keyboard.down('Shift');
    await page.mouse.click(box.x + 407, box.y + 307);
    await page.keyboard.up('Shift');
    await page.getByRole('heading', { name: '3 fields selected' }).waitFor();
    await page.getByRole('button', { name: 'Left', exact: true }).click();
    await waitSaved(page);
    const rects = async () => Object.fromEntries((await working(page, eid)).working.fields.map((f) => [f.id, f.rect]));
    expect((await rects())[b]!.x).toBe(100);
    expect((await rects())[c]!.x).toBe(100);
    // A click on a alone selects it; drag it by 20 × 10 px; drag its bottom-right handle by 30 × 5.
    await page.mouse.click(box.x + 150, box.y + 110);
    await page.getByRole('heading', { name: `Short text field ${a}` }).waitFor();
    await dragOnPage(page, [150, 110], [170, 120]);
    await page.locator(`[data-field-id="${a}"] .handle-se`).waitFor();
    const handle = (await page.locator(`[data-field-id="${a}"] .handle-se`).boundingBox())!;
    const hx = handle.x - box.x + handle.width / 2;
    const hy = handle.y - box.y + handle.height / 2;
    await dragOnPage(page, [hx, hy], [hx + 30, hy + 5]);
    await waitSaved(page);
    expect((await rects())[a]).toEqual({ x: 120, y: 110, width: 130, height: 25 });
    // Copy and paste: a copy 10 pt down and right, selected; Ctrl+Z takes it away again.
    await page.locator(`[data-field-id="${a}"]`).focus();
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+v');
    await waitSaved(page);
    const copy = (await working(page, eid)).working.fields.find((f) => ![a, b, c].includes(f.id))!;
    expect(copy.rect).toEqual({ x: 130, y: 120, width: 130, height: 25 });
    await page.keyboard.press('Control+z');
    await waitSaved(page);
    expect((await working(page, eid)).working.fields.map((f) => f.id).sort()).toEqual([a, b, c].sort());
    await context.close();
  });

  it('the templates list: search, rename, duplicate, export and import, delete after a confirmation', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    const page = await context.newPage();
    await signIn(page, server.base, KEY);
    await upload(page, flatPdf, 'Lease');
    await page.getByRole('link', { name: 'Templates', exact: true }).click();
    const rows = page.locator('.template-row');
    await page.getByLabel('Search templates').fill('lease');
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining('Lease')]);
    await page.getByRole('button', { name: 'Rename Lease' }).click();
    await page.getByLabel('New name for Lease').fill('Lease 2026');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('link', { name: 'Lease 2026', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Duplicate Lease 2026', exact: true }).click();
    await page.getByRole('link', { name: 'Lease 2026 (copy)', exact: true }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Lease 2026', exact: true }).click();
    const file = path.join(tmp.dir, 'lease-export.json');
    await (await download).saveAs(file);
    // The export names its template; imported under another name, it is a template of its own.
    const exported = JSON.parse(await readFile(file, 'utf8')) as { name: string; castpressTemplate: number };
    expect(exported).toMatchObject({ castpressTemplate: 1, name: 'Lease 2026' });
    await writeFile(file, JSON.stringify({ ...exported, name: 'Lease imported' }));
    await page.getByLabel('Exported template (JSON)').setInputFiles(file);
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByLabel('Search templates').fill('');
    await page.getByRole('link', { name: 'Lease imported', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete Lease 2026 (copy)', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Lease 2026 (copy)?' });
    await expectNoAxeViolations(page, 'delete confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('link', { name: 'Lease 2026 (copy)', exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Delete Lease 2026 (copy)', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete template' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Lease 2026 (copy)', exact: true }).count()).toBe(0);
    await context.close();
  });

  it('shows the server’s 400 under the input it names, and clears it when fixed', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, server.base, KEY);
    await upload(page, flatPdf, 'Colours');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Text colour').first().fill('red');
    const error = page.locator('#prop-style-colour-error');
    await error.waitFor({ timeout: 20_000 });
    expect(await error.textContent()).toMatch(/hex colour/);
    expect(await page.getByLabel('Text colour').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.save-state').textContent()).toMatch(/Not saved: 1 problem/);
    await expectNoAxeViolations(page, 'editor with a server error');
    await page.getByLabel('Text colour').fill('#112233');
    await waitSaved(page);
    expect(await error.count()).toBe(0);
    await context.close();
  });

  it('framed by the organization’s page: the editor posts saved and published to that origin only', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, server.base, KEY);
    const eid = await upload(page, flatPdf, 'Embedded');
    await page.goto(`${parentOrigin}/?frame=${encodeURIComponent(`/dashboard/templates/${eid}`)}`);
    const frame = page.frameLocator('iframe');
    await frame.getByRole('button', { name: 'Add field' }).click();
    type Posted = { origin: string; data: { type: string; eid: string; versionNumber?: number } };
    const messages = () => page.evaluate(() => (window as unknown as { messages: Posted[] }).messages);
    await expect.poll(async () => (await messages()).map((m) => m.data.type)).toContain('castpress:saved');
    await frame.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(async () => (await messages()).map((m) => m.data.type)).toContain('castpress:published');
    const posted = await messages();
    expect(posted.every((m) => m.origin === server.base && m.data.eid === eid)).toBe(true);
    expect(posted.find((m) => m.data.type === 'castpress:published')?.data.versionNumber).toBe(1);
    await context.close();
  });

  it('on a phone: lists and forms in one column, the editor’s panels under its pages, 24 px targets, no axe violation', async () => {
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await signIn(page, server.base, KEY);
    await expectNoAxeViolations(page, 'templates on a phone');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await upload(page, flatPdf, 'Phone');
    // A checkbox of 14 pt is drawn 7 px wide at the phone's 50%: its button is still 24 px.
    expect(await page.getByLabel('Zoom').inputValue()).toBe('0.5');
    await page.getByLabel('Field type').selectOption('checkbox');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.locator('.field-box').first().waitFor();
    const pages = (await page.locator('.pages').boundingBox())!;
    const side = (await page.locator('aside.side').boundingBox())!;
    expect(side.y).toBeGreaterThanOrEqual(pages.y + pages.height);
    expect(side.x + side.width).toBeLessThanOrEqual(PHONE.width);
    for (const b of await page.locator('.field-box').all()) {
      const r = (await b.boundingBox())!;
      expect(Math.min(r.width, r.height)).toBeGreaterThanOrEqual(24);
    }
    await expectNoAxeViolations(page, 'editor on a phone');
    await page.getByRole('link', { name: 'Versions' }).click();
    await page.getByRole('button', { name: 'Compare' }).waitFor();
    await expectNoAxeViolations(page, 'versions on a phone');
    await context.close();
  });
});
