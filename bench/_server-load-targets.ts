/**
 * The set-ups `server-load` drives with the same operations: `castpress serve` instances through the
 * official client (each answer checked: a PDF, a packet, a completed signing, or a typed error), and
 * the library in this process (the engine and a packet workflow on the same PostgreSQL).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import type { createEngine } from '../src/index.js';
import type { createPacketWorkflow } from '../src/packets/index.js';
import type { ServeProcess } from '../test/helpers/serve.js';
import { treeCpuMs } from './_proc-stats.js';

const Anvil = anvilModule.default;
type Client = InstanceType<typeof Anvil>;

export const KINDS = ['fill', 'markdown', 'html', 'packet', 'submit'] as const;
export type Kind = (typeof KINDS)[number];

/** What one operation found wrong with its answer, or undefined when the answer is right. */
export type Problem = string | undefined;

/** A set-up under test: one operation of a kind for client slot `worker`, and the CPU its processes spent so far. */
export interface Target {
  name: string;
  op: (kind: Kind, worker: number) => Promise<Problem>;
  /** Between the packet and the submit phases: a signing link for each packet made (checked, not timed). */
  prepareSubmits: () => Promise<Problem[]>;
  cpuMs: () => number;
}

/** What the operations are made of: the W-9's values for a fill, the PDF a packet uploads. */
export interface Work {
  fillData: Record<string, unknown>;
  uploadPdf: Uint8Array;
}

/** The Markdown operation's document (~3 pages): a heading, six sections and a table of 30 rows. */
export const markdownPayload = (i: number) => ({
  title: `Quarterly report ${i}`,
  data: [
    { heading: `Report ${i}` },
    ...Array.from({ length: 6 }, (_, s) => ({
      label: `Section ${s + 1}`,
      content: `The **quarter** closed with steady figures in every region. `.repeat(12),
    })),
    {
      table: {
        rows: [
          ['Region', 'Units', 'Revenue'],
          ...Array.from({ length: 30 }, (_, r) => [`R${r}`, `${r * 7}`, `${r * 91}.00`]),
        ],
      },
    },
  ],
});

const htmlPayload = (i: number) => ({
  type: 'html' as const,
  title: `Invoice ${i}`,
  data: {
    html:
      `<h1>Invoice ${i}</h1><p>Bill to: Ada Lovelace, 12 Analytical Row</p><table><thead><tr><th>Item</th><th>Qty</th><th>Price</th></tr></thead><tbody>` +
      Array.from(
        { length: 40 },
        (_, r) => `<tr><td>Item ${r}</td><td>${r + 1}</td><td>${(r * 9.5).toFixed(2)}</td></tr>`,
      ).join('') +
      '</tbody></table><p>Thank you for your business.</p>',
    css: 'body { font-family: sans-serif; font-size: 11pt } table { width: 100%; border-collapse: collapse } td, th { border-bottom: 1px solid #ccc; padding: 4px }',
  },
});

/** createEtchPacket's variables: the uploaded PDF (`file`, as the caller sends it) with one signature box for one embedded signer. */
const packetVariables = (i: number, file: unknown) => ({
  name: `Order ${i}`,
  isDraft: false,
  files: [
    {
      id: 'order',
      title: 'Order form',
      file,
      fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 680, width: 200, height: 30 } }],
    },
  ],
  signers: [
    {
      id: 'client',
      name: `Signer ${i}`,
      email: `signer${i}@example.com`,
      signerType: 'embedded',
      fields: [{ fileId: 'order', fieldId: 'sig' }],
    },
  ],
});
/** What the signing page posts once the signer has clicked the one box (each box is accepted by default). */
const ACCEPTED = [{ document: 0, fieldId: 'sig' }];

function typedRest(errors: unknown): Problem {
  const list = Array.isArray(errors) ? (errors as Array<Record<string, unknown>>) : [];
  const typed =
    list.length > 0 &&
    list.every((e) => typeof e.name === 'string' && typeof e.message === 'string' && Array.isArray(e.fields));
  return typed ? undefined : `untyped error body ${JSON.stringify(errors).slice(0, 200)}`;
}

