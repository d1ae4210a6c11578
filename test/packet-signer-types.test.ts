/**
 * `in-person`, `inline` and `in-person-inline` signers can sign, through
 * `castpress serve` (started here with a keys file and `--data` in a temp folder) and the
 * unmodified `@anvilco/anvil` client, in a real Chromium.
 * - The caller gets an in-person signer's URL with generateEtchSignURL; the page first asks to hand
 *   the device to the signer; a wrong name is refused (no document is fetched, none is served), the
 *   right one typed in another case and spacing opens the documents; the webhook records the hand-over.
 * - An inline signer's URL (the caller's, as for embedded) is refused until the in-person signer has
 *   signed (routing order), then signs and completes the packet.
 * - An in-person-inline signer hands over and signs inside an iframe of the caller's app.
 * - An in-person type with requireNameOnLoad (nothing left to confirm) is a 400 at creation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBrowser, closeServer } from './helpers/close.js';
import { launchTestBrowser } from './helpers/browser.js';
import { startServe, type ServeProcess } from './helpers/serve.js';
import { tempDir, tool } from './helpers/signing.js';
import { watchPage } from './helpers/signing-page.js';
import { WebhookReceiver } from './helpers/workflow.js';

const Anvil = anvilModule.default;
const KEY = 'prod-signer-types-key-0123456789';

let tmp: { dir: string; remove: () => Promise<void> };
let hooks: WebhookReceiver;
let browser: Browser;
let serve: ServeProcess;
let base = '';
let parent: http.Server;
let parentBase = '';
let frameSrc = 'about:blank';

beforeAll(async () => {
  tmp = await tempDir('castpress-signer-types-');
  await writeFile(path.join(tmp.dir, 'keys.json'), JSON.stringify({ keys: [{ key: KEY, kind: 'production' }] }));
  hooks = await WebhookReceiver.start();
  // The caller's app, on another origin: it frames the in-person-inline signer's page and records its messages.
  parent = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>caller app</title><script>window.messages = [];
addEventListener('message', (e) => window.messages.push(e.data));</script>
<iframe id="signing" src="${frameSrc}" width="900" height="900"></iframe>`);
  });
  await new Promise<void>((r) => parent.listen(0, '127.0.0.1', r));
  parentBase = `http://127.0.0.1:${(parent.address() as AddressInfo).port}`;
  serve = startServe([
    '--port',
    '0',
    '--keys',
    path.join(tmp.dir, 'keys.json'),
    '--data',
    path.join(tmp.dir, 'data'),
    '--allow-host',
    hooks.host,
    '--frame-ancestor',
    parentBase,
  ]);
  base = await serve.url;
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await closeBrowser(browser);
  if (serve && serve.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  await hooks?.close();
  await closeServer(parent);
  await tmp?.remove();
}, 60_000);

interface CreatedPacket {
  eid: string;
  status: string;
  documentGroup: { eid: string; signers: Array<{ eid: string; aliasId: string }> };
}
type Gql = {
  statusCode: number;
  data?: { data?: { createEtchPacket: CreatedPacket; etchPacket: { status: string } } };
  errors?: Array<{
    message: string;
    extensions?: { name?: string; fields?: Array<{ property: string; message: string }> };
  }>;
};
const ok = (r: unknown) => {
  const g = r as Gql;
  expect(g.errors, JSON.stringify(g.errors)).toBeUndefined();
  expect(g.statusCode).toBe(200);
  return g.data!.data!;
};

/** A generated Markdown document with one typed-signature box per signer id. */
function variables(name: string, signers: Array<Record<string, unknown> & { id: string }>) {
  return {
    name,
    isDraft: false,
    isTest: true,
    webhookURL: hooks.url,
    files: [
      {
        id: 'doc',
        filename: 'agreement.pdf',
        title: 'Agreement',
        fontSize: 12,
        fields: [
          { heading: 'Agreement' },
          { content: 'Each party signs below.' },
          ...signers.map((s, i) => ({
            id: `sig-${s.id}`,
            type: 'signature',
            pageNum: 0,
            rect: { x: 72, y: 300 + i * 70, width: 220, height: 50 },
          })),
        ],
      },
    ],
    signers: signers.map((s) => ({
      signatureMode: 'text',
      fields: [{ fileId: 'doc', fieldId: `sig-${s.id}` }],
      ...s,
    })),
  };
}

