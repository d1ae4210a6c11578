/**
 * The signing page in its document-list flow (acceptEachField false), in a real headless Chromium (Debian's, through
 * playwright-core): the URL from generateEtchSignURL opens the page, the signer
 * draws with mouse moves and types initials, finishes; the packet completes and
 * its sealed PDF validates. Foreign tokens get the error page; cross-site posts
 * are refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBrowser, closeServer } from './helpers/close.js';
import { launchTestBrowser } from './helpers/browser.js';
import type { PacketBackend } from '../src/server/graphql/index.js';
import { pdfsig, tempDir } from './helpers/signing.js';
import { startSigningServer, watchPage } from './helpers/signing-page.js';
import type { TestServer } from './server-setup.js';

let server: TestServer;
let tmp: { dir: string; remove: () => Promise<void> };
let backend: PacketBackend;
let browser: Browser;
/** Another origin (its own port) whose page frames the signing URL and records the messages it gets. */
let parent: http.Server;
let parentBase = '';
let frameSrc = '';

beforeAll(async () => {
  tmp = await tempDir('castpress-signpage-');
  parent = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>host</title><script>window.messages = [];
addEventListener('message', (e) => window.messages.push({ origin: e.origin, data: e.data }));</script>
<iframe id="signing" src="${frameSrc}" width="420" height="800"></iframe>`);
  });
  await new Promise<void>((r) => parent.listen(0, '127.0.0.1', r));
  parentBase = `http://127.0.0.1:${(parent.address() as AddressInfo).port}`;
  ({ server, backend } = await startSigningServer(tmp.dir, { signingFrameAncestors: [parentBase] }));
  browser = await launchTestBrowser();
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
  await server?.close();
  await closeServer(parent);
  await tmp?.remove();
}, 60_000);

async function packet(redirectURL?: string, extra: Record<string, unknown> = {}) {
  return backend.service.createEtchPacket({
    name: 'Page test',
    ...extra,
    files: [
      {
        id: 'doc',
        filename: 'doc.pdf',
        title: 'Doc',
        fields: [
          { content: 'Sign below.' },
          { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 40 } },
          { id: 'ini', type: 'initial', pageNum: 0, rect: { x: 300, y: 200, width: 60, height: 40 } },
        ],
      },
    ],
    // The document-list flow (acceptEachField false): one signature and Finish. The default flow,
    // each field accepted in the pdf.js viewer, is test/graphql-signing-viewer.test.ts.
    signers: [
      {
        id: 's1',
        name: 'Ada Signer',
        email: 'ada@example.com',
        signerType: 'embedded',
        acceptEachField: false,
        ...(redirectURL ? { redirectURL } : {}),
        fields: [
          { fileId: 'doc', fieldId: 'sig' },
          { fileId: 'doc', fieldId: 'ini' },
        ],
      },
    ],
  });
}

