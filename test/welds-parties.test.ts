/**
 * Who a workflow link is for: a two-party workflow (an applicant, then a reviewer the applicant names
 * by email) and embedded signers. The applicant's link opens only the applicant's form, done page and
 * signer; the reviewer gets a link of their own by mail (real SMTP: a sink on loopback) that opens only
 * theirs; a link is bound to its workflow and organization; reloading the done page leaves the earlier
 * signing link valid. An "api" party's link comes from the service for the run's organization only. An
 * email signer's address typed into a form gets a confirmation mail (nothing typed in it but the
 * address) and no packet mail until its owner confirms; a trusted one is mailed at once.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../src/errors/index.js';
import { parseOrganizationFile } from '../src/packets/index.js';
import { LazyPacketBackend, openPacketBackend, type PacketBackend } from '../src/server/graphql/index.js';
import { LazyWorkflowBackend } from '../src/server/workflow-forms/index.js';
import { loadWorkflows } from '../src/workflows/index.js';
import { tempDir } from './helpers/signing.js';
import { SmtpSink, tokenOf, until, WebhookReceiver, type SunkMail } from './helpers/workflow.js';
import { basic, startTestServer, type TestServer } from './server-setup.js';

let server: TestServer;
let tmp: { dir: string; remove: () => Promise<void> };
let backend: PacketBackend;
let welds: LazyWorkflowBackend;
let sink: SmtpSink;
let hooks: WebhookReceiver;
const ACME_KEY = 'prod-acme-0123456789';

/** Markup a visitor types into a name: it must never reach a mail. */
const TYPED_NAME = 'Ada <a href="https://evil.example">Click</a>';

async function pdfFile(): Promise<Record<string, unknown>> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  return {
    id: 'doc',
    file: { data: Buffer.from(await doc.save()).toString('base64'), filename: 'doc.pdf' },
    fields: [
      { id: 'sigA', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 30 } },
      { id: 'sigB', type: 'signature', pageNum: 0, rect: { x: 320, y: 300, width: 200, height: 30 } },
    ],
  };
}

const applicantForge = {
  eid: 'fApplicant',
  slug: 'applicant',
  name: 'About you',
  fields: [
    { name: 'fullName', type: 'shortText', label: 'Full name', required: true },
    { name: 'email', type: 'email', label: 'Email', required: true },
    { name: 'reviewerEmail', type: 'email', label: 'Reviewer email', required: true },
  ],
};
const decision = {
  name: 'decision',
  type: 'radioGroup',
  label: 'Decision',
  required: true,
  options: [
    { id: 'approve', label: 'Approve' },
    { id: 'decline', label: 'Decline' },
  ],
};

async function twoParty(eid: string, slug: string, organization: string, assignee: unknown) {
  return {
    eid,
    slug,
    title: `Review ${slug}`,
    organization,
    forges: [applicantForge, { eid: 'fReviewer', slug: 'reviewer', name: 'Review', assignee, fields: [decision] }],
    packet: {
      name: 'Lease for {{applicant.fullName}}',
      files: [await pdfFile()],
      signers: [
        {
          id: 'applicant',
          forge: 'applicant',
          name: '{{applicant.fullName}}',
          email: '{{applicant.email}}',
          signerType: 'embedded',
          routingOrder: 1,
          fields: [{ fileId: 'doc', fieldId: 'sigA' }],
        },
        {
          id: 'reviewer',
          forge: 'reviewer',
          name: 'Rex Reviewer',
          email: '{{applicant.reviewerEmail}}',
          signerType: 'embedded',
          routingOrder: 1,
          fields: [{ fileId: 'doc', fieldId: 'sigB' }],
        },
      ],
    },
  };
}

async function mailedSigner(eid: string, slug: string, trusted: boolean) {
  return {
    eid,
    slug,
    title: `Mailed ${slug}`,
    organization: 'acme',
    forges: [applicantForge],
    packet: {
      name: 'Lease for {{applicant.fullName}}',
      files: [await pdfFile()],
      signers: [
        {
          id: 'applicant',
          name: '{{applicant.fullName}}',
          email: '{{applicant.email}}',
          ...(trusted ? { emailTrusted: true } : {}),
          fields: [
            { fileId: 'doc', fieldId: 'sigA' },
            { fileId: 'doc', fieldId: 'sigB' },
          ],
        },
      ],
    },
  };
}

