/**
 * `castpress serve --data DIR` as a user runs it: a packet created over GraphQL
 * lands in DIR (SQLite store, .eml outbox, generated signing CA), an invalid
 * `--smtp` is refused at start, and SIGTERM closes the workflow and exits 0.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from './helpers/serve.js';
import { tempDir } from './helpers/signing.js';

let tmp: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  tmp = await tempDir('castpress-serve-');
});
afterAll(async () => tmp?.remove());

const start = startServe;

describe('castpress serve --data', () => {
  it('keeps packets, mail and the signing CA in the data folder; SIGTERM exits cleanly', async () => {
    const data = path.join(tmp.dir, 'data');
    const s = start(['--no-auth', '--port', '0', '--data', data, '--allow-host', '127.0.0.1', '--log-level', 'silent']);
    const base = await s.url;
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          'mutation($files: [EtchFile!], $signers: [JSON!]){ createEtchPacket(name: "CLI", files: $files, signers: $signers){ eid status documentGroup { signers { status } } } }',
        variables: {
          files: [
            {
              id: 'a',
              filename: 'a.pdf',
              title: 'A',
              fields: [
                { content: 'Hello' },
                { id: 's', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 30 } },
              ],
            },
          ],
          signers: [{ id: 'x', name: 'X Y', email: 'x@example.com', fields: [{ fileId: 'a', fieldId: 's' }] }],
        },
      }),
    });
    const body = (await res.json()) as { data: { createEtchPacket: { status: string } } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.data.createEtchPacket.status).toBe('sent');
    // The email signer's request goes to the .eml outbox.
    let mail: string[] = [];
    for (let i = 0; i < 100 && mail.length === 0; i++) {
      mail = (await readdir(path.join(data, 'mail')).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
      if (mail.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail).toHaveLength(1);
    expect(await readdir(path.join(data, 'packets'))).toContain('packets.db');
    expect(await readdir(path.join(data, 'signing'))).toContain('root-ca.pem');
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 60_000);

  it("--frame-ancestor (repeatable) goes into the signing page's CSP frame-ancestors; a non-origin is refused at start", async () => {
    const s = start([
      '--no-auth',
      '--port',
      '0',
      '--data',
      path.join(tmp.dir, 'd3'),
      '--log-level',
      'silent',
      '--frame-ancestor',
      'https://app.example/embed?x=1',
      '--frame-ancestor',
      'http://127.0.0.1:9000',
    ]);
    const base = await s.url;
    // Any signing-page answer carries the policy (here the error page of an unknown signer).
    const res = await fetch(`${base}/sign/sgn_none?token=x`);
    expect(res.status).toBe(404);
    // Only the origin of each value: a path or query could widen or break the policy.
    expect(res.headers.get('content-security-policy')).toContain(
      "frame-ancestors 'self' https://app.example http://127.0.0.1:9000",
    );
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);

    const bad = start([
      '--no-auth',
      '--port',
      '0',
      '--data',
      path.join(tmp.dir, 'd4'),
      '--frame-ancestor',
      'javascript:alert(1)',
    ]);
    bad.url.catch(() => undefined);
    expect(await bad.exited).not.toBe(0);
    expect(bad.stderr()).toMatch(/--frame-ancestor must be an http\(s\) origin/);
  }, 60_000);

  it('refuses a malformed --smtp at start', async () => {
    const s = start(['--no-auth', '--port', '0', '--data', path.join(tmp.dir, 'd2'), '--smtp', 'nohostport']);
    s.url.catch(() => undefined);
    expect(await s.exited).not.toBe(0);
    expect(s.stderr()).toMatch(/--smtp must be host:port/);
  }, 60_000);
});
