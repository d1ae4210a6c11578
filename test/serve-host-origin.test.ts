/**
 * The signing page and the packets' stylesheet check do not follow a client's `Host` header, and the
 * signing page's posts compare the whole Origin (scheme, host, port), through `castpress serve` (issue
 * 47). "This server's origin" is its listening address here (`--public-url` when given), whatever
 * Host a request names: a page requested with `Host: evil.example:8443` still links the packet's
 * stylesheet on the server's own origin, and its CSP names no other; a packet created with that Host
 * cannot pass `http://evil.example:8443/…` off as same-origin (plain http elsewhere is refused); a submit
 * whose Origin is `https://` + the server's host and port is refused, the page's own is taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, SERVE_KEY, signUrlOf, startPacketServe, type PacketServe } from './helpers/packet-serve.js';
import { tempDir } from './helpers/signing.js';
import { rawRequest } from './server-setup.js';
import { tokenOf } from './helpers/workflow.js';

const EVIL = 'evil.example:8443';

let tmp: { dir: string; remove: () => Promise<void> };
let served: PacketServe;

beforeAll(async () => {
  tmp = await tempDir('castpress-host-origin-');
  served = await startPacketServe(tmp.dir);
}, 120_000);

afterAll(async () => {
  await served?.close();
  await tmp?.remove();
}, 60_000);

/** A request to the server with headers fetch will not send (Host); the body as text. */
async function raw(method: string, pathName: string, headers: Record<string, string>, body?: string) {
  const r = await rawRequest(served.base, pathName, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { ...r, body: r.body.toString() };
}

const packet = (stylesheetURL: string) => ({
  name: 'Styled',
  isDraft: false,
  isTest: true,
  signaturePageOptions: { style: { stylesheetURL } },
  files: [
    {
      id: 'doc',
      filename: 'doc.pdf',
      title: 'Doc',
      fields: [
        { content: 'Agreed.' },
        { id: 's', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 30 } },
      ],
    },
  ],
  signers: [
    {
      id: 'a',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      signerType: 'embedded',
      acceptEachField: false,
      fields: [{ fileId: 'doc', fieldId: 's' }],
    },
  ],
});

describe('a spoofed Host header', () => {
  let signUrl = '';

  beforeAll(async () => {
    const created = ok(await served.client.createEtchPacket({ variables: packet(`${served.base}/brand.css`) }))
      .createEtchPacket as { documentGroup: { signers: Array<{ eid: string }> } };
    signUrl = await signUrlOf(served.client, created.documentGroup.signers[0]!.eid, 'ada-1');
  }, 120_000);

  it("does not move the signing page's stylesheet to that host", async () => {
    const url = new URL(signUrl);
    const page = await raw('GET', url.pathname + url.search, { host: EVIL });
    expect(page.status, page.body.slice(0, 300)).toBe(200);
    const href = /<link rel="stylesheet"[^>]*href="([^"]+)"/.exec(page.body)?.[1];
    expect(href).toBe(`${served.base}/brand.css`);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).not.toContain('evil.example');
    expect(csp).toMatch(new RegExp(`style-src 'nonce-[^']+' ${served.base.replace(/[.]/g, '\\.')};`));
  });

  it('does not make another host "this server\'s origin" for a packet\'s stylesheet', async () => {
    const { files, signers } = packet('');
    const body = JSON.stringify({
      query:
        'mutation($files: [EtchFile!], $signers: [JSON!], $o: JSON){ createEtchPacket(name: "CSS", isTest: true, files: $files, signers: $signers, signaturePageOptions: $o){ eid } }',
      variables: { files, signers, o: { style: { stylesheetURL: `http://${EVIL}/brand.css` } } },
    });
    const answer = await raw(
      'POST',
      '/graphql',
      {
        host: EVIL,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        authorization: `Basic ${Buffer.from(`${SERVE_KEY}:`).toString('base64')}`,
      },
      body,
    );
    const json = JSON.parse(answer.body) as {
      errors?: Array<{ extensions: { name: string; fields: Array<{ property: string }> } }>;
    };
    expect(answer.status, answer.body).toBe(400);
    expect(json.errors![0]!.extensions.fields[0]!.property).toBe('signaturePageOptions.style.stylesheetURL');
  });
});

describe("the signing page's posts", () => {
  it("refuse an Origin of another scheme on the same host and port; take the page's own", async () => {
    const created = ok(await served.client.createEtchPacket({ variables: packet(`${served.base}/brand.css`) }))
      .createEtchPacket as { documentGroup: { signers: Array<{ eid: string }> } };
    const { signerEid, token } = tokenOf(
      await signUrlOf(served.client, created.documentGroup.signers[0]!.eid, 'ada-2'),
    );
    const submit = (origin: string) =>
      fetch(`${served.base}/sign/${encodeURIComponent(signerEid)}/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ token, signature: { type: 'typed', text: 'Ada Lovelace' }, accepted: [] }),
      });
    const https = `https://${new URL(served.base).host}`;
    const refused = await submit(https);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { event: { message: string } }).event.message).toMatch(/Cross-site/);
    const own = await submit(served.base);
    expect(own.status, await own.clone().text()).toBe(200);
  }, 120_000);
});
