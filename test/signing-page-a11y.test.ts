/**
 * The signing page's accessibility and flow in a real Chromium. On a phone (390 × 844, touch): every
 * signature and initials box is a touch target of at least 24 × 24 CSS px (WCAG 2.2) while the drawn
 * box keeps its rect, axe-core finds no serious or critical violation before or after signing, and
 * the box "Next field" brings up is on screen at a readable scale, not under the sticky progress bar. The mark dialog:
 * its "Please draw" goes once something is drawn, Enter adopts a typed mark. The dark colour scheme:
 * dark grounds, and axe's contrast still holds (with the organization's colours too). The built-in
 * texts in the browser's language; the packet's own texts win. The review of every mark before the
 * final submit.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PacketBackend } from '../src/server/graphql/index.js';
import { axeViolations } from './helpers/axe.js';
import { launchTestBrowser } from './helpers/browser.js';
import { closeBrowser } from './helpers/close.js';
import { tempDir } from './helpers/signing.js';
import { drawOn, startSigningServer, watchPage } from './helpers/signing-page.js';
import type { TestServer } from './server-setup.js';

let server: TestServer;
let tmp: { dir: string; remove: () => Promise<void> };
let backend: PacketBackend;
let browser: Browser;

beforeAll(async () => {
  tmp = await tempDir('castpress-phone-');
  ({ server, backend } = await startSigningServer(tmp.dir));
  browser = await launchTestBrowser();
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
  await server?.close();
  await tmp?.remove();
}, 60_000);

/** The phone's window in CSS px: the page's boxes must stay inside it (positions, not time). */
const PHONE = { width: 390, height: 844 };

/** Boxes as small as forms have them: at 390 px they are drawn about 47 × 7 px. */
const SIG = { x: 72, y: 600, width: 80, height: 12 };
const INI = { x: 300, y: 600, width: 60, height: 12 };

async function open(page: Page, signer: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const created = await backend.service.createEtchPacket({
    name: 'Phone test',
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
        ],
      },
    ],
    signers: [
      {
        id: 's1',
        name: 'Ada Signer',
        email: 'ada@example.com',
        signerType: 'embedded',
        showFinishSigningButton: true,
        signatureMode: 'text',
        fields: [
          { fileId: 'a', fieldId: 'sig' },
          { fileId: 'a', fieldId: 'ini' },
        ],
        ...signer,
      },
    ],
  });
  const signerEid = created.documentGroup.signers[0]!.eid;
  await page.goto(await backend.service.generateEtchSignURL({ signerEid, clientUserId: 'u' }));
  await page.waitForFunction(() => document.body.classList.contains('loaded'), undefined, { timeout: 30_000 });
  return created;
}

/** Each box's hit area (the button) and the box drawn at the field's rect (its `.mark`, else the button). */
function measure(page: Page) {
  return page.$$eval('button.box', (els) =>
    els.map((el) => {
      const hit = el.getBoundingClientRect();
      const drawn = (el.querySelector('.mark') ?? el).getBoundingClientRect();
      const pageWidth = el.closest('.page')!.getBoundingClientRect().width;
      return {
        field: (el as HTMLElement).dataset.field,
        hit,
        drawn: { width: drawn.width, height: drawn.height },
        pageWidth,
      };
    }),
  );
}

