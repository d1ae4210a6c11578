/**
 * The packet pages in a real Chromium on a phone (390 px) against `castpress serve`'s server started
 * in-process: packets made by the official client, one of them opened and signed through the signing
 * page; the list filtered to test packets and searched, a packet's page with its signers' events and
 * a document download, a signer's request resent from the page (a second mail). axe-core finds no
 * serious or critical violation, and nothing scrolls sideways; the deliveries list shows both mails.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { launchTestBrowser } from './helpers/browser.js';
import { closeBrowser } from './helpers/close.js';
import { expectNoAxeViolations, signIn } from './helpers/dashboard-page.js';
import { Anvil, ok, signaturePacketVariables, signUrlOf, submitTyped } from './helpers/packet-serve.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf, until } from './helpers/workflow.js';

const KEY = 'prod-acme-packets-browser-0123456789';
const PHONE = { width: 390, height: 844 };
const BROWSER = 'Mozilla/5.0 (SignerPhone) Chromium/1';

let tmp: { dir: string; remove: () => Promise<void> };
let server: RunningServer;
let browser: Browser;

/** The mails in the server's mail folder addressed to `to`. */
async function mailsTo(to: string): Promise<string[]> {
  const folder = path.join(tmp.dir, 'data', 'mail');
  const names = (await readdir(folder).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
  const texts = await Promise.all(names.map((n) => readFile(path.join(folder, n), 'utf8')));
  return names.filter((_, i) => new RegExp(`^To: .*${to}`, 'im').test(texts[i]!));
}

beforeAll(async () => {
  tmp = await tempDir('castpress-dash-packets-browser-');
  server = await startServer({
    port: 0,
    config: { keys: [{ key: KEY, kind: 'production', organization: 'acme', label: 'Ada at Acme' }] },
    packets: { dataDir: path.join(tmp.dir, 'data') },
    fetch: false,
  });
  const client = new Anvil({ apiKey: KEY, baseURL: server.url });
  const lease = ok(
    await client.createEtchPacket({
      variables: signaturePacketVariables('Lease for Ada', 'The lease.', [
        { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
      ]),
    }),
  ) as { createEtchPacket: { documentGroup: { signers: Array<{ eid: string }> } } };
  const url = await signUrlOf(client, lease.createEtchPacket.documentGroup.signers[0]!.eid, 'ada-1');
  const { signerEid, token } = tokenOf(url);
  await fetch(`${server.url}/sign/${signerEid}?token=${token}`, { headers: { 'user-agent': BROWSER } });
  expect((await submitTyped({ base: server.url } as Parameters<typeof submitTyped>[0], url, 'Ada')).status).toBe(200);
  const nda = signaturePacketVariables('Office NDA', 'The NDA.', [
    { id: 'carol', name: 'Carol Shaw', email: 'carol@example.com' },
  ]);
  ok(
    await client.createEtchPacket({
      variables: {
        ...nda,
        isTest: false,
        signers: (nda.signers as Array<Record<string, unknown>>).map((s) => ({ ...s, signerType: 'email' })),
      },
    }),
  );
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await closeBrowser(browser);
  await server?.close();
  await tmp?.remove();
}, 60_000);

async function fitsThePhone(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

describe('packet pages in a browser', () => {
  it('at 390 px: list, test filter, search, a packet with its events and download, resend', async () => {
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await context.newPage();
    // Failed loads are counted by response (the signed-out check's 401 is by design, the favicon is none of the app's).
    const failed: string[] = [];
    page.on('response', (r) => {
      const url = new URL(r.url());
      const expected = (r.status() === 401 && url.pathname === '/dashboard/session') || url.pathname === '/favicon.ico';
      if (r.status() >= 400 && !expected) failed.push(`${r.status()} ${url.pathname}`);
    });
    try {
      await signIn(page, server.url, KEY);
      await page.getByRole('link', { name: 'Packets' }).click();
      await page.getByRole('heading', { level: 1, name: 'Packets' }).waitFor();
      const rows = page.locator('.packet-row');
      await expect
        .poll(() => rows.allInnerTexts())
        .toEqual([expect.stringContaining('Office NDA'), expect.stringContaining('Lease for Ada')]);
      expect(await rows.nth(1).innerText()).toMatch(/complete[\s\S]*Test/);
      await fitsThePhone(page);
      await expectNoAxeViolations(page, 'packets at 390 px');

      await page.getByLabel('Show').selectOption('true');
      await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining('Lease for Ada')]);
      await page.getByLabel('Show').selectOption('all');
      await page.getByLabel('Search packets by name').fill('nda');
      await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining('Office NDA')]);
      await page.getByLabel('Search packets by name').fill('');
      await page.getByRole('link', { name: 'Lease for Ada' }).click();

      await page.getByRole('heading', { level: 1, name: 'Lease for Ada' }).waitFor();
      const events = page.getByRole('list', { name: 'Events of Ada Lovelace' });
      await expect.poll(() => events.innerText()).toContain(BROWSER);
      expect(await events.innerText()).toMatch(/Opened[\s\S]*Signed[\s\S]*IP 127\.0\.0\.1/);
      expect(await page.title()).toContain('Lease for Ada');
      await fitsThePhone(page);
      await expectNoAxeViolations(page, 'packet page at 390 px');
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download Terms' }).click();
      expect((await download).suggestedFilename()).toBe('terms.pdf');

      await page.getByRole('link', { name: 'All packets' }).click();
      await page.getByRole('link', { name: 'Office NDA' }).click();
      await page.getByRole('heading', { level: 1, name: 'Office NDA' }).waitFor();
      expect(
        await until(
          () => mailsTo('carol@example.com'),
          (m) => m.length === 1,
        ),
      ).toHaveLength(1);
      await page.getByRole('button', { name: 'Resend request to Carol Shaw' }).click();
      await page.getByRole('status').filter({ hasText: 'Signing request sent again to Carol Shaw' }).waitFor();
      expect(
        await until(
          () => mailsTo('carol@example.com'),
          (m) => m.length === 2,
        ),
      ).toHaveLength(2);
      await fitsThePhone(page);
      await expectNoAxeViolations(page, 'packet page with an email signer at 390 px');

      await page.getByRole('link', { name: 'Deliveries' }).click();
      await page.getByRole('heading', { level: 1, name: 'Deliveries' }).waitFor();
      await page.getByLabel('Kind').selectOption('email');
      const deliveries = page.getByRole('list', { name: 'Deliveries' }).locator('li');
      await expect
        .poll(async () => (await deliveries.allInnerTexts()).filter((t) => t.includes('signatureRequest')).length)
        .toBe(2);
      await fitsThePhone(page);
      await expectNoAxeViolations(page, 'deliveries at 390 px');
      expect(failed).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