/** A REST answer of the client: a 200 with a PDF, else a typed error below 500 (still a failure here). */
function checkPdf(r: { statusCode: number; data?: unknown; errors?: unknown }): Problem {
  if (r.statusCode === 200 && Buffer.isBuffer(r.data) && r.data.subarray(0, 5).toString('latin1') === '%PDF-')
    return undefined;
  return `${r.statusCode}: ${typedRest(r.errors) ?? JSON.stringify(r.errors).slice(0, 200)}`;
}

/** A GraphQL answer: a 200 without errors, else each error with a message and its name in extensions. */
function checkGraphql(r: { statusCode: number; errors?: unknown }): Problem {
  if (r.statusCode === 200 && r.errors === undefined) return undefined;
  const list = Array.isArray(r.errors)
    ? (r.errors as Array<{ message?: unknown; extensions?: { name?: unknown } }>)
    : [];
  const typed =
    list.length > 0 && list.every((e) => typeof e.message === 'string' && typeof e.extensions?.name === 'string');
  return `${r.statusCode}: ${typed ? '' : 'untyped '}${JSON.stringify(r.errors).slice(0, 200)}`;
}

/** A 5xx among the answers a server logged (pino JSON lines: `res.statusCode`). */
/**
 * The files `castpress serve` reads in the benches: the W-9 as template `w9` under `dir/templates`, and a
 * keys file with `key` (production). The client throttles itself to what the server announces, so the
 * announced rate is more than this machine can serve. Gives the keys file's path.
 */
export async function writeServerFiles(
  dir: string,
  key: string,
  template: Uint8Array,
  fields: unknown,
): Promise<string> {
  await mkdir(path.join(dir, 'templates', 'w9'), { recursive: true });
  await writeFile(path.join(dir, 'templates', 'w9', 'template.pdf'), template);
  await writeFile(
    path.join(dir, 'templates', 'w9', 'v1.json'),
    JSON.stringify({ title: 'W-9', pdf: 'template.pdf', fields }),
  );
  const keys = path.join(dir, 'keys.json');
  await writeFile(
    keys,
    JSON.stringify({ keys: [{ key, kind: 'production' }], rateLimit: { limit: 10_000, intervalMs: 1000 } }),
  );
  return keys;
}

export function loggedServerErrors(s: ServeProcess): string[] {
  const bad: string[] = [];
  for (const line of s.stdout().split('\n')) {
    if (!line.includes('"statusCode":5')) continue;
    try {
      const entry = JSON.parse(line) as { res?: { statusCode?: number }; req?: { url?: string } };
      if ((entry.res?.statusCode ?? 0) >= 500) bad.push(`logged ${entry.res!.statusCode} ${line.slice(0, 200)}`);
    } catch {
      // not a log line
    }
  }
  return bad;
}