const client = () => new Anvil({ apiKey: KEY, baseURL: base });

async function signUrl(signerEid: string, user: string): Promise<string> {
  const r = await client().generateEtchSignUrl({ variables: { signerEid, clientUserId: user } });
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.url!;
}

/** Adopts the prefilled typed signature on the signer's one box and waits for the page to say it is done. */
async function signTyped(page: Page | ReturnType<Page['frameLocator']>, fieldId: string): Promise<void> {
  await page.locator('body.loaded').waitFor({ timeout: 60_000 });
  await page.locator(`[data-field="${fieldId}"]`).click();
  await page.locator('#adopt-ok').click();
  await page.locator('#status.done').waitFor({ timeout: 60_000 });
}

describe('signer types through castpress serve and @anvilco/anvil', () => {
  it('an in-person signer hands over (wrong name refused) and signs, then an inline signer completes the packet', async () => {
    const created = ok(
      await client().createEtchPacket({
        variables: variables('In person and inline', [
          {
            id: 'ada',
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            signerType: 'in-person',
            routingOrder: 1,
            allowNameChange: true,
          },
          { id: 'bob', name: 'Bob Inline', email: 'bob@example.com', signerType: 'inline', routingOrder: 2 },
        ]),
      }),
    ).createEtchPacket;
    expect(created.status).toBe('sent');
    const ada = created.documentGroup.signers.find((s) => s.aliasId === 'ada')!;
    const bob = created.documentGroup.signers.find((s) => s.aliasId === 'bob')!;

    // The caller (its API key) gets the in-person signer's URL.
    const adaUrl = await signUrl(ada.eid, 'host-desk-1');
    const adaToken = new URL(adaUrl).searchParams.get('token')!;
    // Before the hand-over the service serves no document and takes no signature for this URL.
    const early = await fetch(`${base}/sign/${ada.eid}/documents/0?token=${encodeURIComponent(adaToken)}`);
    expect(early.status).toBe(403);
    // Nor may the holder make the name theirs first (allowNameChange), and then "confirm" it.
    const rename = await fetch(`${base}/sign/${ada.eid}/details`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: adaToken, name: 'Bob Inline' }),
    });
    expect(rename.status).toBe(403);

    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const { requests, errors } = watchPage(page);
    await page.goto(adaUrl);
    await expect(page.textContent('#hand-over-h')).resolves.toBe('Please hand this device to Ada Lovelace');
    expect(await page.locator('#signing').isHidden()).toBe(true);

    // The wrong person: a clear message, the documents stay hidden and unfetched.
    await page.fill('#hand-over-name', 'Bob Inline');
    await page.click('#hand-over-ok');
    await expect
      .poll(() => page.textContent('#hand-over-error'), { timeout: 30_000 })
      .toMatch(/not the name of the signer.*Ada Lovelace/);
    expect(await page.locator('#signing').isHidden()).toBe(true);
    expect(await page.locator('#hand-over').isVisible()).toBe(true);
    expect(requests.filter((r) => r.includes('/documents/'))).toEqual([]);

    // The signer, typing their name in another case and spacing.
    await page.fill('#hand-over-name', '  ada   LOVELACE ');
    await page.click('#hand-over-ok');
    await signTyped(page, 'sig-ada');
    expect(await page.locator('#hand-over').isHidden()).toBe(true);
    // The one error the browser reports is the refused name's 400.
    expect(errors, errors.join('\n')).toEqual([expect.stringMatching(/status of 400/)]);
    await page.close();

    // Bob (inline) could not sign before Ada; now his URL opens and he completes the packet.
    const inline = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const bobUrl = await signUrl(bob.eid, 'app-user-bob');
    await inline.goto(bobUrl);
    expect(await inline.locator('#hand-over').count()).toBe(0);
    await signTyped(inline, 'sig-bob');
    await inline.close();

    const after = ok(await client().getEtchPacket({ variables: { eid: created.eid } })) as unknown as {
      etchPacket: { status: string };
    };
    expect(after.etchPacket.status).toBe('complete');

    // The events record the hand-over: the in-person signer's status update says so.
    await expect
      .poll(
        () => hooks.accepted('etchPacketComplete').filter((h) => h.body.data.etchPacketEid === created.eid).length,
        {
          timeout: 60_000,
        },
      )
      .toBe(1);
    const handed = hooks
      .accepted('signerUpdateStatus')
      .map((h) => h.body.data as Record<string, unknown>)
      .filter((d) => d.signerEid === ada.eid && d.inPerson === true);
    expect(handed).toHaveLength(1);
    expect(handed[0]).toMatchObject({ signerType: 'in-person', etchPacketEid: created.eid });
    expect(typeof handed[0]!.handedOverAt).toBe('string');

    // The audit record: the certificate of completion says Ada signed in person, after the hand-over.
    const zip = (await client().downloadDocuments(created.documentGroup.eid)) as unknown as {
      statusCode: number;
      data: Buffer;
    };
    expect(zip.statusCode).toBe(200);
    const [pdf] = Object.values(unzipSync(new Uint8Array(zip.data)));
    const file = path.join(tmp.dir, 'in-person.pdf');
    await writeFile(file, pdf!);
    const text = (await tool('pdftotext', [file, '-'])).stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`in-person, handed over, name confirmed ${String(handed[0]!.handedOverAt)}`);
    expect(text).toMatch(/1, in-person, handed over/);
    expect(text).toMatch(/2, inline\b/);
  }, 300_000);

  it('routing order holds for an inline signer: their URL is refused until the earlier signer has signed', async () => {
    const created = ok(
      await client().createEtchPacket({
        variables: variables('Routing', [
          { id: 'first', name: 'First Person', email: 'first@example.com', signerType: 'in-person' },
          { id: 'second', name: 'Second Inline', email: 'second@example.com', signerType: 'inline' },
        ]),
      }),
    ).createEtchPacket;
    const second = created.documentGroup.signers.find((s) => s.aliasId === 'second')!;
    const res = await fetch(await signUrl(second.eid, 'app-user-2'));
    expect(res.status).toBe(409);
    expect(await res.text()).toMatch(/Earlier signers in the routing order have not finished/);
  }, 120_000);

  it('an in-person-inline signer hands over and signs inside an iframe of the caller app', async () => {
    const created = ok(
      await client().createEtchPacket({
        variables: variables('In person inline', [
          { id: 'cy', name: 'Cy Twombly', email: 'cy@example.com', signerType: 'in-person-inline' },
        ]),
      }),
    ).createEtchPacket;
    const cy = created.documentGroup.signers[0]!;
    frameSrc = `${await signUrl(cy.eid, 'kiosk-7')}&withinIframe=true`;
    const host = await browser.newPage({ viewport: { width: 1000, height: 1000 } });
    await host.goto(parentBase);
    const frame = host.frameLocator('#signing');
    await frame.locator('#hand-over-h').waitFor({ timeout: 60_000 });
    await expect(frame.locator('#hand-over-h').textContent()).resolves.toBe('Please hand this device to Cy Twombly');
    await frame.locator('#hand-over-name').fill('Someone Else');
    await frame.locator('#hand-over-ok').click();
    await expect
      .poll(() => frame.locator('#hand-over-error').textContent(), { timeout: 30_000 })
      .toMatch(/not the name of the signer/);
    expect(await frame.locator('#signing').isHidden()).toBe(true);
    await frame.locator('#hand-over-name').fill('cy twombly');
    await frame.locator('#hand-over-ok').click();
    await signTyped(frame, 'sig-cy');
    const actions = (
      await host.evaluate(() => (window as unknown as { messages: Array<{ action: string }> }).messages)
    ).map((m) => m.action);
    expect(actions).toContain('signerComplete');
    await host.close();
    const after = ok(await client().getEtchPacket({ variables: { eid: created.eid } })) as unknown as {
      etchPacket: { status: string };
    };
    expect(after.etchPacket.status).toBe('complete');
  }, 300_000);

  it('a type that cannot be honoured is a 400 at creation, naming the property', async () => {
    const bad = (await client().createEtchPacket({
      variables: variables('Cannot be honoured', [
        {
          id: 'ada',
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          signerType: 'in-person',
          requireNameOnLoad: true,
        },
      ]),
    })) as unknown as Gql;
    expect(bad.statusCode).toBe(400);
    expect(bad.errors?.[0]?.extensions?.name).toBe('ValidationError');
    expect(bad.errors?.[0]?.extensions?.fields).toEqual([
      expect.objectContaining({ property: 'signers[0].requireNameOnLoad' }),
    ]);
  }, 60_000);
});
