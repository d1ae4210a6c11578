/**
 * Workflows of two organizations on one server: each workflow file names its organization
 * (checked against the organization settings at start), and its forms show that organization's
 * name, logo and colours; the last page's iframe message carries its `organizationSlug` and
 * `organizationEid`; its runs' packets are the organization's; weldComplete goes to the
 * organization's webhook with its token and HMAC signature; `weld(eid)` through the official
 * client's requestGraphQL lists the runs for the organization's key and is the unknown workflow's
 * 404 NotFound for a key of the other organization.
 */
import { createHmac } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOrganizationFile } from '../src/packets/index.js';
import { LazyPacketBackend, openPacketBackend, type PacketBackend } from '../src/server/graphql/index.js';
import { startServer } from '../src/server/index.js';
import { LazyWorkflowBackend } from '../src/server/workflow-forms/index.js';
import { loadWorkflows, WorkflowDefinitionError } from '../src/workflows/index.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf, until, WebhookReceiver } from './helpers/workflow.js';
import { startTestServer, type TestServer } from './server-setup.js';

const Anvil = anvilModule.default;
const ACME_KEY = 'prod-acme-0123456789';
const GLOBEX_KEY = 'prod-globex-0123456789';
const SECRET = 'acme-hmac-secret-0123456789';
const LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/qnHsqQAAAABJRU5ErkJggg==';

let server: TestServer;
let tmp: { dir: string; remove: () => Promise<void> };
let backend: PacketBackend;
let acmeHooks: WebhookReceiver;
let globexHooks: WebhookReceiver;
let orgFile = '';

async function definition(org: string, slug: string): Promise<Record<string, unknown>> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  return {
    eid: `weld-${org}`,
    slug,
    title: `${org} intake`,
    organization: org,
    forges: [
      { eid: `${org}-f1`, slug: 'one', name: 'You', fields: [{ name: 'name', type: 'shortText', label: 'Name' }] },
    ],
    packet: {
      name: `${org} packet {{one.name}}`,
      files: [
        {
          id: 'doc',
          file: { data: Buffer.from(await doc.save()).toString('base64'), filename: 'doc.pdf' },
          fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 30 } }],
        },
      ],
      signers: [
        {
          id: 'p',
          name: 'Pat',
          email: 'pat@example.com',
          signerType: 'embedded',
          forge: 'one',
          fields: [{ fileId: 'doc', fieldId: 'sig' }],
        },
      ],
    },
  };
}

beforeAll(async () => {
  tmp = await tempDir('castpress-welds-org-');
  acmeHooks = await WebhookReceiver.start();
  globexHooks = await WebhookReceiver.start();
  const settings = {
    organizations: {
      acme: {
        name: 'Acme Rentals',
        slug: 'acme-rentals',
        logo: LOGO,
        style: { primaryColor: '#aa3300', linkColor: '#003399' },
        webhook: { url: acmeHooks.url, token: 'acme-token', hmacSecret: SECRET },
      },
      globex: { name: 'Globex', webhook: { url: globexHooks.url, token: 'globex-token' } },
    },
  };
  orgFile = path.join(tmp.dir, 'org.json');
  await writeFile(orgFile, JSON.stringify(settings));
  const organizations = parseOrganizationFile(settings);
  const wf = path.join(tmp.dir, 'workflows');
  await mkdir(wf, { recursive: true });
  await writeFile(path.join(wf, 'acme.json'), JSON.stringify(await definition('acme', 'acme-intake')));
  await writeFile(path.join(wf, 'globex.json'), JSON.stringify(await definition('globex', 'globex-intake')));
  let base = '';
  const packets = new LazyPacketBackend(async () => {
    backend = await openPacketBackend({
      dataDir: path.join(tmp.dir, 'data'),
      engine: server.engine,
      baseUrl: base,
      allowHosts: [acmeHooks.host, globexHooks.host],
      organizations,
      pollMs: 50,
    });
    return backend;
  });
  const welds = new LazyWorkflowBackend(await loadWorkflows(wf), packets, {
    baseUrl: () => base,
    organizations,
    pollMs: 100,
  });
  server = await startTestServer({
    packets,
    welds,
    organizations,
    config: {
      keys: [
        { key: ACME_KEY, kind: 'production', organization: 'acme' },
        { key: GLOBEX_KEY, kind: 'production', organization: 'globex' },
      ],
    },
  });
  base = server.base;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await acmeHooks?.close();
  await globexHooks?.close();
  await tmp?.remove();
}, 60_000);

/** Posts the one forge as a client asking for JSON; the last page's address. */
async function submit(slug: string, name: string): Promise<string> {
  const form = await (await fetch(`${server.base}/weld/${slug}`)).text();
  const submissionEid = /name="submissionEid" value="([^"]+)"/.exec(form)![1]!;
  const res = await fetch(`${server.base}/weld/${slug}/one`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ name, submissionEid }).toString(),
  });
  expect(res.status).toBe(201);
  return `${server.base}${((await res.json()) as { next: string }).next}`;
}

/** The message the last page posts to a parent frame (the JSON in its script). */
function frameMessage(html: string): Record<string, string> {
  return JSON.parse(/postMessage\((\{.*?\}), '\*'\)/.exec(html)![1]!) as Record<string, string>;
}

