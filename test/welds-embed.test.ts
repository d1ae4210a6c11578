/**
 * Workflow forms are embeddable by default (one framing policy for every embeddable page, src/server/org
 * policy.ts): `castpress serve` with no framing flag, a page of another loopback origin frames
 * `/weld/<slug>` in Chromium, the form loads, is submitted, and the parent receives the spec's
 * `weldComplete` message. An organization's `embedOrigins` (`--org`) narrows its forms as it narrows
 * its signing pages.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBrowser } from './helpers/close.js';
import { launchTestBrowser } from './helpers/browser.js';
import { tempDir } from './helpers/signing.js';
import { startFrameHost, startWorkflowServe, type FrameHost, type WorkflowServe } from './helpers/welds-serve.js';
import { until } from './helpers/workflow.js';

let tmp: { dir: string; remove: () => Promise<void> };
let serve: WorkflowServe;
let base = '';
let browser: Browser;
let parent: FrameHost;
let frameSrc = '';

const workflow = (eid: string, slug: string, organization: string) => ({
  eid,
  slug,
  title: 'Intake',
  organization,
  forges: [
    {
      eid: `${eid}Forge`,
      slug: 'one',
      name: 'About you',
      fields: [{ name: 'fullName', type: 'shortText', label: 'Full name', required: true }],
    },
  ],
  packet: {
    name: 'Intake of {{one.fullName}}',
    isTest: true,
    files: [
      {
        id: 'doc',
        filename: 'intake.pdf',
        title: 'Intake',
        fields: [
          { content: 'Name: {{one.fullName}}' },
          { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } },
        ],
      },
    ],
    signers: [
      {
        id: 'p',
        forge: 'one',
        name: '{{one.fullName}}',
        email: 'p@example.com',
        signerType: 'embedded',
        fields: [{ fileId: 'doc', fieldId: 'sig' }],
      },
    ],
  },
});

beforeAll(async () => {
  tmp = await tempDir('castpress-welds-embed-');
  parent = await startFrameHost(() => frameSrc);
  const wf = path.join(tmp.dir, 'workflows');
  await mkdir(wf);
  await writeFile(path.join(wf, 'open.json'), JSON.stringify(workflow('weldOpen01', 'open-intake', 'default')));
  await writeFile(path.join(wf, 'narrow.json'), JSON.stringify(workflow('weldNarrow01', 'narrow-intake', 'narrow')));
  const org = path.join(tmp.dir, 'org.json');
  await writeFile(
    org,
    JSON.stringify({
      organizations: {
        default: { name: 'Open' },
        narrow: { name: 'Narrow', embedOrigins: ['https://app.narrow.example'] },
      },
    }),
  );
  serve = await startWorkflowServe(
    tmp.dir,
    [
      { key: 'embed-default-key-0123456789', kind: 'production' },
      { key: 'embed-narrow-key-0123456789', kind: 'production', organization: 'narrow' },
    ],
    ['--org', org, '--workflows', wf],
  );
  base = serve.base;
  browser = await launchTestBrowser();
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
  await serve?.close();
  await parent?.close();
  await tmp?.remove();
}, 60_000);

describe('workflow forms in an iframe', () => {
  it('another origin frames /weld/<slug> by default: the form loads, is submitted, the parent gets weldComplete', async () => {
    frameSrc = `${base}/weld/open-intake`;
    const page = await browser.newPage();
    try {
      await page.goto(parent.base);
      const frame = page.frameLocator('iframe');
      await frame.locator('#f-fullName').fill('Ada Embedded');
      await frame.locator('button[type=submit]').click();
      const messages = await until(
        () =>
          page.evaluate(
            () => (window as unknown as { messages: Array<{ origin: string; data: Record<string, string> }> }).messages,
          ),
        (m) => m.length > 0,
      );
      expect(messages[0]!.origin).toBe(new URL(base).origin);
      expect(messages[0]!.data).toMatchObject({
        action: 'weldComplete',
        organizationEid: 'default',
        weldEid: 'weldOpen01',
        forgeEid: 'weldOpen01Forge',
      });
      expect(messages[0]!.data.weldDataEid).toMatch(/^wd_/);
      expect(messages[0]!.data.submissionEid).toMatch(/^sub_/);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("an organization's embedOrigins narrows its forms' framing, as its signing pages'", async () => {
    const open = await fetch(`${base}/weld/open-intake`);
    expect(open.headers.get('content-security-policy')).toMatch(/frame-ancestors \*$/);
    const narrow = await fetch(`${base}/weld/narrow-intake`);
    expect(narrow.status).toBe(200);
    expect(narrow.headers.get('content-security-policy')).toMatch(
      /frame-ancestors 'self' https:\/\/app\.narrow\.example$/,
    );
  }, 60_000);
});
