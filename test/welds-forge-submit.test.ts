/**
 * GraphQL `forgeSubmit` through the official client against `castpress serve --workflows`: the
 * organization's backend starts a run and continues it by API key (no link token), the packet is
 * made; the answer's continueURL opens the submitted forge's party's next form; another
 * organization's key, a replayed submission id and bad values change nothing.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/signing.js';
import { startWorkflowServe, type WorkflowServe } from './helpers/welds-serve.js';

const Anvil = anvilModule.default;
const KEY = 'forge-prod-key-0123456789';
const OTHER_KEY = 'forge-other-key-0123456789';

let tmp: { dir: string; remove: () => Promise<void> };
let serve: WorkflowServe;
let base = '';

const workflow = {
  eid: 'weldApi01',
  slug: 'api-intake',
  title: 'Intake',
  forges: [
    {
      eid: 'forgeClient01',
      slug: 'client',
      name: 'About you',
      fields: [
        { name: 'fullName', type: 'shortText', label: 'Full name', required: true },
        { name: 'agree', type: 'checkbox', label: 'I agree', required: true },
      ],
    },
    {
      eid: 'forgeDetails01',
      slug: 'details',
      name: 'Details',
      fields: [{ name: 'income', type: 'dollar', label: 'Income' }],
    },
    {
      eid: 'forgeReview01',
      slug: 'review',
      name: 'Review',
      assignee: 'api',
      fields: [{ name: 'decision', type: 'radioGroup', label: 'Decision', options: [{ id: 'ok', label: 'OK' }] }],
    },
  ],
  packet: {
    name: 'Intake of {{client.fullName}}',
    isTest: true,
    files: [
      {
        id: 'doc',
        filename: 'intake.pdf',
        title: 'Intake',
        fields: [
          { content: 'Client: {{client.fullName}}; income {{details.income}}; decision {{review.decision}}.' },
          { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } },
        ],
      },
    ],
    signers: [
      {
        id: 'client',
        forge: 'client',
        name: '{{client.fullName}}',
        email: 'client@example.com',
        signerType: 'embedded',
        fields: [{ fileId: 'doc', fieldId: 'sig' }],
      },
    ],
  },
};

beforeAll(async () => {
  tmp = await tempDir('castpress-forge-submit-');
  await mkdir(path.join(tmp.dir, 'workflows'));
  await writeFile(path.join(tmp.dir, 'workflows', 'intake.json'), JSON.stringify(workflow));
  serve = await startWorkflowServe(
    tmp.dir,
    [
      { key: KEY, kind: 'production' },
      { key: OTHER_KEY, kind: 'production', organization: 'other' },
    ],
    ['--workflows', path.join(tmp.dir, 'workflows')],
  );
  base = serve.base;
}, 60_000);

afterAll(async () => {
  await serve?.close();
  await tmp?.remove();
}, 60_000);

interface Answer {
  statusCode: number;
  data?: { data?: { forgeSubmit?: Record<string, any> } };
  errors?: Array<{ message: string; extensions?: Record<string, any> }>;
}

const client = (key: string) => new Anvil({ apiKey: key, baseURL: base, requestLimit: 40 });
const submit = async (key: string, variables: Record<string, unknown>): Promise<Answer> =>
  (await client(key).forgeSubmit({ variables })) as Answer;

describe('forgeSubmit (the official client)', () => {
  it('starts a run and continues it by API key; the packet is made; other keys and bad posts change nothing', async () => {
    // Another organization's key cannot start the workflow: its forge is unknown to it.
    const foreignStart = await submit(OTHER_KEY, {
      forgeEid: 'forgeClient01',
      payload: { fullName: 'Eve', agree: true },
    });
    expect(foreignStart.statusCode).toBe(404);
    expect(foreignStart.errors?.[0]?.extensions).toMatchObject({ name: 'NotFoundError' });

    const started = await submit(KEY, {
      forgeEid: 'forgeClient01',
      payload: { fullName: 'Ada Client', agree: true },
      isTest: true,
      timezone: 'Europe/Paris',
    });
    expect(started.errors, JSON.stringify(started.errors)).toBeUndefined();
    const first = started.data!.data!.forgeSubmit!;
    expect(first).toMatchObject({
      status: 'completed',
      payloadValue: { fullName: 'Ada Client', agree: true },
      signer: null,
      weldData: { isTest: true, isComplete: false },
    });
    const run = first.weldData.eid as string;
    expect(first.weldData.id).toBe(run);
    // The continue link opens the same party's next form (the link model's party-0 link).
    expect(first.continueURL).toMatch(new RegExp(`^${base}/weld/api-intake/details\\?run=${run}&t=`));
    const form = await fetch(first.continueURL);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('Details');

    // Another organization's key: the run is unknown to it, and nothing is stored.
    const foreign = await submit(OTHER_KEY, { forgeEid: 'forgeDetails01', weldDataEid: run, payload: { income: 10 } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.errors?.[0]?.extensions).toMatchObject({ name: 'NotFoundError' });
    // Bad values: the forms' own checks, every problem by field name.
    const bad = await submit(KEY, {
      forgeEid: 'forgeDetails01',
      weldDataEid: run,
      payload: { income: 'lots', nope: 1 },
    });
    expect(bad.statusCode).toBe(400);
    const props = (bad.errors?.[0]?.extensions?.fields as Array<{ property: string }>).map((f) => f.property);
    expect(props.sort()).toEqual(['income', 'nope']);
    // Out of order: the review comes after the details.
    const early = await submit(KEY, { forgeEid: 'forgeReview01', weldDataEid: run, payload: { decision: 'ok' } });
    expect(early.statusCode).toBe(409);
    // What castpress does not do is refused, not dropped.
    const partial = await submit(KEY, { forgeEid: 'forgeDetails01', weldDataEid: run, payload: {}, complete: false });
    expect(partial.statusCode).toBe(400);
    expect(partial.errors?.[0]?.extensions?.fields).toEqual([expect.objectContaining({ property: 'complete' })]);

    const submissionEid = 'sub_backend-chosen-0001';
    const details = await submit(KEY, {
      forgeEid: 'forgeDetails01',
      weldDataEid: run,
      submissionEid,
      payload: { income: 2500 },
    });
    expect(details.errors, JSON.stringify(details.errors)).toBeUndefined();
    const second = details.data!.data!.forgeSubmit!;
    expect(second).toMatchObject({ eid: submissionEid, weldData: { eid: run, isComplete: false } });
    // The party's last forge: its done page.
    expect(second.continueURL).toMatch(new RegExp(`^${base}/weld/api-intake/done\\?run=${run}&t=`));
    // The same submission id again is a replay.
    const replay = await submit(KEY, {
      forgeEid: 'forgeReview01',
      weldDataEid: run,
      submissionEid,
      payload: { decision: 'ok' },
    });
    expect(replay.statusCode).toBe(409);

    // The "api" party's forge, submitted by the backend itself: the run is in, its packet made.
    const review = await submit(KEY, { forgeEid: 'forgeReview01', weldDataEid: run, payload: { decision: 'ok' } });
    expect(review.errors, JSON.stringify(review.errors)).toBeUndefined();
    const last = review.data!.data!.forgeSubmit!;
    expect(last.weldData).toMatchObject({ eid: run, isComplete: true });
    const again = (
      await client(KEY).requestGraphQL({
        query: `query($eid: String!){ weld(eid: $eid){ weldDatas { eid status completionPercentage } } }`,
        variables: { eid: 'weldApi01' },
      })
    ).data as { data: { weld: { weldDatas: Array<{ eid: string; status: string }> } } };
    expect(again.data.weld.weldDatas.find((w) => w.eid === run)?.status).toBe('sent');
    const runBody = await fetch(second.continueURL);
    const html = await runBody.text();
    // The first party's done page now offers "Sign now" for its signer: the packet was made.
    expect(html).toContain('id="sign-now"');
  }, 120_000);
});