beforeAll(async () => {
  tmp = await tempDir('castpress-welds-parties-');
  sink = await SmtpSink.start();
  hooks = await WebhookReceiver.start();
  const organizations = parseOrganizationFile({
    organizations: { acme: { name: 'Acme Rentals', webhook: { url: hooks.url } }, globex: { name: 'Globex' } },
  });
  const wf = path.join(tmp.dir, 'workflows');
  await mkdir(wf, { recursive: true });
  const files: Record<string, unknown> = {
    'review.json': await twoParty('weldReview', 'review', 'acme', { email: '{{applicant.reviewerEmail}}' }),
    'approval.json': await twoParty('weldApproval', 'approval', 'acme', 'api'),
    'globex.json': await twoParty('weldGlobex', 'globex-review', 'globex', 'api'),
    'mailed.json': await mailedSigner('weldMailed', 'mailed', false),
    'trusted.json': await mailedSigner('weldTrusted', 'trusted', true),
    'never.json': { ...(await mailedSigner('weldNever', 'never', true)) },
  };
  for (const [name, def] of Object.entries(files)) await writeFile(path.join(wf, name), JSON.stringify(def));
  let base = '';
  const packets = new LazyPacketBackend(async () => {
    backend = await openPacketBackend({
      dataDir: path.join(tmp.dir, 'data'),
      engine: server.engine,
      baseUrl: base,
      organizations,
      smtp: `127.0.0.1:${sink.port}`,
      allowHosts: [hooks.host],
      pollMs: 50,
    });
    return backend;
  });
  // One attempt at a packet: a run whose packet cannot be made fails at once (the waits are welds-store.test.ts's).
  welds = new LazyWorkflowBackend(await loadWorkflows(wf), packets, {
    baseUrl: () => base,
    organizations,
    pollMs: 0,
    retry: { maxAttempts: 1 },
  });
  server = await startTestServer({
    packets,
    welds,
    organizations,
    config: { keys: [{ key: ACME_KEY, kind: 'production', organization: 'acme' }] },
    // Every post of this file comes from one address: more than a person's ten a minute.
    formRateLimit: { address: 100 },
  });
  base = server.base;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await sink?.close();
  await hooks?.close();
  await tmp?.remove();
}, 60_000);

const json = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };

/** A form's one-time submission id, read from the rendered form. */
async function formId(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return /name="submissionEid" value="([^"]+)"/.exec(await res.text())![1]!;
}

/** Posts a forge as a client asking for JSON. */
function post(slug: string, forge: string, form: Record<string, string>): Promise<Response> {
  return fetch(`${server.base}/weld/${slug}/${forge}`, {
    method: 'POST',
    headers: json,
    body: new URLSearchParams(form).toString(),
  });
}

