/**
 * `npm run demo -- --serve` as a newcomer runs it: scripts/demo.ts in a child process
 * prints two signing links and where the zip will appear; both links opened in Chromium let the
 * client draw and the provider type; the zip appears with the three sealed documents, whose
 * signatures verify valid against the demo's own CA root; Ctrl-C (SIGINT) stops it with exit code 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPdf } from '../src/signing/index.js';
import { closeBrowser } from './helpers/close.js';
import { launchTestBrowser } from './helpers/browser.js';
import { repoRoot } from './helpers/cli.js';
import { tempDir } from './helpers/signing.js';
import { until } from './helpers/workflow.js';

let tmp: { dir: string; remove: () => Promise<void> };
let browser: Browser;
let child: ChildProcess;
let output = '';
let exited: Promise<number | null>;

beforeAll(async () => {
  tmp = await tempDir('castpress-demo-serve-');
  child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'scripts', 'demo.ts'), '--serve', '--port', '0', '--out', tmp.dir],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  exited = new Promise((r) => child.on('exit', (code) => r(code)));
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  await until(
    () => output,
    (o) => o.includes('Ctrl-C') || child.exitCode !== null,
    180_000,
  );
  browser = await launchTestBrowser();
}, 240_000);

afterAll(async () => {
  await closeBrowser(browser);
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
  await tmp?.remove();
}, 60_000);

/** In the page: what a step of `signAll` changes (the dialog, its error, the progress, the status, the focused box). */
const pageState = (): string =>
  [
    document.querySelector('#adopt')?.hasAttribute('open'),
    document.getElementById('adopt-error')?.textContent,
    document.getElementById('progress')?.textContent,
    document.getElementById('status')?.className,
    (document.activeElement as HTMLElement | null)?.dataset.field ?? document.activeElement?.id,
  ].join('|');

/** Accepts every box of the page: the first of a kind in the dialog (drawn with the mouse, or typed as offered). */
async function signAll(page: Page, draw: boolean): Promise<void> {
  await page.waitForFunction(() => document.body.classList.contains('loaded'), undefined, { timeout: 60_000 });
  for (let step = 0; step < 12; step++) {
    const before = await page.evaluate(pageState);
    if ((await page.locator('#status').getAttribute('class')) === 'done') return;
    if (await page.locator('#adopt[open]').count()) {
      if (draw && (await page.locator('#pad').isVisible())) {
        const pad = (await page.locator('#pad').boundingBox())!;
        await page.mouse.move(pad.x + 30, pad.y + 100);
        await page.mouse.down();
        for (let i = 1; i <= 12; i++)
          await page.mouse.move(pad.x + 30 + i * 24, pad.y + 100 - 40 * Math.sin(i / 2), { steps: 2 });
        await page.mouse.up();
      } else {
        expect(await page.locator('#typed').inputValue()).not.toBe('');
      }
      await page.click('#adopt-ok');
    } else if (await page.locator('#next').isEnabled()) {
      await page.click('#next');
      await page.keyboard.press('Enter');
    }
    // The page's answer to the step (was a fixed 300 ms sleep after each): a step that changes nothing seen
    // here still moves on after a while, as the sleep did.
    await page
      .waitForFunction(`(${pageState.toString()})() !== ${JSON.stringify(before)}`, undefined, { timeout: 5_000 })
      .catch(() => undefined);
  }
  await page.waitForFunction(() => document.getElementById('status')!.className === 'done', undefined, {
    timeout: 60_000,
  });
}

describe('npm run demo -- --serve', () => {
  it('prints two signing links; both signers sign in Chromium; the zip appears; Ctrl-C stops it', async () => {
    expect(child.exitCode, output).toBeNull();
    const links = [
      ...output.matchAll(/^\s+\d\. (client|provider) \([a-z]+\): (http:\/\/127\.0\.0\.1:\d+\/sign\/\S+)$/gm),
    ];
    expect(
      links.map((m) => m[1]),
      output,
    ).toEqual(['client', 'provider']);
    const zipFile = /written to (\S+\.zip)/.exec(output)?.[1];
    expect(zipFile, output).toBeDefined();
    expect(path.dirname(zipFile!)).toBe(path.join(tmp.dir, 'demo-serve'));

    const client = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await client.goto(links[0]![2]!);
    await signAll(client, true);
    await client.close();
    const provider = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await provider.goto(links[1]![2]!);
    await signAll(provider, false);
    await provider.close();

    await until(
      () =>
        stat(zipFile!).then(
          () => output.includes('Completed:'),
          () => false,
        ),
      (there) => there,
      120_000,
    );
    const entries = unzipSync(new Uint8Array(await readFile(zipFile!)));
    expect(Object.keys(entries).sort()).toEqual(['Engagement letter.pdf', 'order-form.pdf', 'terms.pdf']);
    const root = await readFile(path.join(tmp.dir, 'demo-serve', 'data', 'signing', 'root-ca.pem'), 'utf8');
    for (const [name, pdf] of Object.entries(entries)) {
      const report = await verifyPdf(pdf, { trustAnchors: [root] });
      expect(report.valid, `${name}: ${report.problems.join('; ')}`).toBe(true);
    }

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('Stopped.');
  }, 400_000);
});