/** Instances of `castpress serve` behind the target; the client slot `worker` uses instance worker % n. */
export function serverTarget(
  name: string,
  instances: Array<{ serve: ServeProcess; base: string; client: Client }>,
  pgPid: number,
  work: Work,
): Target {
  const packets: Array<{ signerEid: string; made: number }> = [];
  const links: Array<{ url: string; made: number }> = [];
  let count = 0;
  const op = async (kind: Kind, worker: number): Promise<Problem> => {
    const at = worker % instances.length;
    const { client, base } = instances[at]!;
    const i = count++;
    switch (kind) {
      case 'fill':
        return checkPdf(await client.fillPDF('w9', { data: work.fillData }));
      case 'markdown':
        return checkPdf(await client.generatePDF(markdownPayload(i)));
      case 'html':
        return checkPdf(await client.generatePDF(htmlPayload(i)));
      case 'packet': {
        const r = await client.createEtchPacket({
          variables: packetVariables(
            i,
            Anvil.prepareGraphQLFile(Buffer.from(work.uploadPdf), {
              filename: 'order.pdf',
              mimetype: 'application/pdf',
            }),
          ),
        });
        const bad = checkGraphql(r);
        if (bad) return bad;
        const created = (
          r.data as { data?: { createEtchPacket?: { documentGroup?: { signers?: Array<{ eid?: string }> } } } }
        ).data?.createEtchPacket;
        const signerEid = created?.documentGroup?.signers?.[0]?.eid;
        if (!signerEid) return `createEtchPacket answered no signer: ${JSON.stringify(r.data).slice(0, 200)}`;
        packets.push({ signerEid, made: at });
        return undefined;
      }
      case 'submit': {
        const link = links.shift();
        if (!link) return 'no signing link left';
        // On the other instance when there are two: whichever instance a signer reaches, the packet is there.
        const to = instances[(link.made + 1) % instances.length]!.base;
        const u = new URL(link.url);
        const signerEid = decodeURIComponent(u.pathname.split('/').pop()!);
        const res = await fetch(`${to}/sign/${encodeURIComponent(signerEid)}/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: to },
          body: JSON.stringify({
            token: u.searchParams.get('token'),
            signature: { type: 'typed', text: `Signer ${i}` },
            accepted: ACCEPTED,
          }),
        });
        const text = await res.text();
        let answer: {
          event?: { action?: unknown; documentGroupStatus?: unknown; error?: unknown; message?: unknown };
        } = {};
        try {
          answer = JSON.parse(text) as typeof answer;
        } catch {
          return `${res.status}: not JSON ${text.slice(0, 200)}`;
        }
        const e = answer.event;
        if (res.status === 200 && e?.action === 'signerComplete' && e.documentGroupStatus === 'completed')
          return undefined;
        const typed = typeof e?.error === 'string' && typeof e.message === 'string';
        return `${res.status}: ${typed ? '' : 'untyped '}${text.slice(0, 200)}`;
      }
    }
  };
  return {
    name,
    op,
    prepareSubmits: async () => {
      const problems: Problem[] = [];
      for (const p of packets.splice(0)) {
        const r = await instances[p.made]!.client.generateEtchSignUrl({
          variables: { signerEid: p.signerEid, clientUserId: p.signerEid },
        });
        if (r.errors || !r.url)
          problems.push(`generateEtchSignUrl: ${r.statusCode} ${JSON.stringify(r.errors).slice(0, 200)}`);
        else links.push({ url: r.url, made: p.made });
      }
      return problems;
    },
    cpuMs: () => treeCpuMs([...instances.map((s) => s.serve.child.pid!), pgPid]),
  };
}

type Flow = ReturnType<typeof createPacketWorkflow>;

/** The same work through the library in this process: the engine and a packet workflow on the same PostgreSQL. */
export function inProcessTarget(
  engine: ReturnType<typeof createEngine>,
  flow: Flow,
  exclude: number[],
  pgPid: number,
  work: Work,
): Target {
  const s = flow.service;
  const signers: string[] = [];
  const links: string[] = [];
  let count = 0;
  const pdf = (bytes: Uint8Array): Problem =>
    Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-' ? undefined : 'not a PDF';
  const op = async (kind: Kind): Promise<Problem> => {
    const i = count++;
    switch (kind) {
      case 'fill':
        return pdf(await engine.fill('w9', { data: work.fillData }));
      case 'markdown':
        return pdf(await engine.generate(markdownPayload(i)));
      case 'html':
        return pdf(await engine.generate(htmlPayload(i)));
      case 'packet': {
        const created = await s.createEtchPacket(
          packetVariables(i, { data: work.uploadPdf, filename: 'order.pdf', mimetype: 'application/pdf' }),
        );
        const eid = created.documentGroup.signers[0]?.eid;
        if (!eid) return 'no signer';
        signers.push(eid);
        return undefined;
      }
      case 'submit': {
        const link = links.shift();
        if (!link) return 'no signing link left';
        const u = new URL(link);
        const event = await s.submitSigning({
          signerEid: decodeURIComponent(u.pathname.split('/').pop()!),
          token: u.searchParams.get('token')!,
          inputs: { signature: { type: 'typed', text: `Signer ${i}` } },
          accepted: ACCEPTED,
          ip: '127.0.0.1',
          userAgent: 'bench',
        });
        return event.action === 'signerComplete' && event.documentGroupStatus === 'completed'
          ? undefined
          : `not completed: ${JSON.stringify(event).slice(0, 200)}`;
      }
    }
  };
  return {
    name: 'in-process',
    op,
    prepareSubmits: async () => {
      for (const eid of signers.splice(0))
        links.push(await s.generateEtchSignURL({ signerEid: eid, clientUserId: eid }));
      return [];
    },
    // This process (with its Chromium) and PostgreSQL, not the servers this process started.
    cpuMs: () => treeCpuMs([process.pid, pgPid], exclude),
  };
}
