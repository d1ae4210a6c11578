/**
 * Smaller hardening over HTTP on a real server: the router's 414 has the typed body,
 * the per-file signing document carries the signing page's frame-ancestors, and a signer who
 * has finished can no longer fetch the documents with their link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PacketBackend } from '../src/server/graphql/index.js';
import { tempDir } from './helpers/signing.js';
import { startSigningServer } from './helpers/signing-page.js';
import { tokenOf } from './helpers/workflow.js';
import type { TestServer } from './server-setup.js';

let server: TestServer;
let backend: PacketBackend;
let tmp: { dir: string; remove: () => Promise<void> };
const FRAMER = 'https://app.example';

beforeAll(async () => {
  tmp = await tempDir('castpress-faults-');
  ({ server, backend } = await startSigningServer(tmp.dir, { signingFrameAncestors: [FRAMER] }));
}, 60_000);

afterAll(async () => {
  await server?.close();
  await tmp?.remove();
}, 60_000);

async function twoSigners() {
  const created = await backend.service.createEtchPacket({
    name: 'Faults',
    files: [
      {
        id: 'doc',
        filename: 'doc.pdf',
        title: 'Doc',
        fields: [
          { content: 'Sign below.' },
          { id: 'sig1', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 40 } },
          { id: 'sig2', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } },
        ],
      },
    ],
    signers: [
      {
        id: 's1',
        name: 'Ada',
        email: 'ada@example.com',
        signerType: 'embedded',
        acceptEachField: false,
        fields: [{ fileId: 'doc', fieldId: 'sig1' }],
      },
      {
        id: 's2',
        name: 'Bob',
        email: 'bob@example.com',
        signerType: 'embedded',
        acceptEachField: false,
        fields: [{ fileId: 'doc', fieldId: 'sig2' }],
      },
    ],
  });
  return created.documentGroup.signers.map((s) => s.eid);
}

describe('the router refuses with the typed body', () => {
  it('a path segment over the router limit: 414 {name, message, fields:[{property: url}]}', async () => {
    const res = await fetch(`${server.base}/sign/${'x'.repeat(5000)}`);
    expect(res.status).toBe(414);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as {
      name: string;
      message: string;
      fields: Array<{ message: string; property: string }>;
    };
    expect(body).toEqual({
      name: 'UriTooLongError',
      message: expect.any(String),
      fields: [{ message: body.message, property: 'url' }],
    });
    // The path is not echoed back.
    expect(body.message).not.toContain('xxxx');
  });

  it('a malformed escape in a path parameter: typed 400 on url', async () => {
    const res = await fetch(`${server.base}/sign/%E0%A4%A/documents/0`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { name: string; fields: Array<{ property: string }> };
    expect(body.name).toBe('ValidationError');
    expect(body.fields[0]!.property).toBe('url');
  });
});

describe('the per-file signing document', () => {
  it('carries the signing page frame-ancestors, on the PDF and on its refusals', async () => {
    const [first] = await twoSigners();
    const url = await backend.service.generateEtchSignURL({ signerEid: first!, clientUserId: 'u1' });
    const { token } = tokenOf(url);
    const page = await fetch(`${server.base}/sign/${first}?token=${encodeURIComponent(token)}`);
    const pageAncestors = /frame-ancestors [^;]*/.exec(page.headers.get('content-security-policy') ?? '')?.[0];
    expect(pageAncestors).toBe(`frame-ancestors 'self' ${FRAMER}`);

    const doc = await fetch(`${server.base}/sign/${first}/documents/0?token=${encodeURIComponent(token)}`);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toBe('application/pdf');
    expect(doc.headers.get('content-security-policy')).toContain(pageAncestors);
    const refused = await fetch(`${server.base}/sign/${first}/documents/0?token=wrong`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-security-policy')).toContain(pageAncestors);
  });

  it('a signer who has signed: their link gets a typed 410, as their page says "Already signed"; the next signer still reads', async () => {
    const [first, second] = await twoSigners();
    const link = tokenOf(await backend.service.generateEtchSignURL({ signerEid: first!, clientUserId: 'u1' }));
    const before = await fetch(`${server.base}/sign/${first}/documents/0?token=${encodeURIComponent(link.token)}`);
    expect(before.status).toBe(200);
    await backend.service.submitSigning({ ...link, inputs: { signature: { type: 'typed', text: 'Ada' } } });

    const page = await fetch(`${server.base}/sign/${first}?token=${encodeURIComponent(link.token)}`);
    expect(await page.text()).toContain('Already signed');
    const after = await fetch(`${server.base}/sign/${first}/documents/0?token=${encodeURIComponent(link.token)}`);
    expect(after.status).toBe(410);
    const body = (await after.json()) as {
      name: string;
      message: string;
      fields: Array<{ message: string; property: string }>;
    };
    expect(body).toEqual({
      name: 'SignerError',
      message: expect.stringMatching(/has signed/),
      fields: [{ message: body.message, property: 'token' }],
    });

    const next = tokenOf(await backend.service.generateEtchSignURL({ signerEid: second!, clientUserId: 'u2' }));
    const theirs = await fetch(`${server.base}/sign/${second}/documents/0?token=${encodeURIComponent(next.token)}`);
    expect(theirs.status).toBe(200);
  });
});
