/**
 * Workflows (Welds): the example two-forge workflow (an applicant, then a reviewer, an "api"
 * party whose link the backend asks for) over two Markdown documents with two embedded signers. Both forms are filled in a real
 * Chromium (the applicant's with the keyboard only, an invalid value first to see the error beside
 * its field), the reviewer goes straight to signing from the last step, the page framed by another
 * origin posts weldComplete; both sign; the webhook receiver gets weldComplete with every documented
 * property, its documents download and their seals verify; weld(eid) through the Node client's
 * requestGraphQL lists the run at 100 %. Bad inputs are typed errors and change nothing.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LazyPacketBackend, openPacketBackend, type PacketBackend } from '../src/server/graphql/index.js';
import { LazyWorkflowBackend } from '../src/server/workflow-forms/index.js';
import { createSigningIdentity, verifyPdf } from '../src/signing/index.js';
import { loadWorkflows, WorkflowDefinitionError } from '../src/workflows/index.js';
import { closeBrowser } from './helpers/close.js';
import { launchTestBrowser } from './helpers/browser.js';
import { tempDir } from './helpers/signing.js';
import { startFrameHost, type FrameHost } from './helpers/welds-serve.js';
import { tokenOf, until, WebhookReceiver } from './helpers/workflow.js';
import { basic, PROD_KEY, startTestServer, type TestServer } from './server-setup.js';

const Anvil = anvilModule.default;
const EXAMPLE = path.join(import.meta.dirname, '..', 'examples', 'workflows', 'lease-application.json');
let server: TestServer;
let tmp: { dir: string; remove: () => Promise<void> };
let backend: PacketBackend;
let welds: LazyWorkflowBackend;
let hooks: WebhookReceiver;
let browser: Browser;
let parent: FrameHost;
let parentBase = '';
let frameSrc = '';

beforeAll(async () => {
  tmp = await tempDir('castpress-welds-');
  hooks = await WebhookReceiver.start();
  parent = await startFrameHost(() => frameSrc);
  parentBase = parent.base;
  const definition = JSON.parse(await readFile(EXAMPLE, 'utf8')) as Record<string, unknown>;
  await mkdir(path.join(tmp.dir, 'workflows', 'lease'), { recursive: true });
  await writeFile(
    path.join(tmp.dir, 'workflows', 'lease', 'v1.json'),
    JSON.stringify({ ...definition, webhookURL: hooks.url }),
  );
  let base = '';
  const packets = new LazyPacketBackend(async () => {
    backend = await openPacketBackend({
      dataDir: path.join(tmp.dir, 'data'),
      engine: server.engine,
      baseUrl: base,
      allowHosts: [hooks.host],
      pollMs: 50,
    });
    return backend;
  });
  welds = new LazyWorkflowBackend(await loadWorkflows(path.join(tmp.dir, 'workflows')), packets, {
    baseUrl: () => base,
    pollMs: 100,
  });
  // Every post of this file comes from 127.0.0.1, more than the default ten a minute of one address.
  server = await startTestServer({
    packets,
    welds,
    signingFrameAncestors: [parentBase],
    formRateLimit: { address: 100 },
  });
  base = server.base;
  browser = await launchTestBrowser();
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
  await server?.close();
  await hooks?.close();
  await parent?.close();
  await tmp?.remove();
}, 60_000);

const runsOf = async () => (await (await welds.get()).weld({ eid: 'weldLease01' })).weldDatas;

describe('a two-forge workflow', () => {
  let runEid = '';
  let runToken = '';

  it('fills both forms in Chromium, signs, and sends weldComplete with every documented property', async () => {
    const phone = { width: 375, height: 740 }; // CSS pixels of a phone screen, not a time
    const page = await browser.newPage({ viewport: phone });
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.base}/weld/lease-application`);
    expect(await page.title()).toContain('About you');
    // Keyboard only: Tab through the fields in reading order, Space ticks the box, Enter submits.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-fullName');
    await page.keyboard.type('Ada Applicant');
    await page.keyboard.press('Tab');
    await page.keyboard.type('not-an-email');
    await page.keyboard.press('Tab');
    // The date input's month, day and year parts advance by themselves as digits are typed.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-moveIn');
    await page.keyboard.type('01152027');
    // Tab walks the date's parts, then leaves it.
    for (let i = 0; i < 4 && (await page.evaluate(() => document.activeElement?.id)) === 'f-moveIn'; i++)
      await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-income');
    await page.keyboard.type('2500');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BUTTON');
    await Promise.all([page.waitForSelector('#problems'), page.keyboard.press('Enter')]);
    // The server refused the email: the form again, values kept, the error beside its field.
    const email = page.locator('#f-email');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#f-email-error').textContent()).toMatch(/email/i);
    expect(await page.locator('#f-fullName').inputValue()).toBe('Ada Applicant');
    expect(await runsOf()).toHaveLength(0);
    // Back to the email field by keyboard (the summary links to it), fix it, submit.
    await page.focus('body');
    await page.keyboard.press('Tab'); // the summary's link
    await page.keyboard.press('Enter');
    await email.press('Control+a');
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Enter');
    // The reviewer is an "api" party: the applicant's own done page, and the reviewer's link from the backend.
    await page.waitForURL(/\/weld\/lease-application\/done\?/);
    const applicantRun = new URL(page.url()).searchParams.get('run')!;
    await page.goto(await (await welds.get()).partyLink(applicantRun, 'reviewer'));
    expect(await page.title()).toContain('Review');
    // Layout, not time: nothing on the form is wider than the phone's screen (no sideways scrolling).
    const contentWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(contentWidth).toBeLessThanOrEqual(phone.width);

    // The reviewer with the mouse; the last step's address is framed by another origin.
    await page.check('#f-decision-0');
    await page.fill('#f-notes', 'Good references.');
    await page.fill('#f-reviewerName', 'Rex Reviewer');
    await page.fill('#f-reviewerEmail', 'rex@example.com');
    // The last post makes the packet (a Markdown document rendered in Chromium): on a loaded machine that
    // passed Playwright's default 30 s once; a ceiling, not a speed check.
    await Promise.all([page.waitForURL(/\/done\?/, { timeout: 120_000 }), page.click('button[type=submit]')]);
    const signNow = await page.locator('#sign-now').getAttribute('href');
    expect(signNow).toMatch(/\/sign\//);
    const done = new URL(page.url());
    runEid = done.searchParams.get('run')!;
    runToken = done.searchParams.get('t')!;
    // The refused form's 400 and the favicon's 404 are logged as failed loads; nothing else (no CSP refusal, no script error).
    expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);

    frameSrc = page.url();
    const host = await browser.newPage();
    await host.goto(parentBase);
    const messages = await until(
      () =>
        host.evaluate(
          () => (window as unknown as { messages: Array<{ origin: string; data: Record<string, string> }> }).messages,
        ),
      (m) => m.length > 0,
      30_000,
    );
    const submissionEid = done.searchParams.get('submission');
    expect(messages[0]!.origin).toBe(server.base);
    expect(messages[0]!.data).toEqual({
      action: 'weldComplete',
      organizationSlug: 'default',
      organizationEid: 'default',
      weldEid: 'weldLease01',
      weldDataEid: runEid,
      forgeEid: 'forgeReviewer01',
      submissionEid,
    });
    // Each load of the last page makes a signing link of its own and leaves the earlier ones valid: the
    // first page's link still signs after the framed copy loaded.
    const framedLink = await host.frames()[1]!.locator('#sign-now').getAttribute('href');
    expect(framedLink).toMatch(/\/sign\//);
    expect(framedLink).not.toBe(signNow);
    await host.close();

    // The reviewer signs from the first link; the applicant through an embedded URL.
    await backend.service.submitSigning({
      ...tokenOf(signNow!),
      inputs: { signature: { type: 'typed', text: 'Rex' } },
    });
    const run = (await runsOf()).find((r) => r.eid === runEid)!;
    expect(run.status).toBe('sent');
    expect(run.completionPercentage).toBe(75);
    const { run: wd } = await (await welds.get()).link('lease-application', runEid, runToken);
    const applicant = (await backend.store.signers(wd.packetEid!)).find((s) => s.aliasId === 'applicant')!;
    const url = await backend.service.generateEtchSignURL({ signerEid: applicant.eid, clientUserId: 'ada' });
    await backend.service.submitSigning({ ...tokenOf(url), inputs: { signature: { type: 'typed', text: 'Ada' } } });

    const [hook] = await until(
      () => hooks.accepted('weldComplete'),
      (h) => h.length > 0,
    );
    const data = hook!.body.data as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual([
      'documents',
      'eid',
      'forges',
      'isComplete',
      'isTest',
      'submissions',
      'weld',
    ]);
    expect(data).toMatchObject({
      isComplete: true,
      isTest: true,
      eid: runEid,
      weld: { eid: 'weldLease01', slug: 'lease-application' },
      forges: {
        applicant: { eid: 'forgeApplicant01', name: 'About you' },
        reviewer: { eid: 'forgeReviewer01', name: 'Review' },
      },
    });
    const submissions = data.submissions as Record<string, { eid: string; resolvedPayload: Record<string, unknown> }>;
    expect(submissions.reviewer!.eid).toBe(submissionEid);
    expect(submissions.applicant!.resolvedPayload).toEqual({
      fullName: { type: 'shortText', value: 'Ada Applicant', label: 'Full name' },
      email: { type: 'email', value: 'ada@example.com', label: 'Email' },
      moveIn: { type: 'date', value: '2027-01-15', label: 'Move-in date' },
      income: { type: 'dollar', value: '2500', label: 'Monthly income' },
      agree: { type: 'checkbox', value: true, label: 'The information above is true' },
    });
    expect(submissions.reviewer!.resolvedPayload.decision).toEqual({
      type: 'radioGroup',
      value: 'approve',
      label: 'Decision',
    });

    // Every document downloads, each sealed and valid.
    const root = await readFile(
      (await createSigningIdentity({ dataDir: path.join(tmp.dir, 'data') })).files!.rootCertificate,
      'utf8',
    );
    const documents = data.documents as Array<{ type: string; url: string }>;
    const pdfs = documents.filter((d) => d.type === 'application/pdf');
    expect(pdfs).toHaveLength(2);
    expect(documents.some((d) => d.type === 'application/zip')).toBe(true);
    for (const d of documents) {
      const res = await fetch(d.url, { headers: { authorization: basic(PROD_KEY) } });
      expect(res.status).toBe(200);
      if (d.type !== 'application/pdf') continue;
      const verified = await verifyPdf(new Uint8Array(await res.arrayBuffer()), { trustAnchors: [root] });
      expect(verified.signatures.length).toBeGreaterThan(0);
      expect(verified.signatures.every((s) => s.signatureValid && s.digestMatches)).toBe(true);
    }

    // weld(eid) through the official client.
    const client = new Anvil({ apiKey: PROD_KEY, baseURL: server.base });
    const answer = (await client.requestGraphQL(
      {
        query:
          'query($eid: String){ weld(eid: $eid){ eid title weldDatas{ eid status createdAt displayTitle completionPercentage } } }',
        variables: { eid: 'weldLease01' },
      },
      { dataType: 'json' },
    )) as unknown as { statusCode: number; data: { data: { weld: Record<string, unknown> } } };
    expect(answer.statusCode).toBe(200);
    expect(answer.data.data.weld).toMatchObject({ eid: 'weldLease01', title: 'Lease application' });
    const listed = (answer.data.data.weld.weldDatas as Array<Record<string, unknown>>).find((r) => r.eid === runEid);
    expect(listed).toMatchObject({
      status: 'completed',
      displayTitle: 'Lease application: Ada Applicant',
      completionPercentage: 100,
    });
    expect(typeof listed!.createdAt).toBe('string');
    await page.close();
  }, 240_000);

  it('bad input is a typed error and changes nothing', async () => {
    const post = (forge: string, form: Record<string, string>, extra = '') =>
      fetch(`${server.base}/weld/lease-application/${forge}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(form).toString() + extra,
      });
    const good = { fullName: 'Bo', email: 'bo@example.com', income: '10', agree: 'on' };
    const before = await runsOf();
    const sub = (n: number) => `sub_${String(n).padStart(22, 'x')}`;
    const cases: Array<[Response, number, string, string]> = [
      [await post('nope', { ...good, submissionEid: sub(1) }), 404, 'NotFoundError', 'forge'],
      [await post('applicant', { ...good, colour: 'red', submissionEid: sub(2) }), 400, 'ValidationError', 'colour'],
      [await post('applicant', { ...good, income: 'lots', submissionEid: sub(3) }), 400, 'ValidationError', 'income'],
      [await post('applicant', { ...good }), 400, 'ValidationError', 'submissionEid'],
      [
        await post('applicant', { ...good, submissionEid: sub(4) }, `&fullName=${'x'.repeat(70_000)}`),
        413,
        'PayloadTooLargeError',
        'body',
      ],
      // The reviewer's form of a finished run, and a run's form without its token.
      [
        await post('reviewer', {
          weldDataEid: runEid,
          t: runToken,
          decision: 'approve',
          reviewerName: 'R',
          reviewerEmail: 'r@example.com',
          submissionEid: sub(5),
        }),
        409,
        'SubmissionConflictError',
        'forge',
      ],
      [
        await post('reviewer', {
          weldDataEid: runEid,
          t: 'wrong',
          decision: 'approve',
          reviewerName: 'R',
          reviewerEmail: 'r@example.com',
          submissionEid: sub(6),
        }),
        404,
        'NotFoundError',
        'weldDataEid',
      ],
    ];
    for (const [res, status, name, property] of cases) {
      const body = (await res.json()) as { name: string; fields: Array<{ property: string }> };
      expect([res.status, body.name], JSON.stringify(body)).toEqual([status, name]);
      expect(body.fields.map((f) => f.property)).toContain(property);
    }
    expect(await runsOf()).toEqual(before);

    // A form posted twice (a double click or a replay): the second is a 409 and the run keeps one submission.
    const first = await post('applicant', { ...good, submissionEid: sub(7) });
    expect(first.status).toBe(201);
    const again = await post('applicant', { ...good, submissionEid: sub(7) });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { name: string }).name).toBe('SubmissionConflictError');
    const after = await runsOf();
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)!.completionPercentage).toBe(25);
  }, 60_000);

  it('a bad definition stops the start with the file and property named', async () => {
    const dir = path.join(tmp.dir, 'bad-workflows');
    await mkdir(dir, { recursive: true });
    const definition = JSON.parse(await readFile(EXAMPLE, 'utf8')) as {
      forges: Array<{ fields: Array<Record<string, unknown>> }>;
      packet: { name: string };
    };
    definition.forges[0]!.fields[1]!.type = 'colour';
    definition.packet.name = 'Lease for {{applicant.nickname}}';
    await writeFile(path.join(dir, 'broken.json'), JSON.stringify(definition));
    const e = await loadWorkflows(dir).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(WorkflowDefinitionError);
    expect((e as WorkflowDefinitionError).message).toContain('broken.json');
    expect((e as WorkflowDefinitionError).fields.map((f) => f.property)).toEqual(['forges[0].fields[1].type']);
    definition.forges[0]!.fields[1]!.type = 'email';
    await writeFile(path.join(dir, 'broken.json'), JSON.stringify(definition));
    const e2 = (await loadWorkflows(dir).catch((x: unknown) => x)) as WorkflowDefinitionError;
    expect(e2.fields).toEqual([{ property: 'packet.name', message: 'Forge "applicant" has no field "nickname"' }]);
  });
});