describe('signing page on a phone', () => {
  it('touch targets of 24 × 24 px, no serious axe violation before and after signing, the next box on screen', async () => {
    const context = await browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    const page = await context.newPage();
    const { errors } = watchPage(page);
    await open(page);

    const boxes = await measure(page);
    expect(boxes.map((b) => b.field)).toEqual(['sig', 'ini']);
    for (const b of boxes) {
      expect(b.hit.width, b.field).toBeGreaterThanOrEqual(24);
      expect(b.hit.height, b.field).toBeGreaterThanOrEqual(24);
      // The drawn box is still the field's rect (a US Letter page is 612 pt wide).
      const rect = b.field === 'sig' ? SIG : INI;
      expect(b.drawn.width).toBeCloseTo((rect.width * b.pageWidth) / 612, 0);
      expect(b.drawn.height).toBeCloseTo((rect.height * b.pageWidth) / 612, 0);
      expect(b.drawn.height).toBeLessThan(10);
    }
    expect(await axeViolations(page)).toEqual([]);

    // "Next field" brings the box up where it can be seen: inside the window and not under the sticky bar.
    await page.tap('#next');
    const visible = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const r = el.getBoundingClientRect();
      const bar = document.getElementById('bar')!.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { field: el.dataset.field, top: r.top, bottom: r.bottom, barBottom: bar.bottom, onTop: el.contains(hit) };
    });
    expect(visible.field).toBe('sig');
    expect(visible.top).toBeGreaterThanOrEqual(visible.barBottom);
    expect(visible.bottom).toBeLessThanOrEqual(PHONE.height);
    expect(visible.onTop).toBe(true);
    // At a readable scale: the page is widened for this small box (its document scrolls sideways, the
    // window does not), the box drawn at least 16 px high and wholly on screen.
    const zoomed = await page.evaluate(() => {
      const r = (
        document.querySelector('[data-field=sig] .mark') ?? document.querySelector('[data-field=sig]')!
      ).getBoundingClientRect();
      return { left: r.left, right: r.right, height: r.height, scrollWidth: document.documentElement.scrollWidth };
    });
    expect(zoomed.height).toBeGreaterThanOrEqual(16);
    expect(zoomed.left).toBeGreaterThanOrEqual(0);
    expect(zoomed.right).toBeLessThanOrEqual(PHONE.width);
    expect(zoomed.scrollWidth).toBeLessThanOrEqual(PHONE.width);

    // Signing by touch (typed marks): both boxes, then axe again (the boxes' names and contents changed).
    await page.tap('[data-field=sig]');
    await page.tap('#adopt-ok');
    await page.tap('[data-field=ini]');
    await page.tap('#adopt-ok');
    await page.waitForFunction(() => !(document.getElementById('finish') as HTMLButtonElement).disabled);
    expect(await page.locator('.box.accepted').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors, errors.join('\n')).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('the mark dialog', () => {
  it('"Please draw" goes once something is drawn; Enter in the typed field adopts it', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    const { errors } = watchPage(page);
    await open(page, { signatureMode: 'draw' });
    await page.click('[data-field=sig]');
    await page.click('#adopt-ok');
    await expect(page.textContent('#adopt-error')).resolves.toMatch(/Please draw/);
    await drawOn(page, '#pad');
    await expect(page.textContent('#adopt-error')).resolves.toBe('');

    await page.click('#clear');
    await page.click('#use-typed');
    await page.fill('#typed', '');
    await page.click('#adopt-ok');
    await expect(page.textContent('#adopt-error')).resolves.toMatch(/Please type/);
    await page.fill('#typed', 'Ada Signer');
    await expect(page.textContent('#adopt-error')).resolves.toBe('');
    await page.press('#typed', 'Enter');
    await expect(page.isVisible('#adopt')).resolves.toBe(false);
    await expect(page.getAttribute('[data-field=sig]', 'class')).resolves.toContain('accepted');
    await expect(page.textContent('[data-field=sig]')).resolves.toBe('Ada Signer');
    expect(errors, errors.join('\n')).toEqual([]);
    await page.close();
  }, 120_000);
});

describe('dark colour scheme', () => {
  it('prefers-color-scheme: dark gives dark grounds; no serious axe violation, the mark dialog open or not', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 900 }, colorScheme: 'dark' });
    const page = await context.newPage();
    const { errors } = watchPage(page);
    // A packet colour made for white grounds: the dark scheme must not put it on a dark one as text.
    await open(page, {}, { signaturePageOptions: { style: { primaryColor: '#003366', linkColor: '#003366' } } });
    const grounds = await page.evaluate(() =>
      ['body', '#bar', '#review'].map((s) => getComputedStyle(document.querySelector(s)!).backgroundColor),
    );
    // Dark: every channel of each ground below 64.
    for (const g of grounds) for (const c of g.match(/\d+/g)!.slice(0, 3)) expect(Number(c), g).toBeLessThan(64);
    expect(await axeViolations(page)).toEqual([]);
    await page.click('[data-field=sig]');
    await expect(page.isVisible('#adopt')).resolves.toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors, errors.join('\n')).toEqual([]);
    await context.close();
  }, 120_000);
});