const weldQuery = (key: string, eid: string) =>
  new Anvil({ apiKey: key, baseURL: server.base }).requestGraphQL(
    {
      query: 'query($eid: String){ weld(eid: $eid){ eid title weldDatas{ eid status completionPercentage } } }',
      variables: { eid },
    },
    { dataType: 'json' },
  ) as unknown as Promise<{
    statusCode: number;
    data: { data?: { weld: { weldDatas: Array<{ eid: string; status: string }> } }; errors?: unknown[] };
    errors?: Array<{ name?: string; extensions?: { name?: string; status?: number } }>;
  }>;

describe('workflows of two organizations', () => {
  it('forms, iframe message, packets, webhook and weld(eid) are each organization’s own', async () => {
    // The look: Acme's name (the logo's alt), logo and colours; Globex's name, none of Acme's.
    const acmeForm = await (await fetch(`${server.base}/weld/acme-intake`)).text();
    expect(acmeForm).toContain(`<img src="${LOGO}" alt="Acme Rentals">`);
    expect(acmeForm).toContain('background:#aa3300');
    expect(acmeForm).toContain('a{color:#003399}');
    const globexForm = await (await fetch(`${server.base}/weld/globex-intake`)).text();
    expect(globexForm).toContain('<header class="org"><span>Globex</span></header>');
    expect(globexForm).not.toContain('#aa3300');
    expect(globexForm).not.toContain('Acme');

    const acmeDone = await submit('acme-intake', 'Ada');
    const globexDone = await submit('globex-intake', 'Gus');
    const acmeRun = new URL(acmeDone).searchParams.get('run')!;
    const globexRun = new URL(globexDone).searchParams.get('run')!;
    const acmePage = await (await fetch(acmeDone)).text();
    expect(frameMessage(acmePage)).toMatchObject({
      action: 'weldComplete',
      organizationSlug: 'acme-rentals',
      organizationEid: 'acme',
      weldEid: 'weld-acme',
      weldDataEid: acmeRun,
    });
    // Without a slug in its settings an organization's slug is its id.
    expect(frameMessage(await (await fetch(globexDone)).text())).toMatchObject({
      organizationSlug: 'globex',
      organizationEid: 'globex',
      weldDataEid: globexRun,
    });

    // weld(eid) with each key: its own organization's runs; the other's workflow is the unknown one's 404.
    const own = await weldQuery(ACME_KEY, 'weld-acme');
    expect(own.statusCode).toBe(200);
    expect(own.data.data!.weld.weldDatas.map((r) => r.eid)).toEqual([acmeRun]);
    const foreign = await weldQuery(GLOBEX_KEY, 'weld-acme');
    const unknown = await weldQuery(GLOBEX_KEY, 'weld-nope');
    expect(foreign.statusCode).toBe(404);
    // The client hands a GraphQL error back as `errors`: the same as for an unknown eid but the eid.
    expect(JSON.stringify(foreign)).not.toContain(acmeRun);
    expect(JSON.stringify(foreign).replaceAll('weld-acme', 'X')).toEqual(
      JSON.stringify(unknown).replaceAll('weld-nope', 'X'),
    );
    expect(JSON.stringify(foreign.errors)).toContain('NotFoundError');
    expect((await weldQuery(GLOBEX_KEY, 'weld-globex')).data.data!.weld.weldDatas.map((r) => r.eid)).toEqual([
      globexRun,
    ]);

    // The packets belong to the organizations; Pat signs Acme's from the last page's link.
    const signNow = /id="sign-now" href="([^"]+)"/.exec(acmePage)![1]!.replace(/&amp;/g, '&');
    const signer = await backend.store.signer(tokenOf(signNow).signerEid);
    expect((await backend.store.packet(signer!.packetEid))!.organization).toBe('acme');
    await backend.service.submitSigning({ ...tokenOf(signNow), inputs: { signature: { type: 'typed', text: 'Pat' } } });

    // weldComplete at Acme's receiver only, with Acme's token and a valid HMAC over the exact body.
    const [hook] = await until(
      () => acmeHooks.accepted('weldComplete'),
      (h) => h.length > 0,
    );
    expect(hook!.body.token).toBe('acme-token');
    expect(hook!.body.data).toMatchObject({ eid: acmeRun, weld: { eid: 'weld-acme', slug: 'acme-intake' } });
    const signature = String(hook!.headers['x-castpress-signature']);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(signature)!;
    expect(v1).toBe(createHmac('sha256', SECRET).update(`${t}.${hook!.raw}`).digest('hex'));
    expect(globexHooks.accepted('weldComplete')).toEqual([]);
  }, 120_000);

  it('a workflow naming an organization the settings do not have stops the start', async () => {
    const wf = path.join(tmp.dir, 'bad-workflows');
    await mkdir(wf, { recursive: true });
    await writeFile(path.join(wf, 'initech.json'), JSON.stringify(await definition('initech', 'initech-intake')));
    const e = await startServer({
      port: 0,
      config: { keys: [{ key: ACME_KEY, kind: 'production', organization: 'acme' }] },
      organizations: orgFile,
      workflows: wf,
      renderPool: false,
      fetch: false,
      packets: { dataDir: path.join(tmp.dir, 'bad-data') },
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(WorkflowDefinitionError);
    expect((e as WorkflowDefinitionError).message).toContain('initech.json');
    expect((e as WorkflowDefinitionError).fields).toEqual([
      { property: 'organization', message: 'No organization "initech" in the organization settings (--org)' },
    ]);
  });
});
