/**
 * `requireNameOnLoad` with `allowNameChange` (the spec: "a modal forces the signer to enter a legal
 * name on opening"; "signer may edit own name while signing"): the name typed in the modal is the one
 * the completed documents (the fullName field and the certificate of completion) and `signer.name`
 * carry. Both set on the signer object (accept-each-field flow) and both from the organization's
 * signer defaults in the `--org` file (document-list flow), through `castpress serve`, the official
 * client and the signing page in Chromium.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchTestBrowser } from './helpers/browser.js';
import { closeBrowser } from './helpers/close.js';
import { startServe, stopServe, type ServeProcess } from './helpers/serve.js';
import { drawOn, watchPage } from './helpers/signing-page.js';
import { tempDir, tool } from './helpers/signing.js';

const Anvil = anvilModule.default;
const PLAIN_KEY = 'prod-plain-key-0123456789';
const DEFAULTS_KEY = 'prod-defaults-key-0123456789';
const CREATED = 'Casey Creation';
const TYPED = 'Theodora Typed-Legal';
const TYPED_EMAIL = 'theodora@legal.example';

let tmp: { dir: string; remove: () => Promise<void> };
let serve: ServeProcess;
let base = '';
let browser: Browser;

beforeAll(async () => {
  tmp = await tempDir('castpress-name-on-load-');
  await writeFile(
    path.join(tmp.dir, 'keys.json'),
    JSON.stringify({
      keys: [
        { key: PLAIN_KEY, kind: 'production', organization: 'plain' },
        { key: DEFAULTS_KEY, kind: 'production', organization: 'defaults' },
      ],
    }),
  );
  await writeFile(
    path.join(tmp.dir, 'org.json'),
    JSON.stringify({
      organizations: {
        plain: { name: 'Plain Org' },
        defaults: { name: 'Defaults Org', signerDefaults: { allowNameChange: true, requireNameOnLoad: true } },
      },
    }),
  );
  serve = startServe([
    '--port',
    '0',
    '--keys',
    path.join(tmp.dir, 'keys.json'),
    '--data',
    path.join(tmp.dir, 'data'),
    '--org',
    path.join(tmp.dir, 'org.json'),
    '--log-level',
    'warn',
  ]);
  base = await serve.url;
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await closeBrowser(browser);
  if (serve) await stopServe(serve);
  await tmp?.remove();
}, 60_000);

interface Created {
  eid: string;
  documentGroup: { eid: string; signers: Array<{ eid: string }> };
}

async function createPacket(
  key: string,
  signer: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<Created> {
  const client = new Anvil({ apiKey: key, baseURL: base });
  const r = (await client.createEtchPacket({
    variables: {
      name: 'Name on load',
      isTest: true,
      ...extra,
      files: [
        {
          id: 'doc',
          filename: 'agreement.pdf',
          title: 'Agreement',
          fields: [
            { content: 'Agreement text.' },
            { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } },
            { id: 'who', type: 'fullName', pageNum: 0, rect: { x: 72, y: 360, width: 260, height: 20 } },
          ],
        },
      ],
      signers: [
        {
          id: 's1',
          name: CREATED,
          email: 'casey@example.com',
          signerType: 'embedded',
          fields: [
            { fileId: 'doc', fieldId: 'sig' },
            { fileId: 'doc', fieldId: 'who' },
          ],
          ...signer,
        },
      ],
    },
  })) as { errors?: unknown; data?: { data?: { createEtchPacket: Created } } };
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data!.data!.createEtchPacket;
}

/** What the service says afterwards: `signer.name` through `etchPacket`, and the text of every completed PDF. */
async function readBack(key: string, created: Created): Promise<{ name: string; email: string; texts: string[] }> {
  const client = new Anvil({ apiKey: key, baseURL: base });
  const got = (await client.getEtchPacket({
    variables: { eid: created.eid },
    responseQuery: `{ eid status documentGroup { eid status signers { eid name email status } } }`,
  })) as {
    errors?: unknown;
    data?: {
      data?: { etchPacket: { status: string; documentGroup: { signers: Array<{ name: string; email: string }> } } };
    };
  };
  expect(got.errors, JSON.stringify(got.errors)).toBeUndefined();
  const packet = got.data!.data!.etchPacket;
  expect(packet.status).toBe('complete');
  const zip = (await client.downloadDocuments(created.documentGroup.eid)) as unknown as {
    statusCode: number;
    data: Buffer;
  };
  expect(zip.statusCode).toBe(200);
  const texts: string[] = [];
  for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(zip.data)))) {
    const file = path.join(tmp.dir, `${created.eid}-${name}`);
    await writeFile(file, bytes);
    texts.push((await tool('pdftotext', ['-layout', file, '-'])).stdout);
  }
  const signer = packet.documentGroup.signers[0]!;
  return { name: signer.name, email: signer.email, texts };
}

