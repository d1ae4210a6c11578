/**
 * What the packet tests that go through `castpress serve` share: the server started as a user runs
 * it (a production key in a keys file, `--data` in a temp folder, extra flags), the unmodified
 * `@anvilco/anvil` client on it, the packet's documents from its zip download; and what the
 * certificate-of-completion tests read back: its text (whitespace removed) and, with openssl, the
 * fingerprint of a signer's certificate in a signature; and their library workflow set-up.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { unzipSync } from 'fflate';
import { expect } from 'vitest';
import type { Engine } from '../../src/index.js';
import {
  createPacketWorkflow,
  openSqliteStore,
  type PacketStore,
  type PacketWorkflow,
  type PacketWorkflowOptions,
} from '../../src/packets/index.js';
import { createSigningIdentity, type SigningIdentity } from '../../src/signing/index.js';
import { readText } from './pdf.js';
import { startServe, type ServeProcess } from './serve.js';
import { tempDir, tool } from './signing.js';
import { tokenOf } from './workflow.js';

export const Anvil = anvilModule.default;
export const SERVE_KEY = 'prod-packet-serve-key-0123456789';

export interface PacketServe {
  serve: ServeProcess;
  base: string;
  /** `--data`: packets, and the local CA under `signing/`. */
  dataDir: string;
  client: InstanceType<typeof Anvil>;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  close: () => Promise<void>;
}

/** `castpress serve --port 0 --keys … --data DIR/data` plus `args`, with a client on its production key. */
export async function startPacketServe(dir: string, args: string[] = []): Promise<PacketServe> {
  const keys = path.join(dir, 'serve-keys.json');
  await writeFile(keys, JSON.stringify({ keys: [{ key: SERVE_KEY, kind: 'production' }] }));
  const dataDir = path.join(dir, 'data');
  const serve = startServe(['--port', '0', '--keys', keys, '--data', dataDir, ...args]);
  const base = await serve.url;
  return {
    serve,
    base,
    dataDir,
    client: new Anvil({ apiKey: SERVE_KEY, baseURL: base }),
    close: async () => {
      if (serve.child.exitCode !== null) return;
      serve.child.kill('SIGTERM');
      await serve.exited;
    },
  };
}

type Answer = { statusCode: number; data?: { data?: Record<string, unknown> }; errors?: unknown[] };

/** A GraphQL answer's `data`, asserting it has no errors and a 200. */
export function ok(r: unknown): Record<string, unknown> {
  const a = r as Answer;
  expect(a.errors, JSON.stringify(a.errors)).toBeUndefined();
  expect(a.statusCode).toBe(200);
  return a.data!.data!;
}

/** The signing URL of a signer, through the client. */
export async function signUrlOf(
  client: InstanceType<typeof Anvil>,
  signerEid: string,
  clientUserId: string,
): Promise<string> {
  const r = await client.generateEtchSignUrl({ variables: { signerEid, clientUserId } });
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.url!;
}

/** The documents of a packet's group as the zip download holds them, by entry name. */
export async function downloadedDocuments(
  client: InstanceType<typeof Anvil>,
  groupEid: string,
): Promise<Record<string, Uint8Array>> {
  const zip = (await client.downloadDocuments(groupEid)) as unknown as {
    statusCode: number;
    data: Buffer;
    errors?: unknown;
  };
  expect(zip.errors).toBeUndefined();
  expect(zip.statusCode).toBe(200);
  return unzipSync(new Uint8Array(zip.data));
}

export const squash = (s: string): string => s.replace(/\s+/g, '');

/** A PDF's text (pdfjs), pages from `fromPage` on, whitespace removed (table cells wrap anywhere). */
export async function squashedText(pdf: Uint8Array, fromPage = 0): Promise<string> {
  const pages = await readText(pdf);
  return squash(
    pages
      .slice(fromPage)
      .map((p) => p.items.map((i) => i.str).join(' '))
      .join('\n'),
  );
}

/** SHA-256 (hex) of the certificate named `CN=<name>` among those a signature's CMS carries (openssl's reading). */
export async function signerCertificateSha256(der: Buffer, name: string, dir: string): Promise<string> {
  const file = path.join(dir, `cms-${createHash('sha256').update(der).digest('hex')}.der`);
  await writeFile(file, der);
  const printed = await tool('openssl', ['pkcs7', '-inform', 'DER', '-in', file, '-print_certs']);
  expect(printed.code).toBe(0);
  const pems = printed.stdout.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const cert = pems.map((p) => new X509Certificate(p)).find((c) => c.subject.split('\n').includes(`CN=${name}`));
  expect(cert, name).toBeDefined();
  return cert!.fingerprint256.replace(/:/g, '').toLowerCase();
}

/** A library packet workflow as the completion tests use it: SQLite store, local CA and mail folder in a temp folder, nothing delivered. */
export interface TestWorkflow {
  tmp: { dir: string; remove: () => Promise<void> };
  store: PacketStore;
  identity: SigningIdentity;
  flow: PacketWorkflow;
  /** Closes the workflow and the store and removes the folder (the engine is the caller's). */
  close: () => Promise<void>;
}

export async function openTestWorkflow(
  prefix: string,
  engine: Engine,
  options: Partial<PacketWorkflowOptions> = {},
): Promise<TestWorkflow> {
  const tmp = await tempDir(prefix);
  const store = await openSqliteStore({ dir: path.join(tmp.dir, 'packets') });
  const identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'id') });
  const flow = createPacketWorkflow({
    store,
    engine,
    identity,
    baseUrl: 'http://castpress.test',
    mailDir: path.join(tmp.dir, 'mail'),
    deliver: false,
    ...options,
  });
  return {
    tmp,
    store,
    identity,
    flow,
    close: async () => {
      await flow.close();
      await store.close();
      await tmp.remove();
    },
  };
}

/**
 * `createEtchPacket`'s variables for one Markdown document ("terms") with a signature box per signer,
 * signers in that routing order, each box accepted at once (acceptEachField off).
 */
export function signaturePacketVariables(
  name: string,
  content: string,
  signers: ReadonlyArray<{ id: string; name: string; email: string }>,
): Record<string, unknown> {
  return {
    name,
    isDraft: false,
    isTest: true,
    files: [
      {
        id: 'terms',
        filename: 'terms.pdf',
        title: 'Terms',
        fields: [
          { content },
          ...signers.map((s, i) => ({
            id: `${s.id}Sig`,
            type: 'signature',
            pageNum: 0,
            rect: { x: 72, y: 300 + 60 * i, width: 200, height: 30 },
          })),
        ],
      },
    ],
    signers: signers.map((s, i) => ({
      ...s,
      signerType: 'embedded',
      routingOrder: i + 1,
      acceptEachField: false,
      fields: [{ fileId: 'terms', fieldId: `${s.id}Sig` }],
    })),
  };
}

/** A signer finishes as the signing page does (a typed signature, no boxes to accept one by one). */
export async function submitTyped(
  s: PacketServe,
  url: string,
  text: string,
): Promise<{ status: number; body: string }> {
  const { signerEid, token } = tokenOf(url);
  const res = await fetch(`${s.base}/sign/${encodeURIComponent(signerEid)}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: s.base },
    body: JSON.stringify({ token, signature: { type: 'typed', text }, accepted: [] }),
  });
  return { status: res.status, body: await res.text() };
}
