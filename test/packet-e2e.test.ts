/**
 * Signature packets end to end, as a user runs it: `castpress serve` started here (a keys file,
 * `--data` and `--templates` in a temp folder, a webhook receiver on loopback allowed with
 * `--allow-host`, a parent origin allowed with `--frame-ancestor`). The unmodified
 * `@anvilco/anvil` client creates a packet of a template, an uploaded PDF (GraphQL
 * multipart) and a generated Markdown file for two embedded signers in routing order.
 * Signer 2's link is refused while signer 1 has not signed; signer 1 draws in Chromium,
 * signer 2 types inside an iframe of another origin that records the posted messages.
 * The webhook receiver sees the events in order; downloadDocuments gives a zip whose PDFs
 * pdfsig reports valid and whole-document signed, with both signers' marks on them.
 * The server's own output never carries a signing token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { unzipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBrowser, closeServer } from './helpers/close.js';
import { launchTestBrowser } from './helpers/browser.js';
import { popplerInkIn } from './helpers/render.js';
import { repoRoot } from './helpers/cli.js';
import { pdfsig, tempDir, tool } from './helpers/signing.js';
import { watchPage } from './helpers/signing-page.js';
import { WebhookReceiver } from './helpers/workflow.js';

const Anvil = anvilModule.default;
const KEY = 'prod-e2e-key-0123456789';
const CAST = 'tplEngagement';

let tmp: { dir: string; remove: () => Promise<void> };
let hooks: WebhookReceiver;
let browser: Browser;
let child: ChildProcess;
let output = '';
let base = '';
let parent: http.Server;
let parentBase = '';
let frameSrc = 'about:blank';

async function pdfWith(lines: Array<{ text: string; y: number }>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  for (const l of lines) page.drawText(l.text, { x: 72, y: l.y, size: 12, font });
  return doc.save();
}

beforeAll(async () => {
  tmp = await tempDir('castpress-e2e-');
  // The template folder `--templates` reads: one folder per EID, a version file naming its PDF.
  // Its signature box comes from a text tag assigned to the client.
  const folder = path.join(tmp.dir, 'templates', CAST);
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, 'template.pdf'),
    await pdfWith([
      { text: 'Engagement letter', y: 720 },
      { text: 'Client:', y: 690 },
      { text: 'Signed: {{ signature ::: client }}', y: 500 },
    ]),
  );
  await writeFile(
    path.join(folder, 'v1.json'),
    JSON.stringify({
      title: 'Engagement letter',
      pdf: 'template.pdf',
      fields: [
        {
          id: 'clientName',
          alias: 'clientName',
          type: 'shortText',
          pageNum: 0,
          rect: { x: 120, y: 88, width: 250, height: 18 },
        },
      ],
    }),
  );
  await writeFile(path.join(tmp.dir, 'keys.json'), JSON.stringify({ keys: [{ key: KEY, kind: 'production' }] }));
  hooks = await WebhookReceiver.start();
  parent = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>host app</title><script>window.messages = [];
addEventListener('message', (e) => window.messages.push({ origin: e.origin, data: e.data }));</script>
<iframe id="signing" src="${frameSrc}" width="900" height="900"></iframe>`);
  });
  await new Promise<void>((r) => parent.listen(0, '127.0.0.1', r));
  parentBase = `http://127.0.0.1:${(parent.address() as AddressInfo).port}`;

  child = spawn(
    process.execPath,
    [
      path.join(repoRoot, 'bin', 'castpress.js'),
      'serve',
      '--port',
      '0',
      '--keys',
      path.join(tmp.dir, 'keys.json'),
      '--data',
      path.join(tmp.dir, 'data'),
      '--templates',
      path.join(tmp.dir, 'templates'),
      '--allow-host',
      hooks.host,
      '--frame-ancestor',
      parentBase,
      '--frame-ancestor',
      'https://other.example',
    ],
    { cwd: tmp.dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  base = await new Promise<string>((resolve, reject) => {
    const onData = (c: Buffer) => {
      output += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`castpress serve exited ${code}: ${output}`)));
  });
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await closeBrowser(browser);
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await hooks?.close();
  await closeServer(parent);
  await tmp?.remove();
}, 60_000);

interface CreatedPacket {
  eid: string;
  status: string;
  documentGroup: { eid: string; signers: Array<{ eid: string; aliasId: string; routingOrder: number }> };
}
type Gql = {
  statusCode: number;
  data?: { data?: { createEtchPacket: CreatedPacket } };
  errors?: Array<{ message: string }>;
};
const ok = (r: unknown) => {
  const g = r as Gql;
  expect(g.errors, JSON.stringify(g.errors)).toBeUndefined();
  expect(g.statusCode).toBe(200);
  return g.data!.data!;
};

const CLIENT_SIG = { x: 72, y: 300, width: 220, height: 50 };
const PROVIDER_SIG = { x: 320, y: 300, width: 220, height: 50 };

describe('packet end to end: castpress serve, @anvilco/anvil, two signers in Chromium', () => {
  it('creates, refuses signer 2 early, signs in order (drawn, then typed in an iframe), notifies, downloads sealed PDFs', async () => {
    const client = new Anvil({ apiKey: KEY, baseURL: base });
    const upload = await pdfWith([
      { text: 'Order form', y: 720 },
      { text: 'Client and provider sign below.', y: 700 },
    ]);
    const created = ok(
      await client.createEtchPacket({
        variables: {
          name: 'Engagement E2E',
          isDraft: false,
          isTest: true,
          webhookURL: hooks.url,
          files: [
            { id: 'letter', castEid: CAST },
            {
              id: 'order',
              title: 'Order form',
              file: Anvil.prepareGraphQLFile(Buffer.from(upload), {
                filename: 'order.pdf',
                mimetype: 'application/pdf',
              }),
              fields: [
                { id: 'clientSig', type: 'signature', pageNum: 0, rect: CLIENT_SIG },
                { id: 'providerSig', type: 'signature', pageNum: 0, rect: PROVIDER_SIG },
              ],
            },
            {
              id: 'terms',
              filename: 'terms.pdf',
              title: 'Terms',
              fontSize: 12,
              fields: [
                { heading: 'Terms' },
                { content: 'The provider initials here.' },
                { id: 'providerIni', type: 'initial', pageNum: 0, rect: { x: 72, y: 400, width: 60, height: 36 } },
                {
                  id: 'providerDate',
                  type: 'signatureDate',
                  pageNum: 0,
                  rect: { x: 150, y: 410, width: 120, height: 20 },
                },
              ],
            },
          ],
          signers: [
            {
              id: 'client',
              name: 'Ada Lovelace',
              email: 'ada@example.com',
              signerType: 'embedded',
              routingOrder: 1,
              fields: [{ fileId: 'order', fieldId: 'clientSig' }],
            },
            {
              id: 'provider',
              name: 'Bob Provider',
              email: 'bob@example.com',
              signerType: 'embedded',
              routingOrder: 2,
              signatureMode: 'text',
              fields: [
                { fileId: 'order', fieldId: 'providerSig' },
                { fileId: 'terms', fieldId: 'providerIni' },
                { fileId: 'terms', fieldId: 'providerDate' },
              ],
            },
          ],
          data: { payloads: { letter: { data: { clientName: 'Ada Lovelace' } } } },
        },
      }),
    ).createEtchPacket;
    expect(created.status).toBe('sent');
    const groupEid = created.documentGroup.eid;
    const signers = created.documentGroup.signers;
    const s1 = signers.find((s) => s.aliasId === 'client')!;
    const s2 = signers.find((s) => s.aliasId === 'provider')!;
    expect([s1.routingOrder, s2.routingOrder]).toEqual([1, 2]);

    const url = async (signerEid: string, user: string) => {
      const r = await client.generateEtchSignUrl({ variables: { signerEid, clientUserId: user } });
      expect(r.errors).toBeUndefined();
      return r.url!;
    };
    const tokens: string[] = [];
    const track = (u: string) => (tokens.push(new URL(u).searchParams.get('token')!), u);

    // Signer 2 before signer 1 has signed: refused (routing order), and not marked as viewed.
    const early = track(await url(s2.eid, 'u-bob'));
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const refused = await page.goto(early);
    expect(refused?.status()).toBe(409);
    await expect(page.textContent('h1')).resolves.toBe('Cannot sign now');
    await expect(page.textContent('main p')).resolves.toMatch(/Earlier signers in the routing order have not finished/);
    expect(await page.locator('#docs, #finish').count()).toBe(0);

    // Signer 1, desktop, mouse: two signature boxes (the template's tag and the upload's); drawn once.
    const { requests, errors } = watchPage(page);
    await page.goto(track(await url(s1.eid, 'u-ada')));
    await page.waitForFunction(() => document.body.classList.contains('loaded'), undefined, { timeout: 60_000 });
    await expect(page.textContent('#progress')).resolves.toBe('0 of 2 fields signed');
    await page.click('#next');
    await page.keyboard.press('Enter');
    const pad = (await page.locator('#pad').boundingBox())!;
    await page.mouse.move(pad.x + 30, pad.y + 110);
    await page.mouse.down();
    for (let i = 1; i <= 14; i++)
      await page.mouse.move(pad.x + 30 + i * 22, pad.y + 110 - 50 * Math.sin(i / 2), { steps: 2 });
    await page.mouse.up();
    await page.click('#adopt-ok');
    await page.click('#next');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('status')!.className === 'done', undefined, {
      timeout: 60_000,
    });
    expect(errors, errors.join('\n')).toEqual([]);
    expect(
      requests.every((r) => r.startsWith(base) || r.startsWith('data:')),
      requests.join('\n'),
    ).toBe(true);
    await page.close();

    // Signer 2, typed, inside an iframe of the host app (an origin allowed with --frame-ancestor).
    frameSrc = `${track(await url(s2.eid, 'u-bob'))}&withinIframe=true`;
    const host = await browser.newPage({ viewport: { width: 1000, height: 1000 } });
    const { errors: hostErrors } = watchPage(host);
    await host.goto(parentBase);
    const frame = host.frameLocator('#signing');
    await frame.locator('body.loaded').waitFor({ timeout: 60_000 });
    await frame.locator('[data-field="providerSig"]').click();
    await expect(frame.locator('#typed').inputValue()).resolves.toBe('Bob Provider');
    await frame.locator('#adopt-ok').click();
    await frame.locator('[data-field="providerIni"]').click();
    await expect(frame.locator('#typed').inputValue()).resolves.toBe('BP');
    await frame.locator('#adopt-ok').click();
    await host.waitForFunction(
      () =>
        (window as unknown as { messages: Array<{ data: { action: string } }> }).messages.some(
          (m) => m.data.action === 'signerComplete',
        ),
      undefined,
      { timeout: 60_000 },
    );
    const messages = (await host.evaluate(() => (window as unknown as { messages: unknown[] }).messages)) as Array<{
      origin: string;
      data: Record<string, unknown>;
    }>;
    expect(messages.map((m) => m.data.action)).toEqual(['signerLoad', 'signerSign', 'signerComplete']);
    expect(messages.every((m) => m.origin === base)).toBe(true);
    expect(messages[2]!.data).toMatchObject({
      signerEid: s2.eid,
      signerStatus: 'completed',
      documentGroupStatus: 'completed',
      etchPacketEid: created.eid,
      nextSignerEid: null,
    });
    expect(hostErrors, hostErrors.join('\n')).toEqual([]);
    await host.close();

    // Webhooks, in the order of the steps that caused them. The last signer's signerComplete and
    // etchPacketComplete come from one step (one transaction) and the dispatcher delivers a step's
    // events concurrently, so those two may arrive in either order.
    for (let i = 0; i < 200 && hooks.accepted().length < 5; i++) await new Promise((r) => setTimeout(r, 50));
    const events = hooks
      .accepted()
      .map((h) => `${h.body.action}:${(h.body.data as { signerEid?: string }).signerEid ?? ''}`);
    expect(events.slice(0, 3)).toEqual([
      `signerUpdateStatus:${s1.eid}`,
      `signerComplete:${s1.eid}`,
      `signerUpdateStatus:${s2.eid}`,
    ]);
    expect(events.slice(3).sort()).toEqual(['etchPacketComplete:', `signerComplete:${s2.eid}`]);
    expect(events).toHaveLength(5);

    // The documents: every PDF sealed over the whole file; both signers' marks on the order form.
    const zip = (await client.downloadDocuments(groupEid)) as unknown as {
      statusCode: number;
      data: Buffer;
      errors?: unknown;
    };
    expect(zip.errors).toBeUndefined();
    expect(zip.statusCode).toBe(200);
    const entries = unzipSync(new Uint8Array(zip.data));
    expect(Object.keys(entries)).toHaveLength(3);
    for (const [name, bytes] of Object.entries(entries)) {
      const file = path.join(tmp.dir, name);
      await writeFile(file, bytes);
      const report = await pdfsig(file);
      expect(report.signatures.length, report.text).toBeGreaterThan(0);
      expect(report.signatures.at(-1)!.valid, report.text).toBe(true);
      expect(report.signatures.at(-1)!.total, report.text).toBe(true);
      const text = (await tool('pdftotext', ['-layout', file, '-'])).stdout;
      // The certificate of completion names both signers.
      expect(text, name).toContain('Ada Lovelace');
      expect(text, name).toContain('Bob Provider');
    }
    const order = path.join(
      tmp.dir,
      Object.keys(entries).find((n) => /order/.test(n))!,
    );
    const blank = await popplerInkIn(order, { x: 72, y: 420, width: 220, height: 50 });
    expect(blank).toBe(0);
    expect(await popplerInkIn(order, CLIENT_SIG)).toBeGreaterThan(50); // the drawn signature
    expect(await popplerInkIn(order, PROVIDER_SIG)).toBeGreaterThan(50); // the typed one
    const letter = (
      await tool('pdftotext', [
        '-layout',
        path.join(
          tmp.dir,
          Object.keys(entries).find((n) => /ngagement|letter/i.test(n))!,
        ),
        '-',
      ])
    ).stdout;
    expect(letter).toContain('Engagement letter');

    // No signing token in anything the server printed (request logs drop query strings).
    expect(output.length).toBeGreaterThan(0);
    for (const t of tokens) expect(output.includes(t)).toBe(false);
  }, 300_000);
});