async function openPage(key: string, created: Created) {
  const client = new Anvil({ apiKey: key, baseURL: base });
  const { url, errors: failed } = await client.generateEtchSignUrl({
    variables: { signerEid: created.documentGroup.signers[0]!.eid, clientUserId: 'u-casey' },
  });
  expect(failed).toBeUndefined();
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  const { errors } = watchPage(page);
  await page.goto(url!);
  // The modal asks first; the signer types their legal name.
  await page.locator('#onload').waitFor({ state: 'visible' });
  await page.fill('#onload-name', TYPED);
  if (await page.locator('#onload-email').count()) await page.fill('#onload-email', TYPED_EMAIL);
  await page.click('#onload-ok');
  await page.locator('#onload').waitFor({ state: 'hidden' });
  return { page, errors };
}

/**
 * Finish (and Confirm in the review of the marks, which the accept-each-field flow shows before it
 * signs), and wait until the page says it is signed, with no page error on the way.
 */
async function finish(page: Page, errors: string[], review = false): Promise<void> {
  await page.click('#finish');
  if (review) await page.click('#confirm-ok');
  await page.waitForFunction(() => document.getElementById('status')!.className === 'done', undefined, {
    timeout: 60_000,
  });
  expect(errors, errors.join('\n')).toEqual([]);
}

function expectTypedName(result: { name: string; texts: string[] }): void {
  expect(result.name).toBe(TYPED);
  const all = result.texts.join('\n');
  // The fullName field on the page and the certificate of completion.
  expect(all.split(TYPED).length - 1, all).toBeGreaterThanOrEqual(2);
  expect(all).not.toContain(CREATED);
}

describe('requireNameOnLoad with allowNameChange', () => {
  it('set on the signer (accept each field): the documents, the certificate and signer.name carry the typed name', async () => {
    const created = await createPacket(
      PLAIN_KEY,
      {
        requireNameOnLoad: true,
        allowNameChange: true,
        // The email goes the same way: entered in the modal, changeable in "Your details".
        requireEmailOnLoad: true,
        allowEmailChange: true,
        showFinishSigningButton: true,
      },
      // The consent text the page shows is the one the certificate quotes: both with the entered name.
      { signaturePageOptions: { signConsentText: 'I, {{signer.name}}, agree to sign.' } },
    );
    const { page, errors } = await openPage(PLAIN_KEY, created);
    try {
      await page.locator('body.loaded').waitFor({ timeout: 60_000 });
      // "Your details" shows what the signer entered, not the name the packet was created with.
      await expect.soft(page.inputValue('#my-name')).resolves.toBe(TYPED);
      await expect.soft(page.inputValue('#my-email')).resolves.toBe(TYPED_EMAIL);
      await expect.soft(page.textContent('#description')).resolves.toContain(`Signing as ${TYPED}.`);
      await expect.soft(page.textContent('.consent')).resolves.toBe(`I, ${TYPED}, agree to sign.`);
      await page.click('[data-field="sig"]');
      await page.click('#use-typed');
      await expect.soft(page.inputValue('#typed')).resolves.toBe(TYPED);
      await page.click('#adopt-ok');
      await finish(page, errors, true);
    } finally {
      await page.close();
    }
    const result = await readBack(PLAIN_KEY, created);
    expectTypedName(result);
    expect(result.email).toBe(TYPED_EMAIL);
    expect(result.texts.join('\n')).toContain(TYPED_EMAIL);
    expect(result.texts.join('\n')).not.toContain('casey@example.com');
  }, 180_000);

  it("from the organization's signer defaults in --org (document list): the typed name everywhere", async () => {
    const created = await createPacket(DEFAULTS_KEY, { acceptEachField: false });
    const { page, errors } = await openPage(DEFAULTS_KEY, created);
    try {
      await expect.soft(page.inputValue('#my-name')).resolves.toBe(TYPED);
      // The typed signature's default (behind "Type instead") is the entered name too.
      await expect.soft(page.inputValue('#typed')).resolves.toBe(TYPED);
      await drawOn(page, '#pad');
      await finish(page, errors);
    } finally {
      await page.close();
    }
    expectTypedName(await readBack(DEFAULTS_KEY, created));
  }, 180_000);

  it("a signer's own false overrides the organization's defaults: no modal, and the name cannot be changed", async () => {
    const created = await createPacket(DEFAULTS_KEY, { requireNameOnLoad: false, allowNameChange: false });
    const client = new Anvil({ apiKey: DEFAULTS_KEY, baseURL: base });
    const { url } = await client.generateEtchSignUrl({
      variables: { signerEid: created.documentGroup.signers[0]!.eid, clientUserId: 'u-casey' },
    });
    const page = await (await fetch(url!)).text();
    expect(page).not.toContain('id="onload"');
    expect(page).not.toContain('id="my-name"');
    const changed = await fetch(`${base}/sign/${created.documentGroup.signers[0]!.eid}/details`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: new URL(url!).searchParams.get('token'), name: TYPED }),
    });
    expect(changed.status).toBe(400);
    expect(await changed.text()).toMatch(/may not change their name/);
  }, 60_000);
});