describe("the browser's language", () => {
  it('German and Japanese built-in texts by navigator.languages; signaturePageOptions texts win', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 900 }, locale: 'de-DE' });
    const page = await context.newPage();
    const { errors } = watchPage(page);
    await open(page, { signatureMode: 'draw' }, { signaturePageOptions: { drawInitialsTitle: 'Paraphe hier' } });
    await expect(page.textContent('#next')).resolves.toBe('Nächstes Feld');
    await expect(page.textContent('#progress')).resolves.toBe('0 von 2 Feldern unterschrieben');
    await expect(page.textContent('[data-field=sig]')).resolves.toBe('Unterschrift');
    await expect(page.getAttribute('html', 'lang')).resolves.toBe('de');
    await page.click('[data-field=sig]');
    await expect(page.textContent('#adopt-h')).resolves.toBe('Ihre Unterschrift');
    await page.click('#adopt-ok');
    await expect(page.textContent('#adopt-error')).resolves.toBe('Bitte zeichnen oder „Stattdessen tippen“ wählen.');
    await drawOn(page, '#pad');
    await page.click('#adopt-ok');
    await page.click('[data-field=ini]');
    await expect(page.textContent('#adopt-h')).resolves.toBe('Paraphe hier');
    await expect(page.textContent('#adopt-ok')).resolves.toBe('Übernehmen und abzeichnen');
    await page.click('#adopt-cancel');
    await expect(page.textContent('#confirm-h')).resolves.toBe('Ihre Zeichen prüfen');
    await expect(page.textContent('#confirm-ok')).resolves.toBe('Unterzeichnung abschließen');
    expect(errors, errors.join('\n')).toEqual([]);
    await context.close();

    const ja = await browser.newContext({ viewport: { width: 900, height: 900 }, locale: 'ja-JP' });
    const jaPage = await ja.newPage();
    await open(jaPage);
    await expect(jaPage.textContent('#next')).resolves.toBe('次の欄へ');
    await expect(jaPage.textContent('#docs-h')).resolves.toBe('確認して署名');
    await ja.close();
  }, 120_000);
});

describe('the review before the final submit', () => {
  it('Finish lists every mark with its page; Back signs nothing; Confirm signs', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    const { errors } = watchPage(page);
    const created = await open(page);
    await page.click('[data-field=sig]');
    await page.click('#adopt-ok');
    await page.click('[data-field=ini]');
    await page.click('#adopt-ok');
    await page.click('#finish');
    await expect(page.isVisible('#confirm')).resolves.toBe(true);
    const items = await page.$$eval('#confirm-list li', (lis) => lis.map((li) => li.textContent));
    expect(items).toEqual(['Signature 1, Agreement page 1Ada Signer', 'Initials 2, Agreement page 1AS']);
    expect(await axeViolations(page)).toEqual([]);
    await page.click('#confirm-back');
    await expect(page.isVisible('#confirm')).resolves.toBe(false);
    expect((await backend.service.etchPacket({ eid: created.eid })).status).toBe('sent');
    await page.click('#finish');
    await page.click('#confirm-ok');
    await page.waitForFunction(() => document.getElementById('status')!.className === 'done', undefined, {
      timeout: 60_000,
    });
    expect((await backend.service.etchPacket({ eid: created.eid })).status).toBe('complete');
    expect(errors, errors.join('\n')).toEqual([]);
    await page.close();
  }, 120_000);
});