describe('signing page in Chromium', () => {
  it('draws a signature with the mouse, types initials, finishes: the packet completes with a valid seal', async () => {
    const created = await packet();
    const signerEid = created.documentGroup.signers[0]!.eid;
    const url = await backend.service.generateEtchSignURL({ signerEid, clientUserId: 'u1' });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const { requests, errors } = watchPage(page);
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
    await expect(page.title()).resolves.toBe('Sign Page test');

    // Nothing drawn yet: the page asks for a signature.
    await page.click('#finish');
    await expect(page.textContent('#status')).resolves.toMatch(/draw your signature/);

    const box = (await page.locator('#pad').boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 100);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++)
      await page.mouse.move(box.x + 20 + i * 20, box.y + 100 - 40 * Math.sin(i / 2), { steps: 2 });
    await page.mouse.up();
    await page.focus('#initials');
    await page.keyboard.type('AS');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // keyboard only: Tab reaches Finish
    await page.waitForFunction(() => /Signed/.test(document.getElementById('status')!.textContent ?? ''), undefined, {
      timeout: 30_000,
    });
    expect(errors, errors.join('\n')).toEqual([]);
    // Every request stayed on the server: no third-party assets.
    expect(requests.every((r) => r.startsWith(server.base))).toBe(true);

    const done = await backend.service.etchPacket({ eid: created.eid });
    expect(done.status).toBe('complete');
    const [doc] = await backend.service.groupDocuments(done.documentGroup.eid);
    const file = path.join(tmp.dir, 'signed.pdf');
    await writeFile(file, doc!.pdf);
    const report = await pdfsig(file);
    expect(report.signatures.at(-1)?.valid, report.text).toBe(true);
    expect(report.signatures.at(-1)?.total, report.text).toBe(true);

    // Opening the link again shows a status page, not the form.
    await page.goto(url);
    await expect(page.textContent('h1')).resolves.toBe('Already signed');
    expect(await page.locator('#finish').count()).toBe(0);
    await page.close();
  }, 120_000);

  it('a foreign token shows the error page; a cross-site submission is refused', async () => {
    const created = await packet();
    const signerEid = created.documentGroup.signers[0]!.eid;
    const res = await fetch(`${server.base}/sign/${signerEid}?token=not-the-token`);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<h1 class="error">');
    const post = await fetch(`${server.base}/sign/${signerEid}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ token: 'x', signature: { type: 'typed', text: 'x' } }),
    });
    expect(post.status).toBe(403);
    expect((await backend.service.etchPacket({ eid: created.eid })).status).toBe('sent');
  });

  it('an expired link of a signer with a redirectURL goes there with signerError tokenExpired; a foreign token with the error parameters only', async () => {
    const created = await packet(`${parentBase}/back`);
    const signerEid = created.documentGroup.signers[0]!.eid;
    const url = await backend.service.generateEtchSignURL({ signerEid, clientUserId: 'u9' });
    await backend.service.expireSignerTokens({ signerEid });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const target = new URL(res.headers.get('location')!);
    expect(target.origin + target.pathname).toBe(`${parentBase}/back`);
    expect(Object.fromEntries(target.searchParams)).toMatchObject({
      action: 'signerError',
      errorType: 'tokenExpired',
      signerEid,
      etchPacketEid: created.eid,
    });
    // A token that is not the signer's: redirected too, with nothing about the packet.
    const foreign = await fetch(`${server.base}/sign/${signerEid}?token=not-the-token`, { redirect: 'manual' });
    expect(foreign.status).toBe(303);
    const back = new URL(foreign.headers.get('location')!);
    expect([...back.searchParams.keys()].sort()).toEqual(['action', 'error', 'errorType', 'message', 'signerEid']);
  });

  it('inside an iframe of another (allowed) origin: signerLoad, signerSign, signerComplete are posted to the parent', async () => {
    const created = await packet();
    const signerEid = created.documentGroup.signers[0]!.eid;
    frameSrc = `${await backend.service.generateEtchSignURL({ signerEid, clientUserId: 'u2' })}&withinIframe=true`;
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(parentBase);
    const frame = page.frameLocator('#signing');
    await frame.locator('#use-typed').click();
    await frame.locator('#typed').fill('Ada Signer');
    await frame.locator('#initials').fill('AS');
    await frame.locator('#finish').click();
    await page.waitForFunction(
      () =>
        (window as unknown as { messages: Array<{ data: { action: string } }> }).messages.some(
          (m) => m.data.action === 'signerComplete',
        ),
      undefined,
      { timeout: 30_000 },
    );
    const messages = (await page.evaluate(() => (window as unknown as { messages: unknown[] }).messages)) as Array<{
      origin: string;
      data: Record<string, unknown>;
    }>;
    expect(messages.map((m) => m.data.action)).toEqual(['signerLoad', 'signerSign', 'signerComplete']);
    expect(messages.every((m) => m.origin === server.base)).toBe(true);
    expect(messages[0]!.data).toMatchObject({
      signerStatus: 'viewed',
      signerEid,
      etchPacketEid: created.eid,
      documentGroupEid: created.documentGroup.eid,
    });
    expect(messages[2]!.data).toMatchObject({
      signerStatus: 'completed',
      signerEid,
      documentGroupStatus: 'completed',
      nextSignerEid: null,
    });
    await page.close();

    // Only the allowed origin may frame the page (CSP frame-ancestors).
    const res = await fetch(frameSrc);
    expect(res.headers.get('content-security-policy')).toContain(`frame-ancestors 'self' ${parentBase}`);
  }, 120_000);

  it("with a redirectURL the browser goes there with the spec's parameters after finishing", async () => {
    const created = await packet(`${parentBase}/done?from=castpress`);
    const signerEid = created.documentGroup.signers[0]!.eid;
    frameSrc = 'about:blank';
    const page = await browser.newPage();
    await page.goto(await backend.service.generateEtchSignURL({ signerEid, clientUserId: 'u3' }));
    await page.click('#use-typed');
    await page.fill('#typed', 'Ada Signer');
    await page.click('#finish');
    await page.waitForURL((u) => u.href.startsWith(`${parentBase}/done`), { timeout: 30_000 });
    const q = new URL(page.url()).searchParams;
    expect(Object.fromEntries(q)).toMatchObject({
      from: 'castpress',
      action: 'signerComplete',
      signerStatus: 'completed',
      signerEid,
      documentGroupStatus: 'completed',
      documentGroupEid: created.documentGroup.eid,
      etchPacketEid: created.eid,
      nextSignerEid: '',
    });
    await page.close();
  }, 120_000);

  it('signaturePageOptions: texts with {{...}} replacements and the primary colour; markup in them is escaped', async () => {
    const created = await packet(undefined, {
      signaturePageOptions: {
        title: 'Welcome {{signer.name}} <b>',
        signButtonText: 'Sign {{packet.name}}',
        style: { primaryColor: '#aa0000' },
      },
    });
    const signerEid = created.documentGroup.signers[0]!.eid;
    const page = await browser.newPage();
    await page.goto(await backend.service.generateEtchSignURL({ signerEid, clientUserId: 'u4' }));
    await expect(page.textContent('h1')).resolves.toBe('Welcome Ada Signer <b>');
    await expect(page.textContent('#finish')).resolves.toBe('Sign Page test');
    await expect(page.$eval('#finish', (b) => getComputedStyle(b).backgroundColor)).resolves.toBe('rgb(170, 0, 0)');
    await page.close();
  }, 60_000);

  it('allowNameChange: the signer corrects their name on the page before finishing; the packet has the new name', async () => {
    const created = await packet();
    // allowNameChange is a signer property: a packet of its own with it set.
    const withChange = await backend.service.createEtchPacket({
      name: 'Rename',
      files: [
        {
          id: 'doc',
          filename: 'doc.pdf',
          title: 'Doc',
          fields: [
            { content: 'x' },
            { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 40 } },
          ],
        },
      ],
      signers: [
        {
          id: 's1',
          name: 'Ada Signr',
          email: 'ada@example.com',
          signerType: 'embedded',
          acceptEachField: false,
          allowNameChange: true,
          fields: [{ fileId: 'doc', fieldId: 'sig' }],
        },
      ],
    });
    const eid = withChange.documentGroup.signers[0]!.eid;
    const page = await browser.newPage();
    await page.goto(await backend.service.generateEtchSignURL({ signerEid: eid, clientUserId: 'u5' }));
    await page.fill('#my-name', 'Ada Signer');
    await page.click('#use-typed');
    await page.fill('#typed', 'Ada Signer');
    await page.click('#finish');
    await page.waitForFunction(() => document.getElementById('status')!.className === 'done', undefined, {
      timeout: 30_000,
    });
    const after = await backend.service.etchPacket({ eid: withChange.eid });
    expect(after.documentGroup.signers[0]).toMatchObject({ name: 'Ada Signer', status: 'completed' });
    // A signer without the option has no name field.
    const other = await page.goto(
      await backend.service.generateEtchSignURL({
        signerEid: created.documentGroup.signers[0]!.eid,
        clientUserId: 'u6',
      }),
    );
    expect(other?.status()).toBe(200);
    expect(await page.locator('#my-name').count()).toBe(0);
    await page.close();
  }, 60_000);
});
