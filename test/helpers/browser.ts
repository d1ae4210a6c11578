import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../../src/html/index.js';

/** The Chromium the render pool would use, launched for a test to drive (no sandbox: tests run in containers). */
export function launchTestBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox'] });
}

/**
 * A test browser and one page 360 px wide and 10 px high, as the render pool's pages: the document's height
 * is its content's, not the window's. The browser is closed again when the page cannot be opened.
 */
export async function launchTestPage(): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchTestBrowser();
  try {
    return { browser, page: await browser.newPage({ viewport: { width: 360, height: 10 } }) };
  } catch (e) {
    await browser.close().catch(() => undefined);
    throw e;
  }
}
