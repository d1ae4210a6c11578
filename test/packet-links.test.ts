/**
 * Signing links, error pages and downloads as a user meets them: `castpress serve` started
 * here (keys file, `--data`, an SMTP sink with `--smtp`, a host app on another loopback origin
 * allowed with `--frame-ancestor`), the unmodified `@anvilco/anvil` client, Chromium for the iframe.
 * - An expired and an invalid link inside the host app's iframe post `signerError` to it (the
 *   expired one with where the signer stands, the invalid one only the error and the signer eid).
 * - A wrong token for a signer with a redirectURL redirects there with exactly the spec's parameters.
 * - The etchComplete mail's link downloads the completed documents (PDFs whose signatures verify);
 *   a finished signer's own link shows the same downloads; that mail's token is no signing link.
 * - A regenerated URL leaves the earlier one valid; after signing, every token of the signer reads `valid: false`.
 * - An unknown eid is a 404 for every operation that takes one.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { unzipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPdf } from '../src/signing/index.js';
import { closeBrowser, closeServer } from './helpers/close.js';
import { launchTestBrowser } from './helpers/browser.js';
import { startServe, type ServeProcess } from './helpers/serve.js';
import { tempDir } from './helpers/signing.js';
import { SmtpSink, tokenOf, until } from './helpers/workflow.js';

const Anvil = anvilModule.default;
const KEY = 'prod-links-key-0123456789';

let tmp: { dir: string; remove: () => Promise<void> };
let smtp: SmtpSink;
let serve: ServeProcess;
let base = '';
let browser: Browser;
let host: http.Server;
let hostBase = '';
/** What the host app's `/back` (a signer's redirectURL) was called with. */
const redirects: URLSearchParams[] = [];

type Client = InstanceType<typeof Anvil>;
let client: Client;

beforeAll(async () => {
  tmp = await tempDir('castpress-links-');
  await writeFile(path.join(tmp.dir, 'keys.json'), JSON.stringify({ keys: [{ key: KEY, kind: 'production' }] }));
  smtp = await SmtpSink.start();
  // The embedding app: `/?src=URL` frames URL and records every message posted to it; `/back` is a redirectURL.
  host = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/back') {
      redirects.push(u.searchParams);
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>back in the app</title>');
      return;
    }
    const src = (u.searchParams.get('src') ?? 'about:blank').replace(/"/g, '&quot;');
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>host app</title><script>window.messages = [];
addEventListener('message', (e) => window.messages.push({ origin: e.origin, data: e.data }));</script>
<iframe id="signing" src="${src}" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
  hostBase = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  serve = startServe([
    '--port',
    '0',
    '--keys',
    path.join(tmp.dir, 'keys.json'),
    '--data',
    path.join(tmp.dir, 'data'),
    '--smtp',
    `127.0.0.1:${smtp.port}`,
    '--frame-ancestor',
    hostBase,
  ]);
  base = await serve.url;
  client = new Anvil({ apiKey: KEY, baseURL: base });
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await closeBrowser(browser);
  if (serve && serve.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  await smtp?.close();
  await closeServer(host);
  await tmp?.remove();
}, 60_000);

async function pdfWith(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(text, { x: 72, y: 720, size: 12, font });
  return Buffer.from(await doc.save());
}

interface Created {
  eid: string;
  documentGroup: { eid: string; signers: Array<{ eid: string; aliasId: string }> };
}
type Answer = { statusCode: number; data?: { data?: Record<string, unknown> }; errors?: unknown[] };

const ok = (r: unknown): Record<string, unknown> => {
  const a = r as Answer;
  expect(a.errors, JSON.stringify(a.errors)).toBeUndefined();
  expect(a.statusCode).toBe(200);
  return a.data!.data!;
};

/** A sent packet of `files` uploaded PDFs, each with a signature box for one embedded signer. */
async function packet(name: string, signer: Record<string, unknown>, files = 1): Promise<Created> {
  const uploads = await Promise.all(
    Array.from({ length: files }, async (_, i) => ({
      id: `doc${i}`,
      title: `Document ${i + 1}`,
      file: Anvil.prepareGraphQLFile(await pdfWith(`${name}, document ${i + 1}`), {
        filename: `doc${i + 1}.pdf`,
        mimetype: 'application/pdf',
      }),
      fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } }],
    })),
  );
  const created = ok(
    await client.createEtchPacket({
      variables: {
        name,
        isDraft: false,
        isTest: true,
        files: uploads,
        signers: [
          {
            id: 'ada',
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            signerType: 'embedded',
            fields: uploads.map((f) => ({ fileId: f.id, fieldId: 'sig' })),
            ...signer,
          },
        ],
      },
    }),
  ).createEtchPacket as Created;
  return created;
}