/** Starts a run of `slug` as the applicant; the 201's `next` (absolute) and the run and token in it. */
async function apply(slug: string, email: string, reviewerEmail: string) {
  const res = await post(slug, 'applicant', {
    fullName: TYPED_NAME,
    email,
    reviewerEmail,
    submissionEid: await formId(`${server.base}/weld/${slug}`),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { next: string; weldDataEid: string; status: string };
  const next = new URL(`${server.base}${body.next}`);
  return { next, run: next.searchParams.get('run')!, t: next.searchParams.get('t')!, status: body.status };
}

/** A mail's text with quoted-printable undone. */
const textOf = (m: SunkMail): string =>
  m.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The one workflow link in a mail. */
function weldLinkIn(m: SunkMail): URL {
  const found = /https?:\/\/[^\s"<>]+\/weld\/[^\s"<>]+/.exec(textOf(m));
  if (!found) throw new Error(`No workflow link in:\n${textOf(m)}`);
  return new URL(found[0]);
}

const signNowIn = (html: string): string | undefined =>
  /id="sign-now" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');

async function aliasOf(signUrl: string): Promise<string | undefined> {
  return (await backend.store.signer(tokenOf(signUrl).signerEid))?.aliasId;
}

/** A 404's typed error with the run eid taken out: every refused link must answer the same. */
async function refusal(res: Response): Promise<unknown> {
  const body = (await res.json()) as { name: string; message: string; fields: Array<{ property: string }> };
  return [res.status, body.name, body.fields.map((f) => f.property), body.message.replace(/"[^"]*"/, '"…"')];
}

describe('workflow links are per party', () => {
  it('the applicant’s link opens only the applicant’s form and signer; the reviewer’s mailed link only theirs', async () => {
    const applicant = await apply('review', 'ada@example.com', 'rex@example.com');
    // The reviewer is another party: the applicant's next page is their own done page, not the reviewer's form.
    expect(applicant.next.pathname).toBe('/weld/review/done');
    const asApplicant = (path: string, extra: Record<string, string> = {}) =>
      fetch(`${server.base}${path}?${new URLSearchParams({ run: applicant.run, t: applicant.t, ...extra })}`, {
        headers: { accept: 'application/json' },
      });
    const unknownRun = await refusal(
      await fetch(`${server.base}/weld/review/reviewer?run=wd_nope&t=x`, { headers: { accept: 'application/json' } }),
    );
    expect(await refusal(await asApplicant('/weld/review/reviewer'))).toEqual(unknownRun);
    // Posting the reviewer's form with the applicant's link is refused the same way; nothing is stored.
    const forged = await post('review', 'reviewer', {
      weldDataEid: applicant.run,
      t: applicant.t,
      decision: 'approve',
      submissionEid: (await welds.get()).newSubmissionEid(),
    });
    expect(await refusal(forged)).toEqual(unknownRun);
    expect(await backend.store.welds.submissions(applicant.run)).toHaveLength(1);

    // A link is bound to its workflow and organization: another workflow's slug (same organization or not) is the 404.
    expect(await refusal(await asApplicant('/weld/approval/done'))).toEqual(unknownRun);
    expect(await refusal(await asApplicant('/weld/globex-review/done'))).toEqual(unknownRun);
    expect(await refusal(await asApplicant('/weld/globex-review/applicant'))).toEqual(unknownRun);

    // The reviewer's link arrives by mail at the address the applicant gave, with nothing the applicant typed in it.
    const [mail] = await until(
      () => sink.to('rex@example.com'),
      (m) => m.length > 0,
    );
    expect(textOf(mail!)).not.toContain('Ada');
    expect(textOf(mail!)).not.toContain('evil.example');
    const reviewerLink = weldLinkIn(mail!);
    expect(reviewerLink.pathname).toBe('/weld/review/reviewer');
    const reviewer = { run: reviewerLink.searchParams.get('run')!, t: reviewerLink.searchParams.get('t')! };
    expect(reviewer.run).toBe(applicant.run);
    // The reviewer's link opens the reviewer's form, not the applicant's.
    const wrongWay = await fetch(`${server.base}/weld/review/applicant?${new URLSearchParams(reviewer)}`, {
      headers: { accept: 'application/json' },
    });
    expect(await refusal(wrongWay)).toEqual(unknownRun);
    const submitted = await post('review', 'reviewer', {
      weldDataEid: reviewer.run,
      t: reviewer.t,
      decision: 'approve',
      submissionEid: await formId(reviewerLink.toString()),
    });
    expect(submitted.status).toBe(201);
    const reviewerDone = `${server.base}${((await submitted.json()) as { next: string }).next}`;

    // Sign now: the applicant's link gives the applicant's signer, even on the reviewer's done page address.
    const applicantPage = await (await asApplicant('/weld/review/done', { forge: 'reviewer' })).text();
    const applicantSign = signNowIn(applicantPage);
    expect(applicantSign).toBeDefined();
    expect(await aliasOf(applicantSign!)).toBe('applicant');
    const reviewerSign = signNowIn(await (await fetch(reviewerDone)).text());
    expect(await aliasOf(reviewerSign!)).toBe('reviewer');

    // Reloading the done page makes a new link and leaves the first one valid: the first one signs.
    const again = signNowIn(await (await fetch(reviewerDone)).text());
    expect(again).toBeDefined();
    expect(again).not.toBe(reviewerSign);
    await backend.service.submitSigning({
      ...tokenOf(reviewerSign!),
      inputs: { signature: { type: 'typed', text: 'Rex' } },
    });
    const signer = await backend.store.signer(tokenOf(reviewerSign!).signerEid);
    expect(signer!.status).toBe('completed');
  }, 120_000);

  it('an "api" party’s link comes from the service, for the run’s organization only', async () => {
    const applicant = await apply('approval', 'bo@example.com', 'ray@example.com');
    expect(applicant.next.pathname).toBe('/weld/approval/done');
    const service = await welds.get();
    const foreign = await service
      .partyLink(applicant.run, 'reviewer', { organization: 'globex', testOnly: false })
      .catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(NotFoundError);
    const link = new URL(await service.partyLink(applicant.run, 'reviewer', { organization: 'acme', testOnly: false }));
    expect(link.pathname).toBe('/weld/approval/reviewer');
    expect((await fetch(link)).status).toBe(200);
    // The applicant's own form is not the reviewer's to open.
    const back = await fetch(`${server.base}/weld/approval/applicant${link.search}`, {
      headers: { accept: 'application/json' },
    });
    expect(back.status).toBe(404);
    // No mail for an "api" party; the applicant's forge is no api party's; once submitted, the turn is over.
    expect(sink.to('ray@example.com')).toEqual([]);
    const acme = { organization: 'acme', testOnly: false };
    expect(await service.partyLink(applicant.run, 'applicant', acme).catch((e: unknown) => e)).toMatchObject({
      name: 'ValidationError',
    });
    const sent = await post('approval', 'reviewer', {
      weldDataEid: applicant.run,
      t: link.searchParams.get('t')!,
      decision: 'decline',
      submissionEid: await formId(link.toString()),
    });
    expect(sent.status).toBe(201);
    expect(await service.partyLink(applicant.run, 'reviewer', acme).catch((e: unknown) => e)).toMatchObject({
      name: 'SubmissionConflictError',
    });
  }, 60_000);
});

describe('mail to an address a visitor typed', () => {
  it('waits for its owner to confirm it; the confirmation mail holds nothing typed but the address', async () => {
    const run = await apply('mailed', 'victim@example.com', 'unused@example.com');
    expect(run.status).toBe('confirming');
    // No packet yet, so no packet mail can go to the typed address.
    expect((await backend.store.welds.weldData(run.run))!.packetEid).toBeNull();
    const [confirm] = await until(
      () => sink.to('victim@example.com'),
      (m) => m.length > 0,
    );
    const text = textOf(confirm!);
    expect(text).toContain('victim@example.com');
    expect(text).not.toContain('Ada');
    expect(text).not.toContain('evil.example');
    expect(text).not.toContain('Lease for');
    const link = weldLinkIn(confirm!);
    expect(link.pathname).toBe('/weld/mailed/confirm');
    // Opening the link (as a mail scanner would) confirms nothing; its page's button does.
    const page = await (await fetch(link)).text();
    expect(page).toContain('id="confirm"');
    expect((await backend.store.welds.weldData(run.run))!.status).toBe('confirming');
    expect(sink.to('victim@example.com')).toHaveLength(1);
    const confirmed = await fetch(`${server.base}/weld/mailed/confirm`, {
      method: 'POST',
      headers: json,
      body: new URLSearchParams({ run: link.searchParams.get('run')!, c: link.searchParams.get('c')! }).toString(),
    });
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as { status: string }).status).toBe('sent');
    // Now the packet's signing request goes to the confirmed address.
    const mails = await until(
      () => sink.to('victim@example.com'),
      (m) => m.length > 1,
    );
    expect(textOf(mails[1]!)).toMatch(/\/sign\//);
  }, 60_000);

  it('a trusted address is mailed the packet at once', async () => {
    const run = await apply('trusted', 'owner@example.com', 'unused@example.com');
    expect(run.status).toBe('sent');
    const [mail] = await until(
      () => sink.to('owner@example.com'),
      (m) => m.length > 0,
    );
    expect(textOf(mail!)).toMatch(/\/sign\//);
  }, 60_000);
});

describe('a run whose packet can never be made', () => {
  it('is failed with its typed error, shown by weld(eid) and sent once as weldFailed', async () => {
    // Zero-width and bidi characters only: the form takes the name, the packet refuses it as empty.
    const res = await post('never', 'applicant', {
      fullName: '\u200b\u202e\u200d',
      email: 'zed@example.com',
      reviewerEmail: 'unused@example.com',
      submissionEid: await formId(`${server.base}/weld/never`),
    });
    expect(res.status).toBe(201);
    const { weldDataEid, status } = (await res.json()) as { weldDataEid: string; status: string };
    expect(status).toBe('submitted');
    const answer = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic(ACME_KEY) },
      body: JSON.stringify({
        query: 'query($eid: String){ weld(eid: $eid){ weldDatas{ eid status lastError } } }',
        variables: { eid: 'weldNever' },
      }),
    });
    const data = (await answer.json()) as {
      data: { weld: { weldDatas: Array<{ eid: string; status: string; lastError: Record<string, unknown> }> } };
    };
    const run = data.data.weld.weldDatas.find((r) => r.eid === weldDataEid)!;
    expect(run.status).toBe('failed');
    expect(run.lastError).toMatchObject({ name: 'ValidationError' });
    expect(JSON.stringify(run.lastError)).toMatch(/signers\[0\]\.name/);
    const [hook] = await until(
      () => hooks.accepted('weldFailed'),
      (h) => h.length > 0,
    );
    expect(hook!.body.data).toMatchObject({ isComplete: false, eid: weldDataEid, error: run.lastError });
    // Passes later try nothing again and queue nothing again.
    await (await welds.get()).runPass();
    const queued = await backend.store.outbox({ packetEid: weldDataEid, kind: 'webhook' });
    expect(queued.filter((e) => e.payload.action === 'weldFailed')).toHaveLength(1);
  }, 60_000);
});
