/**
 * Every shipped workflow example (`examples/workflows/*.json`) runs as shipped through `castpress serve
 * --workflows examples/workflows`: each forge is submitted with a value of its fields' types (the first
 * as a browser posts the public form, the later ones by its party's link, or by the organization's
 * backend through the official client's `forgeSubmit` for an `"api"` party), every signer signs from
 * their party's done page ("Sign now"), the run ends `completed` and each signer downloads the
 * completed documents.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormField } from '../src/workflows/index.js';
import { Anvil, ok } from './helpers/packet-serve.js';
import { tempDir } from './helpers/signing.js';
import { startWorkflowServe, type WorkflowServe } from './helpers/welds-serve.js';
import { tokenOf, until } from './helpers/workflow.js';

const EXAMPLES = path.join(import.meta.dirname, '..', 'examples', 'workflows');
const KEY = 'examples-prod-key-0123456789';
let tmp: { dir: string; remove: () => Promise<void> };
let serve: WorkflowServe;
let base = '';
let files: string[] = [];

beforeAll(async () => {
  tmp = await tempDir('castpress-examples-');
  files = (await readdir(EXAMPLES)).filter((f) => f.endsWith('.json'));
  serve = await startWorkflowServe(tmp.dir, [{ key: KEY, kind: 'production' }], ['--workflows', EXAMPLES]);
  base = serve.base;
}, 60_000);

afterAll(async () => {
  await serve?.close();
  await tmp?.remove();
}, 60_000);

/** What this test reads of a definition. */
interface Example {
  eid: string;
  slug: string;
  forges: Array<{ eid: string; slug: string; assignee?: unknown; fields: FormField[] }>;
  packet: {
    files: Array<{ id: string }>;
    signers: Array<{ id: string; forge?: string; fields?: Array<{ fileId: string; fieldId: string }> }>;
  };
}

/** A value every field type accepts, as a form posts it. */
function sample(field: FormField, forge: string): string {
  switch (field.type) {
    case 'email':
      return `${forge}.${field.name}@example.com`.toLowerCase();
    case 'date':
      return '2027-01-15';
    case 'checkbox':
      return 'on';
    case 'radioGroup':
      return field.options![0]!.id;
    case 'phone':
      return '5555550123';
    case 'number':
    case 'integer':
    case 'decimalNumber':
    case 'dollar':
    case 'percent':
      return '25';
    case 'ssn':
      return '123456789';
    case 'ein':
      return '123456789';
    default:
      return `Sample ${field.name}`;
  }
}

const formPost = (url: string, body: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(body).toString(),
  });

const submissionEidIn = (html: string): string => /name="submissionEid" value="([^"]+)"/.exec(html)![1]!;

describe('the shipped workflow examples', () => {
  it('has at least one', () => expect(files.length).toBeGreaterThan(0));

  it('each runs as shipped to its end: packet completed, documents downloaded', async () => {
    const client = new Anvil({ apiKey: KEY, baseURL: base, requestLimit: 40 });
    for (const file of files) {
      const w = JSON.parse(await readFile(path.join(EXAMPLES, file), 'utf8')) as Example;
      const packet = w.packet;
      const values = (i: number) =>
        Object.fromEntries(w.forges[i]!.fields.map((f) => [f.name, sample(f, w.forges[i]!.slug)]));
      // The public first form, as a browser loads and posts it.
      const first = await fetch(`${base}/weld/${w.slug}`);
      expect(first.status, file).toBe(200);
      let answer = await formPost(`${base}/weld/${w.slug}/${w.forges[0]!.slug}`, {
        ...values(0),
        submissionEid: submissionEidIn(await first.text()),
      });
      expect(answer.status, `${file}: ${await answer.clone().text()}`).toBe(201);
      let reply = (await answer.json()) as { weldDataEid: string; next: string };
      const run = reply.weldDataEid;
      const donePages = new Set<string>();
      for (let i = 1; i < w.forges.length; i++) {
        const forge = w.forges[i]!;
        if (forge.assignee === 'api') {
          // The organization's backend fills its party's forge.
          const r = ok(
            await client.forgeSubmit({
              variables: { forgeEid: forge.eid, weldDataEid: run, payload: values(i) },
            }),
          );
          const s = r.forgeSubmit as { continueURL: string | null };
          if (s.continueURL?.includes('/done?')) donePages.add(s.continueURL);
          continue;
        }
        expect(forge.assignee, `${file}: a mailed assignee needs a mail sink here`).toBeUndefined();
        if (reply.next.includes('/done?')) throw new Error(`${file}: forge ${forge.slug} has no link`);
        const page = await fetch(`${base}${reply.next}`);
        expect(page.status, file).toBe(200);
        const link = new URL(`${base}${reply.next}`);
        answer = await formPost(`${base}/weld/${w.slug}/${forge.slug}`, {
          ...values(i),
          weldDataEid: run,
          t: link.searchParams.get('t')!,
          submissionEid: submissionEidIn(await page.text()),
        });
        expect(answer.status, `${file}: ${await answer.clone().text()}`).toBe(201);
        reply = (await answer.json()) as { weldDataEid: string; next: string };
        if (reply.next.includes('/done?')) donePages.add(`${base}${reply.next}`);
      }
      if (reply.next.includes('/done?')) donePages.add(`${base}${reply.next}`);

      // Every signer signs from their party's done page ("Sign now"), in routing order.
      const signed: Array<{ signerEid: string; token: string }> = [];
      for (let round = 0; round < packet.signers.length && signed.length < packet.signers.length; round++) {
        for (const done of donePages) {
          const html = await (await fetch(done)).text();
          const href = /id="sign-now" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
          if (!href) continue;
          const { signerEid, token } = tokenOf(href);
          expect((await fetch(href)).status).toBe(200);
          // The page's signer: the one whose person filled the forge the done page is for.
          const forgeSlug = new URL(done).searchParams.get('forge');
          const me = packet.signers.find((s) => s.forge === forgeSlug);
          if (!me) throw new Error(`${file}: no signer fills forge ${forgeSlug}`);
          const accepted = (me.fields ?? []).map((f) => ({
            document: packet.files.findIndex((x) => x.id === f.fileId),
            fieldId: f.fieldId,
          }));
          const res = await fetch(`${base}/sign/${signerEid}/submit`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: base },
            body: JSON.stringify({ token, signature: { type: 'typed', text: 'Signer' }, accepted }),
          });
          expect(res.status, await res.clone().text()).toBe(200);
          signed.push({ signerEid, token });
        }
      }
      expect(signed).toHaveLength(packet.signers.length);

      // The run completes (its packet complete), and each signer downloads the completed documents.
      const runs = await until(
        async () =>
          (
            ok(
              await client.requestGraphQL({
                query: 'query($eid: String){ weld(eid: $eid){ weldDatas { eid status } } }',
                variables: { eid: w.eid },
              }),
            ).weld as { weldDatas: Array<{ eid: string; status: string }> }
          ).weldDatas,
        (r) => r.find((x) => x.eid === run)?.status === 'completed',
      );
      expect(runs.find((x) => x.eid === run)?.status, file).toBe('completed');
      for (const { signerEid, token } of signed) {
        const zip = await fetch(`${base}/download/signer/${signerEid}?token=${token}`);
        expect(zip.status, file).toBe(200);
        const bytes = new Uint8Array(await zip.arrayBuffer());
        const entries = packet.files.length > 1 ? Object.keys(unzipSync(bytes)) : ['one'];
        expect(entries, file).toHaveLength(packet.files.length);
      }
    }
  }, 300_000);
});