const signUrl = async (signerEid: string): Promise<string> => {
  const r = await client.generateEtchSignUrl({ variables: { signerEid, clientUserId: 'user-ada' } });
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.url!;
};

const withToken = (url: string, token: string): string => {
  const u = new URL(url);
  u.searchParams.set('token', token);
  return u.toString();
};

/** The messages the host app received once `ok` holds for them (or the deadline passes). */
async function framed(src: string, count: number): Promise<Array<{ origin: string; data: Record<string, unknown> }>> {
  const page = await browser.newPage();
  try {
    await page.goto(`${hostBase}/?src=${encodeURIComponent(src)}`);
    await page
      .waitForFunction((n) => (window as unknown as { messages: unknown[] }).messages.length >= n, count, {
        timeout: 20_000,
      })
      .catch(() => undefined);
    return (await page.evaluate(() => (window as unknown as { messages: unknown[] }).messages)) as Array<{
      origin: string;
      data: Record<string, unknown>;
    }>;
  } finally {
    await page.close();
  }
}

/** The signer finishes as the signing page does: a typed signature, each of their boxes (one per document) accepted. */
const submit = (signerEid: string, token: string, documents: number) =>
  fetch(`${base}/sign/${signerEid}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({
      token,
      signature: { type: 'typed', text: 'Ada Lovelace' },
      accepted: Array.from({ length: documents }, (_, document) => ({ document, fieldId: 'sig' })),
    }),
  });

const TOKENS_QUERY = `{ eid documentGroup { eid status signers { eid status signerTokens { eid type valid invalidatedAt hasSigned signedAt } } } }`;
interface TokenRead {
  eid: string;
  type: string;
  valid: boolean;
  invalidatedAt: string | null;
  hasSigned: boolean;
}
async function tokensOf(eid: string): Promise<TokenRead[]> {
  const r = ok(await client.getEtchPacket({ variables: { eid }, responseQuery: TOKENS_QUERY }));
  const p = r.etchPacket as { documentGroup: { signers: Array<{ signerTokens: TokenRead[] }> } };
  return p.documentGroup.signers[0]!.signerTokens;
}

describe('links: signerError pages, invalid-token redirects, completion downloads, token lifetimes', () => {
  it('an iframe on another origin receives signerError for an expired and for an invalid link', async () => {
    const p = await packet('Iframe errors', {});
    const signerEid = p.documentGroup.signers[0]!.eid;

    // Expired: the URL's token ended (expireSignerTokens) before the app framed it.
    const expiredUrl = await signUrl(signerEid);
    ok(
      await client.requestGraphQL({
        query: 'mutation($s: String!) { expireSignerTokens(signerEid: $s) { signerEid } }',
        variables: { s: signerEid },
      }),
    );
    const expired = await framed(`${expiredUrl}&withinIframe=true`, 1);
    expect(expired).toHaveLength(1);
    expect(expired[0]!.origin).toBe(base);
    expect(expired[0]!.data).toMatchObject({
      action: 'signerError',
      errorType: 'tokenExpired',
      signerEid,
      signerStatus: 'sent',
      etchPacketEid: p.eid,
      documentGroupEid: p.documentGroup.eid,
      documentGroupStatus: 'sent',
    });
    expect(expired[0]!.data.error).toBeTruthy();
    expect(expired[0]!.data.message).toBeTruthy();

    // Invalid: a token that is not this signer's. Only the error parameters and the signer eid (spec).
    const invalid = await framed(`${withToken(await signUrl(signerEid), 'not-a-token-of-ada')}&withinIframe=true`, 1);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]!.origin).toBe(base);
    expect(Object.keys(invalid[0]!.data).sort()).toEqual(['action', 'error', 'errorType', 'message', 'signerEid']);
    expect(invalid[0]!.data).toMatchObject({ action: 'signerError', errorType: 'tokenInvalid', signerEid });
  }, 180_000);

  it('an invalid token redirects to the redirectURL with only the error parameters and the signer eid', async () => {
    const p = await packet('Invalid redirect', { redirectURL: `${hostBase}/back` });
    const signerEid = p.documentGroup.signers[0]!.eid;
    const res = await fetch(withToken(await signUrl(signerEid), 'someone-elses-token'), { redirect: 'manual' });
    expect(res.status).toBe(303);
    const target = new URL(res.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe(`${hostBase}/back`);
    expect([...target.searchParams.keys()].sort()).toEqual(['action', 'error', 'errorType', 'message', 'signerEid']);
    expect(target.searchParams.get('action')).toBe('signerError');
    expect(target.searchParams.get('errorType')).toBe('tokenInvalid');
    expect(target.searchParams.get('signerEid')).toBe(signerEid);

    // Inside the app's iframe: the message first, then the frame goes to the redirectURL with the same parameters.
    redirects.length = 0;
    const messages = await framed(`${withToken(await signUrl(signerEid), 'another-wrong-one')}&withinIframe=true`, 1);
    expect(messages.map((m) => m.data.errorType)).toEqual(['tokenInvalid']);
    const back = await until(
      () => redirects,
      (r) => r.length > 0,
    );
    expect([...back[0]!.keys()].sort()).toEqual(['action', 'error', 'errorType', 'message', 'signerEid']);
  }, 180_000);

  it("the etchComplete mail's link downloads the signed documents; the signer's page shows them; every token reads invalid", async () => {
    const p = await packet('Completed downloads', {}, 2);
    const signerEid = p.documentGroup.signers[0]!.eid;
    const first = tokenOf(await signUrl(signerEid)).token;
    // A regenerated URL leaves the first valid (the spec's recovery: again, optionally after expireSignerTokens).
    const second = tokenOf(await signUrl(signerEid)).token;
    expect((await fetch(`${base}/sign/${signerEid}?token=${first}`)).status).toBe(200);
    expect((await fetch(`${base}/sign/${signerEid}?token=${second}`)).status).toBe(200);
    expect((await tokensOf(p.eid)).map((t) => [t.valid, t.invalidatedAt])).toEqual([
      [true, null],
      [true, null],
    ]);

    const signed = await submit(signerEid, second, 2);
    expect(signed.status, await signed.clone().text()).toBe(200);
    expect((await signed.json()) as { event: { documentGroupStatus: string } }).toMatchObject({
      event: { documentGroupStatus: 'completed' },
    });

    // After signing: no token of the signer reads valid (the used one has signed, the others ended).
    const tokens = await tokensOf(p.eid);
    expect(tokens).toHaveLength(2);
    expect(tokens.map((t) => t.valid)).toEqual([false, false]);
    expect(tokens.map((t) => t.hasSigned)).toEqual([false, true]);
    // The first ended when the second signed; the signed one is not "invalidated".
    expect(tokens.map((t) => t.invalidatedAt !== null)).toEqual([true, false]);
    const ended = await fetch(`${base}/sign/${signerEid}?token=${first}`);
    expect(ended.status).toBe(401);
    expect(await ended.text()).toMatch(/no longer valid/);

    // The completion mail, through the SMTP sink: its link downloads the zip of the signed documents.
    const [mail] = await until(
      () => smtp.to('ada@example.com'),
      (m) => m.length > 0,
    );
    const text = mail!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = /(http:\/\/\S+\/download\/signer\/\S+)/.exec(text)?.[1];
    expect(link, text).toBeDefined();
    const zip = await fetch(link!);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(entries).sort()).toEqual(['doc1.pdf', 'doc2.pdf']);
    const root = await rootCertificate();
    for (const bytes of Object.values(entries)) await expectSealed(bytes, root);
    // One document of it, by index.
    const one = await fetch(link!.replace('?token=', '/1?token='));
    expect(one.headers.get('content-type')).toBe('application/pdf');
    await expectSealed(new Uint8Array(await one.arrayBuffer()), root);

    // The mail's token is no SignerToken and opens no signing page; it still reads as no valid token.
    expect(await tokensOf(p.eid)).toHaveLength(2);
    const mailToken = new URL(link!).searchParams.get('token')!;
    expect((await fetch(`${base}/sign/${signerEid}?token=${mailToken}`, { redirect: 'manual' })).status).toBe(403);

    // The signer's own link (the one that signed) shows the same downloads now the packet is complete.
    const page = await fetch(`${base}/sign/${signerEid}?token=${second}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Signed documents');
    const hrefs = [...html.matchAll(/href="(\/download\/signer\/[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(hrefs).toHaveLength(3); // the zip and each document
    const fromPage = await fetch(`${base}${hrefs[0]}`);
    expect(fromPage.headers.get('content-type')).toBe('application/zip');
    expect(Object.keys(unzipSync(new Uint8Array(await fromPage.arrayBuffer()))).sort()).toEqual([
      'doc1.pdf',
      'doc2.pdf',
    ]);
    // A signing token the signer did not sign with downloads nothing.
    expect((await fetch(`${base}/download/signer/${signerEid}?token=${first}`)).status).toBe(403);
  }, 180_000);

  it('encrypted data to a server without a private key: a 400 worded for the API caller, not the library', async () => {
    const r = (await client.createEtchPacket({
      variables: {
        name: 'Encrypted',
        isTest: true,
        files: [
          {
            id: 'doc0',
            file: Anvil.prepareGraphQLFile(await pdfWith('x'), { filename: 'x.pdf', mimetype: 'application/pdf' }),
          },
        ],
        signers: [],
        data: 'an-encrypted-string',
      },
    })) as unknown as Answer & {
      errors?: Array<{ message: string; fields?: Array<{ property: string; message: string }> }>;
    };
    expect(r.statusCode).toBe(400);
    const text = JSON.stringify(r.errors);
    expect(text).toContain('--private-key');
    expect(text).not.toContain('assemblePacket');
  }, 60_000);

  it('unknown signaturePageOptions keys are accepted and ignored, each named in the packet warnings', async () => {
    const created = ok(
      await client.createEtchPacket({
        variables: {
          name: 'Tolerant options',
          isTest: true,
          signaturePageOptions: {
            title: 'Sign here',
            hostedOnlyOption: true,
            style: { primaryColor: '#123456', fancy: 1 },
          },
          files: [
            {
              id: 'doc0',
              file: Anvil.prepareGraphQLFile(await pdfWith('x'), { filename: 'x.pdf', mimetype: 'application/pdf' }),
              fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } }],
            },
          ],
          signers: [
            {
              id: 'ada',
              name: 'Ada',
              email: 'ada2@example.com',
              signerType: 'embedded',
              fields: [{ fileId: 'doc0', fieldId: 'sig' }],
            },
          ],
        },
        responseQuery: '{ eid status warnings }',
      }),
    ).createEtchPacket as { status: string; warnings: string[] };
    expect(created.status).toBe('sent');
    expect(created.warnings).toEqual([
      'signaturePageOptions.hostedOnlyOption: not an option castpress knows; ignored',
      'signaturePageOptions.style.fancy: not an option castpress knows; ignored',
    ]);

    // The same lines as response headers (X-Castpress-Warning), for a caller that selects no `warnings`.
    const raw = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`,
      },
      body: JSON.stringify({
        query:
          'mutation($f: [EtchFile!], $s: [JSON!], $o: JSON) { createEtchPacket(name: "Headers", isTest: true, signaturePageOptions: $o, files: $f, signers: $s) { eid } }',
        variables: {
          o: { title: 'Sign', hostedOnlyOption: true },
          f: [
            {
              id: 'doc0',
              file: (await pdfWith('y')).toString('base64'),
              fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } }],
            },
          ],
          s: [
            {
              id: 'ada',
              name: 'Ada',
              email: 'ada3@example.com',
              signerType: 'embedded',
              fields: [{ fileId: 'doc0', fieldId: 'sig' }],
            },
          ],
        },
      }),
    });
    expect(raw.status, await raw.clone().text()).toBe(200);
    expect(raw.headers.get('x-castpress-warning')).toBe(
      'signaturePageOptions.hostedOnlyOption: not an option castpress knows; ignored',
    );
  }, 180_000);

  it('an unknown eid is a 404 NotFound for every operation that takes one', async () => {
    const answers: Record<string, unknown> = {
      etchPacket: await client.getEtchPacket({ variables: { eid: 'pkt_unknown' } }),
      sendEtchPacket: await client.requestGraphQL({
        query: 'mutation { sendEtchPacket(eid: "pkt_unknown") { eid } }',
      }),
      updateEtchPacket: await client.requestGraphQL({
        query: 'mutation { updateEtchPacket(eid: "pkt_unknown", name: "x") { eid } }',
      }),
      generateEtchSignURL: await client.requestGraphQL({
        query: 'mutation { generateEtchSignURL(signerEid: "sgn_unknown", clientUserId: "u") }',
      }),
      expireSignerTokens: await client.requestGraphQL({
        query: 'mutation { expireSignerTokens(signerEid: "sgn_unknown") { signerEid } }',
      }),
      updateSigner: await client.requestGraphQL({
        query: 'mutation { updateSigner(eid: "sgn_unknown", name: "x") { eid } }',
      }),
      downloadDocuments: await client.downloadDocuments('grp_unknown'),
    };
    const statuses = Object.fromEntries(
      Object.entries(answers).map(([op, a]) => [op, (a as { statusCode: number }).statusCode]),
    );
    expect(statuses).toEqual(Object.fromEntries(Object.keys(answers).map((op) => [op, 404])));
  }, 60_000);
});

/** The root of the server's local signing certificate (made in `--data` on first use). */
async function rootCertificate(): Promise<string> {
  const files = await readdir(path.join(tmp.dir, 'data'), { recursive: true });
  const root = files.find((f) => path.basename(f) === 'root-ca.pem');
  expect(root, files.join('\n')).toBeDefined();
  return readFile(path.join(tmp.dir, 'data', root!), 'utf8');
}

async function expectSealed(bytes: Uint8Array, root: string): Promise<void> {
  expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  const report = await verifyPdf(bytes, { trustAnchors: [root] });
  expect(report.signatures.length).toBeGreaterThan(0);
  expect(report.wholeDocumentSigned, report.problems.join('\n')).toBe(true);
  for (const s of report.signatures)
    expect(s, report.problems.join('\n')).toMatchObject({ digestMatches: true, signatureValid: true, valid: true });
}
