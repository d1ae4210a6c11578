/**
 * Organization settings through `castpress serve --org FILE`, used by the
 * unmodified `@anvilco/anvil` client. The organization's webhook (a receiver started here)
 * gets the events of a packet that sets no webhookURL, with the token chosen in the file and
 * an HMAC-SHA256 signature the receiver verifies over the exact body it got; the mail (an SMTP
 * sink) carries the organization's name (text, subject replacement, From name) and its logo;
 * an embedded signer's page loads inside an iframe of another loopback origin in Chromium while
 * an email signer's page is refused framing there; a bad settings file stops the server at start
 * with the file and the property named.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBrowser, closeServer } from './helpers/close.js';
import { launchTestBrowser } from './helpers/browser.js';
import { startServe, type ServeProcess } from './helpers/serve.js';
import { tempDir } from './helpers/signing.js';
import { linkIn, SmtpSink, until, WebhookReceiver } from './helpers/workflow.js';

const Anvil = anvilModule.default;
const KEY = 'prod-org-key-0123456789';
const ORG = 'Acme Test Org';
const TOKEN = 'token-chosen-at-setup';
const SECRET = 'hmac-secret-0123456789abcdef';

let tmp: { dir: string; remove: () => Promise<void> };
let hooks: WebhookReceiver;
let smtp: SmtpSink;
let browser: Browser;
let serve: ServeProcess;
let base = '';
let parent: http.Server;
let parentBase = '';
const frames = new Map<string, string>();

async function stop(s: ServeProcess): Promise<void> {
  if (s.child.exitCode !== null) return;
  s.child.kill('SIGTERM');
  await s.exited;
}

beforeAll(async () => {
  tmp = await tempDir('castpress-org-');
  hooks = await WebhookReceiver.start();
  smtp = await SmtpSink.start();
  // The host app: another origin (localhost, not 127.0.0.1) whose page frames whatever /frame/<name> names.
  parent = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>host app</title><script>window.messages = [];
addEventListener('message', (e) => window.messages.push(e.data));</script>
<iframe id="signing" src="${frames.get(req.url ?? '') ?? 'about:blank'}" width="900" height="700"></iframe>`);
  });
  await new Promise<void>((r) => parent.listen(0, '127.0.0.1', r));
  parentBase = `http://localhost:${(parent.address() as AddressInfo).port}`;

  // Taller than 30 px, so the signing page's cap shows.
  const logo = await sharp({ create: { width: 240, height: 96, channels: 3, background: '#1985a1' } })
    .png()
    .toBuffer();
  await writeFile(path.join(tmp.dir, 'logo.png'), logo);
  await writeFile(
    path.join(tmp.dir, 'org.json'),
    JSON.stringify({
      name: ORG,
      slug: 'acme',
      supportEmail: 'help@acme.example',
      logo: 'logo.png',
      signerDefaults: { allowNameChange: true },
      webhook: { url: hooks.url, token: TOKEN, hmacSecret: SECRET },
      style: { primaryColor: '#aa3300', linkColor: '#0b6e4f' },
    }),
  );
  await writeFile(path.join(tmp.dir, 'keys.json'), JSON.stringify({ keys: [{ key: KEY, kind: 'production' }] }));
  serve = startServe([
    '--port',
    '0',
    '--keys',
    path.join(tmp.dir, 'keys.json'),
    '--data',
    path.join(tmp.dir, 'data'),
    '--org',
    path.join(tmp.dir, 'org.json'),
    '--smtp',
    `127.0.0.1:${smtp.port}`,
    '--allow-host',
    hooks.host,
    '--log-level',
    'warn',
  ]);
  base = await serve.url;
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await closeBrowser(browser);
  if (serve) await stop(serve);
  await hooks?.close();
  await smtp?.close();
  await closeServer(parent);
  await tmp?.remove();
}, 60_000);

async function onePagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  return doc.save();
}

interface Created {
  eid: string;
  documentGroup: { signers: Array<{ eid: string; aliasId: string }> };
}

describe('castpress serve --org', () => {
  it('organization webhook (chosen token, verifiable HMAC), mail with the name and logo, framing by signer type', async () => {
    const client = new Anvil({ apiKey: KEY, baseURL: base });
    const r = (await client.createEtchPacket({
      variables: {
        name: 'Org packet',
        isTest: true,
        // No webhookURL: the organization's webhook gets the events.
        signatureEmailSubject: 'Sign for {{organization.name}}',
        files: [
          {
            id: 'doc',
            title: 'Doc',
            file: Anvil.prepareGraphQLFile(Buffer.from(await onePagePdf()), {
              filename: 'doc.pdf',
              mimetype: 'application/pdf',
            }),
            fields: [
              { id: 'sigA', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } },
              { id: 'sigB', type: 'signature', pageNum: 0, rect: { x: 320, y: 300, width: 200, height: 40 } },
            ],
          },
        ],
        signers: [
          {
            id: 'app',
            name: 'Emma Embedded',
            email: 'emma@example.com',
            signerType: 'embedded',
            routingOrder: 1,
            fields: [{ fileId: 'doc', fieldId: 'sigA' }],
          },
          {
            id: 'mail',
            name: 'Mia Mail',
            email: 'mia@example.com',
            signerType: 'email',
            routingOrder: 1,
            fields: [{ fileId: 'doc', fieldId: 'sigB' }],
          },
        ],
      },
    })) as { statusCode: number; errors?: unknown; data?: { data?: { createEtchPacket: Created } } };
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const created = r.data!.data!.createEtchPacket;
    const embedded = created.documentGroup.signers.find((s) => s.aliasId === 'app')!;

    // The mail: the organization's name in the text, the subject's replacement and the From name; replies to its support address.
    const mails = await until(
      () => smtp.to('mia@example.com'),
      (m) => m.length > 0,
    );
    expect(mails).toHaveLength(1);
    const raw = mails[0]!.raw.replace(/=\r?\n/g, '');
    expect(raw).toMatch(new RegExp(`^Subject: Sign for ${ORG}\\r?$`, 'm'));
    expect(raw).toMatch(new RegExp(`^From: "?${ORG} via castpress"? <no-reply@castpress.local>`, 'm'));
    expect(raw, raw.slice(0, 800)).toMatch(/^Reply-To: "?Acme Test Org"? <help@acme\.example>/m);
    expect(raw).toContain(`${ORG} asks you to review and sign "Org packet"`);
    // The logo: an inline part the HTML shows at most 30 px high.
    expect(raw).toMatch(/Content-ID: <logo@castpress>/i);
    expect(raw).toMatch(/max-height:\s?30px/);

    // The embedded signer's page, inside an iframe of the host app (no origin configured anywhere).
    const { url } = await client.generateEtchSignUrl({
      variables: { signerEid: embedded.eid, clientUserId: 'u-emma' },
    });
    frames.set('/embedded', `${url!}&withinIframe=true`);
    const host = await browser.newPage();
    await host.goto(`${parentBase}/embedded`);
    await host.frameLocator('#signing').locator('body.loaded').waitFor({ timeout: 60_000 });
    await host.waitForFunction(
      () =>
        (window as unknown as { messages: Array<{ action: string }> }).messages.some((m) => m.action === 'signerLoad'),
      undefined,
      { timeout: 60_000 },
    );
    // The organization's signer default reached the signer (the object set no allowNameChange): they may change their name.
    const changed = await fetch(`${base}/sign/${embedded.eid}/details`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: new URL(url!).searchParams.get('token'), name: 'Emma Renamed' }),
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    const page = await fetch(`${url!}`);
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors \*(;|$)/);

    // The email signer's page: framed by the server itself only; Chromium refuses it in the host app.
    const link = linkIn(mails[0]!.raw);
    const emailUrl = `${base}/sign/${link.signerEid}?token=${link.token}`;
    const direct = await fetch(emailUrl);
    expect(direct.headers.get('content-security-policy')).toMatch(/frame-ancestors 'self'(;|$)/);
    frames.set('/email', emailUrl);
    const refused: string[] = [];
    const host2 = await browser.newPage();
    host2.on('console', (m) => refused.push(m.text()));
    await host2.goto(`${parentBase}/email`);
    await until(
      () => refused,
      (l) => l.some((t) => t.includes('frame-ancestors')),
      30_000,
    );
    expect(refused.join('\n')).toMatch(/(Framing|Refused to frame) .*frame-ancestors 'self'/);
    expect(await host2.frameLocator('#signing').locator('body.loaded').count()).toBe(0);
    await host.close();
    await host2.close();

    // The organization webhook: the viewed signer's signerUpdateStatus, with the chosen token and an HMAC of the body.
    const got = await until(
      () => hooks.accepted('signerUpdateStatus'),
      (h) => h.length > 0,
    );
    expect(got.length).toBeGreaterThan(0);
    for (const hit of got) {
      expect(hit.body.token).toBe(TOKEN);
      const sig = String(hit.headers['x-castpress-signature']);
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig);
      expect(m, sig).not.toBeNull();
      const expected = createHmac('sha256', SECRET).update(`${m![1]}.${hit.raw}`).digest('hex');
      expect(m![2]).toBe(expected);
      // Any change to the body breaks it.
      const forged = createHmac('sha256', SECRET)
        .update(`${m![1]}.${hit.raw.replace(TOKEN, 'other')}`)
        .digest('hex');
      expect(forged).not.toBe(m![2]);
    }
    expect(got[0]!.body.data.signerEid).toBe(embedded.eid);
  }, 240_000);

  it("the signing page shows the organization's logo at most 30 px high, its colours and its name for {{organization.name}}", async () => {
    const client = new Anvil({ apiKey: KEY, baseURL: base });
    const r = (await client.createEtchPacket({
      variables: {
        name: 'Logo packet',
        isTest: true,
        signaturePageOptions: {
          title: 'Signing for {{organization.name}}',
          signConsentText: '{{signer.name}} agrees with {{organization.name}}.',
        },
        files: [
          {
            id: 'doc',
            title: 'Doc',
            file: Anvil.prepareGraphQLFile(Buffer.from(await onePagePdf()), {
              filename: 'doc.pdf',
              mimetype: 'application/pdf',
            }),
            fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } }],
          },
        ],
        signers: [
          {
            id: 'app',
            name: 'Lea Logo',
            email: 'lea@example.com',
            signerType: 'embedded',
            fields: [{ fileId: 'doc', fieldId: 'sig' }],
          },
        ],
      },
    })) as { statusCode: number; errors?: unknown; data?: { data?: { createEtchPacket: Created } } };
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const signer = r.data!.data!.createEtchPacket.documentGroup.signers[0]!;
    const { url } = await client.generateEtchSignUrl({ variables: { signerEid: signer.eid, clientUserId: 'u-lea' } });
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    try {
      await page.goto(url!);
      await page.locator('body.loaded').waitFor({ timeout: 60_000 });
      const logo = page.locator('.org-logo img');
      expect(await logo.getAttribute('alt')).toBe(ORG);
      const shown = await logo.evaluate((img: HTMLImageElement) => ({
        natural: img.naturalHeight,
        height: img.getBoundingClientRect().height,
        top: img.getBoundingClientRect().top,
        h1Top: document.querySelector('h1')!.getBoundingClientRect().top,
      }));
      expect(shown.natural).toBe(96);
      expect(shown.height).toBeGreaterThan(0);
      expect(shown.height).toBeLessThanOrEqual(30);
      expect(shown.top).toBeLessThan(shown.h1Top);
      expect(await page.locator('h1').textContent()).toBe(`Signing for ${ORG}`);
      // The packet gives no style: the organization's colours, the spec's default where it names none.
      const colours = await page.evaluate(() => ({
        h1: getComputedStyle(document.querySelector('h1')!).color,
        body: getComputedStyle(document.body).color,
      }));
      expect(colours).toEqual({ h1: 'rgb(170, 51, 0)', body: 'rgb(70, 73, 76)' });
      expect(await page.locator('.consent').first().textContent()).toBe(`Lea Logo agrees with ${ORG}.`);
    } finally {
      await page.close();
    }
  }, 180_000);

  it("a packet's replyToName / replyToEmail replace the organization's reply-to in its mails", async () => {
    const client = new Anvil({ apiKey: KEY, baseURL: base });
    const r = (await client.createEtchPacket({
      variables: {
        name: 'Reply packet',
        isTest: true,
        replyToName: 'Rita Replies',
        replyToEmail: 'rita@acme.example',
        files: [
          {
            id: 'doc',
            file: Anvil.prepareGraphQLFile(Buffer.from(await onePagePdf()), {
              filename: 'doc.pdf',
              mimetype: 'application/pdf',
            }),
            fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } }],
          },
        ],
        signers: [
          { id: 'rex', name: 'Rex Mail', email: 'rex@example.com', fields: [{ fileId: 'doc', fieldId: 'sig' }] },
        ],
      },
    })) as { statusCode: number; errors?: unknown };
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const mails = await until(
      () => smtp.to('rex@example.com'),
      (m) => m.length > 0,
    );
    const raw = mails[0]!.raw.replace(/=\r?\n/g, '');
    expect(raw, raw.slice(0, 800)).toMatch(/^Reply-To: "?Rita Replies"? <rita@acme\.example>/m);
  }, 120_000);

  it('accepts an https stylesheetURL on any origin by default, refuses plain http elsewhere', async () => {
    const client = new Anvil({ apiKey: KEY, baseURL: base });
    const create = async (stylesheetURL: string) =>
      (await client.createEtchPacket({
        variables: {
          name: 'Styled',
          isTest: true,
          isDraft: true,
          signaturePageOptions: { style: { stylesheetURL } },
          files: [
            {
              id: 'doc',
              file: Anvil.prepareGraphQLFile(Buffer.from(await onePagePdf()), {
                filename: 'doc.pdf',
                mimetype: 'application/pdf',
              }),
              fields: [{ id: 's', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } }],
            },
          ],
          signers: [
            {
              id: 'x',
              name: 'X Y',
              email: 'x@example.com',
              signerType: 'embedded',
              fields: [{ fileId: 'doc', fieldId: 's' }],
            },
          ],
        },
      })) as { statusCode: number; errors?: Array<{ message: string; fields?: Array<{ property: string }> }> };
    const https = await create('https://cdn.example/brand.css');
    expect(https.errors, JSON.stringify(https.errors)).toBeUndefined();
    expect(https.statusCode).toBe(200);
    const plain = await create('http://cdn.example/brand.css');
    expect(plain.statusCode).toBe(400);
    expect(JSON.stringify(plain.errors)).toContain('signaturePageOptions.style.stylesheetURL');
  }, 60_000);

  it('refuses a bad organization file at start, naming the file and the property', async () => {
    const bad = path.join(tmp.dir, 'bad-org.json');
    await writeFile(bad, JSON.stringify({ name: 'X', webhook: { url: 'ftp://hooks.example', hmacSecret: 'short' } }));
    const s = startServe(['--no-auth', '--port', '0', '--data', path.join(tmp.dir, 'd2'), '--org', bad]);
    s.url.catch(() => undefined); // it never listens
    const code = await s.exited;
    expect(code).not.toBe(0);
    expect(s.stderr()).toContain(bad);
    expect(s.stderr()).toMatch(/webhook\.url/);
    expect(s.stderr()).toMatch(/webhook\.hmacSecret/);
    expect(s.stderr()).not.toMatch(/listening on/);

    const missingLogo = path.join(tmp.dir, 'no-logo.json');
    await writeFile(missingLogo, JSON.stringify({ organizations: { default: { name: 'Y', logo: 'nope.png' } } }));
    const s2 = startServe(['--no-auth', '--port', '0', '--data', path.join(tmp.dir, 'd3'), '--org', missingLogo]);
    s2.url.catch(() => undefined);
    expect(await s2.exited).not.toBe(0);
    expect(s2.stderr()).toMatch(/organizations\.default\.logo: Cannot read nope\.png/);
  }, 180_000);
});
