/**
 * The signing page's default flow in a real headless Chromium (Debian's, through
 * playwright-core): the documents drawn by pdf.js served from this server, the signer's
 * boxes at their rects, each signature/initials box accepted in turn ("Next field", the
 * mark dialog), by mouse at desktop width and by keyboard alone at phone width;
 * requireNameOnLoad/requireEmailOnLoad before the documents; the stylesheet allow-list.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBrowser, closeServer } from './helpers/close.js';
import { launchTestBrowser } from './helpers/browser.js';
import { createEngine, type Engine } from '../src/index.js';
import type { PacketBackend } from '../src/server/graphql/index.js';
import { allowedStylesheet } from '../src/server/replies/stylesheet-origin.js';
import { expectScreenshotGolden } from './helpers/golden.js';
import { pdfsig, tempDir, tool } from './helpers/signing.js';
import { drawOn, startSigningServer, watchPage } from './helpers/signing-page.js';
import { basic, PROD_KEY, type TestServer } from './server-setup.js';

let server: TestServer;
let tmp: { dir: string; remove: () => Promise<void> };
let backend: PacketBackend;
let browser: Browser;
/** The documents' engine, its clock pinned: generated pages carry their time in the footer (screenshot goldens). */
let engine: Engine;
/** Another origin serving stylesheets: one is allowed (`signingStylesheetOrigins`), the other is not. */
let cssHost: http.Server;
let cssBase = '';
let otherHost: http.Server;
let otherBase = '';

async function listen(handler: http.RequestListener): Promise<[http.Server, string]> {
  const s = http.createServer(handler);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return [s, `http://127.0.0.1:${(s.address() as AddressInfo).port}`];
}

beforeAll(async () => {
  tmp = await tempDir('castpress-viewer-');
  const css =
    (colour: string): http.RequestListener =>
    (_req, res) => {
      res.setHeader('content-type', 'text/css');
      res.end(`h1{color:${colour}}`);
    };
  [cssHost, cssBase] = await listen(css('rgb(1, 2, 3)'));
  [otherHost, otherBase] = await listen(css('rgb(4, 5, 6)'));
  engine = createEngine({ now: () => new Date('2026-01-02T03:04:05Z') });
  ({ server, backend } = await startSigningServer(tmp.dir, { signingStylesheetOrigins: [cssBase] }, engine));
  browser = await launchTestBrowser();
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
  await server?.close();
  await engine?.close();
  await closeServer(cssHost);
  await closeServer(otherHost);
  await tmp?.remove();
}, 60_000);

const SIG = { x: 72, y: 300, width: 200, height: 40 };
const INI = { x: 320, y: 300, width: 60, height: 40 };

/** Two documents: doc A (signature, initials, date, name on page 1) and doc B (a signature on page 2). */
async function packet(signer: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return backend.service.createEtchPacket({
    name: 'Viewer test',
    ...extra,
    files: [
      {
        id: 'a',
        filename: 'a.pdf',
        title: 'Agreement',
        fields: [
          { content: 'Agreement text.' },
          { id: 'sig', type: 'signature', pageNum: 0, rect: SIG },
          { id: 'ini', type: 'initial', pageNum: 0, rect: INI },
          { id: 'date', type: 'signatureDate', pageNum: 0, rect: { x: 72, y: 360, width: 120, height: 20 } },
          { id: 'who', type: 'fullName', pageNum: 0, rect: { x: 72, y: 390, width: 200, height: 20 } },
        ],
      },
      {
        id: 'b',
        filename: 'b.pdf',
        title: 'Annex',
        markup: { html: '<p>Annex, page one.</p><p class="next">Page two.</p>', css: '.next{break-before:page}' },
        fields: [{ id: 'sig2', type: 'signature', pageNum: 1, rect: { x: 100, y: 500, width: 180, height: 36 } }],
      },
    ],
    signers: [
      {
        id: 's1',
        name: 'Ada Signer',
        email: 'ada@example.com',
        signerType: 'embedded',
        fields: [
          { fileId: 'a', fieldId: 'sig' },
          { fileId: 'a', fieldId: 'ini' },
          { fileId: 'a', fieldId: 'date' },
          { fileId: 'a', fieldId: 'who' },
          { fileId: 'b', fieldId: 'sig2' },
        ],
        ...signer,
      },
    ],
  });
}

async function open(width: number, signer: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const created = await packet(signer, extra);
  const signerEid = created.documentGroup.signers[0]!.eid;
  const url = await backend.service.generateEtchSignURL({ signerEid, clientUserId: 'u' });
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const { requests, errors } = watchPage(page);
  const res = await page.goto(url);
  return { created, signerEid, url, page, requests, errors, res };
}

