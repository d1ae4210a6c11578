/**
 * Shared set-up of the signing-page tests: a castpress server on loopback whose packet
 * workflow lives in a temp folder, and a watch on what a Chromium page requests and
 * reports as errors.
 */
import type { Page } from 'playwright-core';
import type { Engine } from '../../src/index.js';
import { LazyPacketBackend, openPacketBackend, type PacketBackend } from '../../src/server/graphql/index.js';
import type { ServerOptions } from '../../src/server/index.js';
import { startTestServer, type TestServer } from '../server-setup.js';

/** The test server with packets in `dataDir`; documents made by `engine` (default the server's). */
export async function startSigningServer(
  dataDir: string,
  extra: Partial<ServerOptions> = {},
  engine?: Engine,
): Promise<{ server: TestServer; backend: PacketBackend }> {
  let base = '';
  let server: TestServer | undefined;
  const packets = new LazyPacketBackend(() =>
    openPacketBackend({ dataDir, engine: engine ?? server!.engine, baseUrl: base }),
  );
  server = await startTestServer({ packets, ...extra });
  base = server.base;
  return { server, backend: await packets.get() };
}

/** Every URL the page requests, and its uncaught errors and console errors (a CSP refusal is one). */
export function watchPage(page: Page): { requests: string[]; errors: string[] } {
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return { requests, errors };
}

/** Draws a wave with the mouse on the signature pad at `selector` (a signer drawing their mark). */
export async function drawOn(page: Page, selector: string): Promise<void> {
  const box = (await page.locator(selector).boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 100);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++)
    await page.mouse.move(box.x + 20 + i * 18, box.y + 100 - 40 * Math.sin(i / 2), { steps: 2 });
  await page.mouse.up();
}