/** Whether the page's canvas has something drawn that is not white (pdf.js rendered it). */
async function renderedPages(page: Page): Promise<number> {
  return page.$$eval(
    '.page canvas',
    (canvases) =>
      canvases.filter((c) => {
        const cv = c as HTMLCanvasElement;
        if (cv.width === 0) return false;
        const data = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
        for (let i = 0; i < data.length; i += 4) if (data[i]! < 128) return true;
        return false;
      }).length,
  );
}

async function signedPdf(created: { eid: string }, index = 0): Promise<string> {
  const done = await backend.service.etchPacket({ eid: created.eid });
  expect(done.status).toBe('complete');
  const docs = await backend.service.groupDocuments(done.documentGroup.eid);
  const file = path.join(tmp.dir, `${created.eid}-${index}.pdf`);
  await writeFile(file, docs[index]!.pdf);
  return file;
}

describe('signing page: documents in pdf.js, each field accepted', () => {
  it('desktop, mouse: boxes sit at their rects; Next field, the mark dialog once per kind, the last box finishes', async () => {
    const { created, page, requests, errors, res } = await open(1200);
    expect(res?.status()).toBe(200);
    const csp = res!.headers()['content-security-policy']!;
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toMatch(/script-src 'nonce-[^']+';/);
    await page.waitForFunction(() => document.body.classList.contains('loaded'), undefined, { timeout: 30_000 });
    await expect(page.textContent('#progress')).resolves.toBe('0 of 3 fields signed');
    // Three pages (doc A: 1, doc B: 2) in pdf.js; the first two are on screen and drawn.
    expect(await page.locator('.page').count()).toBe(3);
    await page.locator('.page').nth(0).scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('.page.rendered').length >= 1, undefined, {
      timeout: 30_000,
    });
    expect(await renderedPages(page)).toBeGreaterThanOrEqual(1);

    // Each box at its rect: points scaled to the shown page width.
    const geometry = await page.evaluate(() => {
      const first = document.querySelector('.page')!.getBoundingClientRect();
      const at = (sel: string) => {
        const r = document.querySelector(sel)!.getBoundingClientRect();
        return { x: r.left - first.left, y: r.top - first.top, w: r.width, h: r.height };
      };
      return {
        pageWidth: first.width,
        pageHeight: first.height,
        sig: at('[data-field="sig"]'),
        ini: at('[data-field="ini"]'),
        date: at('[data-field="date"]'),
      };
    });
    const k = geometry.pageWidth / 612; // generated pages are US Letter
    expect(geometry.pageHeight / k).toBeCloseTo(792, 0);
    for (const [got, want] of [
      [geometry.sig, SIG],
      [geometry.ini, INI],
    ] as const) {
      expect(Math.abs(got.x - want.x * k)).toBeLessThan(1.5);
      expect(Math.abs(got.y - want.y * k)).toBeLessThan(1.5);
      expect(Math.abs(got.w - want.width * k)).toBeLessThan(1.5);
      expect(Math.abs(got.h - want.height * k)).toBeLessThan(1.5);
    }
    // The date is highlighted but not clicked: a plain box.
    await expect(page.$eval('[data-field="date"]', (e) => e.tagName)).resolves.toBe('DIV');
    await expect(page.isHidden('#finish')).resolves.toBe(true);

    // Next field: the first signature box; clicking it asks for the signature.
    await page.click('#next');
    await expect(page.evaluate(() => (document.activeElement as HTMLElement).dataset.field)).resolves.toBe('sig');
    await page.click('[data-field="sig"]');
    await expect(page.isVisible('#adopt')).resolves.toBe(true);
    await expect(page.textContent('#adopt-h')).resolves.toBe('Your signature');
    // Escape cancels: the box stays unsigned and can be pressed again.
    await page.keyboard.press('Escape');
    await expect(page.isVisible('#adopt')).resolves.toBe(false);
    await expect(page.locator('[data-field="sig"].accepted').count()).resolves.toBe(0);
    await page.click('[data-field="sig"]');
    await expect(page.isVisible('#adopt')).resolves.toBe(true);
    await page.click('#adopt-ok'); // nothing drawn
    await expect(page.textContent('#adopt-error')).resolves.toMatch(/draw/i);
    await drawOn(page, '#pad');
    await page.click('#adopt-ok');
    await expect(page.locator('[data-field="sig"].accepted img').count()).resolves.toBe(1);
    await expect(page.textContent('#progress')).resolves.toBe('1 of 3 fields signed');

    // Initials: their own dialog, typed.
    await page.click('#next');
    await expect(page.evaluate(() => (document.activeElement as HTMLElement).dataset.field)).resolves.toBe('ini');
    await page.keyboard.press('Enter');
    await expect(page.textContent('#adopt-h')).resolves.toBe('Your initials');
    await page.click('#use-typed');
    await expect(page.inputValue('#typed')).resolves.toBe('AS');
    await page.click('#adopt-ok');
    await expect(page.textContent('[data-field="ini"]')).resolves.toBe('AS');

    // The last box (doc B, page 2) reuses the signature: no dialog, and signing ends with it.
    await page.click('#next');
    await expect(page.evaluate(() => (document.activeElement as HTMLElement).dataset.field)).resolves.toBe('sig2');
    await page.click('[data-field="sig2"]');
    expect(await page.isVisible('#adopt')).toBe(false);
    await page.waitForFunction(() => document.getElementById('status')!.className === 'done', undefined, {
      timeout: 30_000,
    });
    // The finish button stays as the record of the outcome, with the default completedButtonText.
    await expect(page.textContent('#finish')).resolves.toBe('Signed');
    await expect(page.isDisabled('#finish')).resolves.toBe(true);
    expect(await renderedPages(page)).toBe(3);
    expect(errors, errors.join('\n')).toEqual([]);
    // Everything came from this server: page, pdf.js, its worker, the documents.
    expect(
      requests.every((r) => r.startsWith(server.base) || r.startsWith('data:')),
      requests.join('\n'),
    ).toBe(true);
    expect(requests.some((r) => r.endsWith('/sign/assets/pdf.mjs'))).toBe(true);
    expect(requests.some((r) => r.endsWith('/sign/assets/pdf.worker.mjs'))).toBe(true);
    await page.close();

    const report = await pdfsig(await signedPdf(created, 0));
    expect(report.signatures.at(-1)?.valid, report.text).toBe(true);
    expect(report.signatures.at(-1)?.total, report.text).toBe(true);
  }, 120_000);

  it('phone width (390 px), keyboard only, showFinishSigningButton and typed marks', async () => {
    const { created, page, errors } = await open(390, { showFinishSigningButton: true, signatureMode: 'text' });
    await page.waitForFunction(() => document.body.classList.contains('loaded'), undefined, { timeout: 30_000 });
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const pageBox = (await page.locator('.page').first().boundingBox())!;
    expect(pageBox.width).toBeGreaterThan(300);
    expect(pageBox.x + pageBox.width).toBeLessThanOrEqual(390);
    await expect(page.isVisible('#finish')).resolves.toBe(true);
    await expect(page.isDisabled('#finish')).resolves.toBe(true);

    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return el.id || el.dataset.field || el.outerHTML.slice(0, 80);
      });
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('next');
    await page.keyboard.press('Enter'); // Next field
    expect(await focused()).toBe('sig');
    await page.keyboard.press('Enter'); // the dialog, typed mode: the name is there
    expect(await focused()).toBe('typed');
    await expect(page.inputValue('#typed')).resolves.toBe('Ada Signer');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('adopt-ok');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('sig');
    await page.keyboard.press('Tab'); // the next box in the page order
    expect(await focused()).toBe('ini');
    await page.keyboard.press('Enter');
    await expect(page.inputValue('#typed')).resolves.toBe('AS');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('sig2');
    await page.keyboard.press('Enter');
    // All accepted: Finish is enabled and focused; nothing is sent before it.
    expect(await focused()).toBe('finish');
    expect((await backend.service.etchPacket({ eid: created.eid })).status).toBe('sent');
    await page.keyboard.press('Enter'); // the review of every mark; its Confirm has the focus
    expect(await focused()).toBe('confirm-ok');
    expect((await backend.service.etchPacket({ eid: created.eid })).status).toBe('sent');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('status')!.className === 'done', undefined, {
      timeout: 30_000,
    });
    expect(errors, errors.join('\n')).toEqual([]);
    await page.close();
    const report = await pdfsig(await signedPdf(created, 1));
    expect(report.signatures.at(-1)?.valid, report.text).toBe(true);
  }, 120_000);

  it('assets: pdf.js, its data files and the page fonts by name from the installed packages; nothing else', async () => {
    // Bodies are always read: an unread large body keeps the server's socket busy and its close waiting.
    const get = async (p: string) => {
      const res = await fetch(`${server.base}/sign/assets/${p}`);
      const body = new Uint8Array(await res.arrayBuffer());
      return { status: res.status, headers: res.headers, body, text: () => new TextDecoder().decode(body) };
    };
    const mod = await get('pdf.mjs');
    expect(mod.status).toBe(200);
    expect(mod.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(mod.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('pdf.worker.mjs')).status).toBe(200);
    const font = await get('standard_fonts/LiberationSans-Regular.ttf');
    expect(font.status).toBe(200);
    expect(font.body.byteLength).toBeGreaterThan(1000);
    expect((await get('fonts/NotoSans-Regular.ttf')).headers.get('content-type')).toBe('font/ttf');
    for (const bad of [
      '../package.json',
      '..%2Fpackage.json',
      'standard_fonts/..%2F..%2Fpackage.json',
      'build/pdf.mjs',
      'fonts/OFL.txt',
      'wasm/LICENSE_OPENJPEG',
      '',
    ]) {
      // fetch folds a plain `../` itself (the URL then names another route); none of them is a file.
      const res = await get(bad);
      expect(res.status, bad).toBeGreaterThanOrEqual(400);
      expect(res.text(), bad).not.toMatch(/pdfjs-dist|castpress"|Copyright/);
    }
  });

  it("a refused finish (the link expired meanwhile) says why, in the packet's error text, and offers Finish to try again", async () => {
    const { signerEid, page } = await open(
      1000,
      { signatureMode: 'text' },
      { signaturePageOptions: { error: 'Sorry {{signer.name}}:', completedButtonText: 'All done' } },
    );
    await page.waitForFunction(() => document.body.classList.contains('loaded'), undefined, { timeout: 30_000 });
    await page.click('[data-field="sig"]');
    await page.click('#adopt-ok');
    await page.click('[data-field="ini"]');
    await page.click('#adopt-ok');
    await backend.service.expireSignerTokens({ signerEid });
    await page.click('[data-field="sig2"]');
    await page.waitForFunction(
      () => /^Sorry .+: /.test(document.getElementById('status')!.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    await expect(page.textContent('#finish')).resolves.not.toBe('All done');
    await expect(page.getAttribute('#status', 'class')).resolves.toBe('error');
    await expect(page.isVisible('#finish')).resolves.toBe(true);
    await expect(page.isEnabled('#finish')).resolves.toBe(true);
    await page.close();
  }, 60_000);

  it("the service refuses a submission that skipped a box (or names one not the signer's)", async () => {
    const created = await packet();
    const signerEid = created.documentGroup.signers[0]!.eid;
    const url = new URL(await backend.service.generateEtchSignURL({ signerEid, clientUserId: 'u' }));
    const token = url.searchParams.get('token')!;
    const submit = (accepted: unknown) =>
      fetch(`${server.base}/sign/${signerEid}/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, signature: { type: 'typed', text: 'Ada' }, accepted }),
      });
    for (const accepted of [
      undefined,
      [
        { document: 0, fieldId: 'sig' },
        { document: 0, fieldId: 'ini' },
      ],
      [
        { document: 0, fieldId: 'sig' },
        { document: 0, fieldId: 'ini' },
        { document: 1, fieldId: 'sig2' },
        { document: 0, fieldId: 'date' },
      ],
    ]) {
      const res = await submit(accepted);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { event: { message: string } }).event.message).toMatch(/accepted|not one of/);
    }
    expect((await backend.service.etchPacket({ eid: created.eid })).status).toBe('sent');
    const ok = await submit([
      { document: 0, fieldId: 'sig' },
      { document: 0, fieldId: 'ini' },
      { document: 1, fieldId: 'sig2' },
    ]);
    expect(ok.status).toBe(200);
  }, 60_000);

  it('acceptEachField false, or signBeforeReviewing: the document list with one signature and Finish', async () => {
    for (const signer of [{ acceptEachField: false }, { signatureExperience: 'signBeforeReviewing' }]) {
      const { page } = await open(1000, signer);
      expect(await page.locator('#docs').count()).toBe(0);
      expect(await page.locator('ul a').count()).toBe(2);
      expect(await page.locator('#initials').count()).toBe(1);
      await page.close();
    }
  }, 60_000);

  it('requireNameOnLoad / requireEmailOnLoad: asked before the documents; the signed PDF and certificate carry what was entered', async () => {
    const { created, signerEid, page, errors } = await open(1000, {
      requireNameOnLoad: true,
      requireEmailOnLoad: true,
      showFinishSigningButton: true,
    });
    await expect(page.isVisible('#onload')).resolves.toBe(true);
    await expect(page.isHidden('#review')).resolves.toBe(true);
    // Required: Escape does not dismiss it, and nothing is signed before it is answered.
    await page.keyboard.press('Escape');
    await expect(page.isVisible('#onload')).resolves.toBe(true);
    const token = new URL(page.url()).searchParams.get('token')!;
    const early = await fetch(`${server.base}/sign/${signerEid}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token,
        signature: { type: 'typed', text: 'x' },
        accepted: [
          { document: 0, fieldId: 'sig' },
          { document: 0, fieldId: 'ini' },
          { document: 1, fieldId: 'sig2' },
        ],
      }),
    });
    expect(early.status).toBe(400);
    expect(((await early.json()) as { event: { message: string } }).event.message).toMatch(/name/);
    await page.click('#onload-ok');
    await expect(page.textContent('#onload-error')).resolves.toMatch(/every field/);
    await page.fill('#onload-name', 'Grace Brewster Hopper');
    await page.fill('#onload-email', 'grace@example.org');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.body.classList.contains('loaded'), undefined, { timeout: 30_000 });
    await expect(page.textContent('.signer-name')).resolves.toBe('Grace Brewster Hopper');
    const after = await backend.service.etchPacket({ eid: created.eid });
    expect(after.documentGroup.signers[0]).toMatchObject({ name: 'Grace Brewster Hopper', email: 'grace@example.org' });
    // The typed signature starts from the entered name.
    await page.click('[data-field="sig"]');
    await page.click('#use-typed');
    await expect(page.inputValue('#typed')).resolves.toBe('Grace Brewster Hopper');
    await page.click('#adopt-ok');
    await page.click('[data-field="ini"]');
    await page.click('#use-typed');
    await expect(page.inputValue('#typed')).resolves.toBe('GBH');
    await page.click('#adopt-ok');
    await page.click('[data-field="sig2"]');
    await page.click('#finish');
    await page.click('#confirm-ok');
    await page.waitForFunction(() => document.getElementById('status')!.className === 'done', undefined, {
      timeout: 30_000,
    });
    expect(errors, errors.join('\n')).toEqual([]);
    await page.close();
    const text = (await tool('pdftotext', ['-layout', await signedPdf(created, 0), '-'])).stdout;
    // The fullName field on the page and the certificate of completion both name her.
    expect(text.split('Grace Brewster Hopper').length - 1, text).toBeGreaterThanOrEqual(2);
    expect(text).toContain('grace@example.org');
    expect(text).not.toContain('Ada Signer');
  }, 120_000);

  it('screenshots at desktop and phone width match their goldens (bundled fonts, pinned clock, pdf.js pages drawn)', async () => {
    for (const [name, width] of [
      ['desktop', 1200],
      ['phone', 390],
    ] as const) {
      const created = await packet();
      const url = await backend.service.generateEtchSignURL({
        signerEid: created.documentGroup.signers[0]!.eid,
        clientUserId: 'shot',
      });
      const page = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
      await page.clock.setFixedTime(new Date('2026-01-02T03:04:05Z'));
      await page.goto(url);
      await page.waitForFunction(() => document.body.classList.contains('loaded'), undefined, { timeout: 30_000 });
      // Every page that reaches into the screen is drawn, and the bundled faces are in use.
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll('.page')).every(
            (p) => p.getBoundingClientRect().top >= innerHeight || p.classList.contains('rendered'),
          ) &&
          document.fonts.check('16px "castpress sans"') &&
          document.fonts.status === 'loaded',
        undefined,
        { timeout: 30_000 },
      );
      await expectScreenshotGolden('signing-page', name, await page.screenshot());
      await page.close();
    }
  }, 120_000);

  it('description is Markdown: emphasis and links rendered, raw HTML shown as text, no images, no script links', async () => {
    const { page, requests } = await open(
      1000,
      {},
      {
        signaturePageOptions: {
          description:
            'Hello **{{signer.name}}**, read [the terms](https://terms.example/t) and [this](javascript:alert(1)). <img src=x onerror=alert(2)> ![p](https://pixel.example/p.png)',
        },
      },
    );
    await expect(page.textContent('#description strong')).resolves.toBe('Ada Signer');
    const links = await page.$$eval('#description a', (as) =>
      as.map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]),
    );
    // The javascript: link stays text; the image is only a link (nothing is loaded from it).
    expect(links).toEqual([
      ['https://terms.example/t', '_blank', 'noopener noreferrer'],
      ['https://pixel.example/p.png', '_blank', 'noopener noreferrer'],
    ]);
    await expect(page.textContent('#description')).resolves.toContain('<img src=x onerror=alert(2)>');
    expect(await page.locator('#description img').count()).toBe(0);
    expect(requests.some((r) => r.includes('pixel.example'))).toBe(false);
    await page.close();
  }, 60_000);

  it('a name the description quotes is text (a signer may type their own): no link, no emphasis', async () => {
    const name = 'Mallory [Pay here](https://evil.example/pay) *now* <b>x</b>';
    const { page } = await open(1000, { name }, { signaturePageOptions: { description: 'Hello {{signer.name}}.' } });
    expect(await page.locator('#description a').count()).toBe(0);
    expect(await page.locator('#description em').count()).toBe(0);
    await expect(page.textContent('#description')).resolves.toContain(`Hello ${name}.`);
    await page.close();
  }, 60_000);

  it('stylesheetURL: loaded from an allowed origin (and allowed by the CSP); left out from any other', async () => {
    const allowed = await open(
      1000,
      {},
      { signaturePageOptions: { style: { stylesheetURL: `${cssBase}/brand.css` } } },
    );
    expect(allowed.res!.headers()['content-security-policy']).toContain(`style-src 'nonce-`);
    expect(allowed.res!.headers()['content-security-policy']).toContain(cssBase);
    await allowed.page.waitForFunction(
      () => getComputedStyle(document.querySelector('h1')!).color === 'rgb(1, 2, 3)',
      undefined,
      { timeout: 10_000 },
    );
    await allowed.page.close();

    const other = await open(
      1000,
      {},
      { signaturePageOptions: { style: { stylesheetURL: `${otherBase}/brand.css` } } },
    );
    expect(other.res!.headers()['content-security-policy']).not.toContain(otherBase);
    expect(await other.page.locator('link[rel=stylesheet]').count()).toBe(0);
    expect(other.requests.some((r) => r.startsWith(otherBase))).toBe(false);
    await other.page.close();

    // Over GraphQL a stylesheet the page would leave out is refused when the packet is made.
    const create = (stylesheetURL: string) =>
      fetch(`${server.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic(PROD_KEY) },
        body: JSON.stringify({
          query:
            'mutation($files: [EtchFile!], $signers: [JSON!], $o: JSON){ createEtchPacket(name: "CSS", files: $files, signers: $signers, signaturePageOptions: $o){ eid } }',
          variables: {
            files: [
              {
                id: 'a',
                filename: 'a.pdf',
                title: 'A',
                fields: [{ content: 'x' }, { id: 's', type: 'signature', pageNum: 0, rect: SIG }],
              },
            ],
            signers: [
              {
                id: 'x',
                name: 'X Y',
                email: 'x@example.com',
                signerType: 'embedded',
                fields: [{ fileId: 'a', fieldId: 's' }],
              },
            ],
            o: { style: { stylesheetURL } },
          },
        }),
      });
    const refused = await create(`${otherBase}/brand.css`);
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as {
      errors: Array<{ message: string; extensions: { fields: Array<{ property: string }> } }>;
    };
    expect(body.errors[0]!.extensions.fields[0]!.property).toBe('signaturePageOptions.style.stylesheetURL');
    expect(body.errors[0]!.message).toMatch(/--stylesheet-origin/);
    expect((await create(`${cssBase}/brand.css`)).status).toBe(200);
    expect((await create(`${server.base}/brand.css`)).status).toBe(200);

    // Same origin as the page is allowed without configuration; other schemes and credentials never.
    expect(allowedStylesheet('/brand.css', 'https://sign.example', [])).toBe('https://sign.example/brand.css');
    expect(allowedStylesheet('https://sign.example/x.css', 'https://sign.example', [])).toBe(
      'https://sign.example/x.css',
    );
    expect(allowedStylesheet('https://cdn.example/x.css', 'https://sign.example', [])).toBeUndefined();
    expect(allowedStylesheet('https://cdn.example/x.css', 'https://sign.example', ['https://cdn.example'])).toBe(
      'https://cdn.example/x.css',
    );
    expect(
      allowedStylesheet('https://u:p@cdn.example/x.css', 'https://sign.example', ['https://cdn.example']),
    ).toBeUndefined();
    expect(allowedStylesheet('javascript:alert(1)', 'https://sign.example', [])).toBeUndefined();
  }, 60_000);
});
