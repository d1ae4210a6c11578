/**
 * A full disk under `castpress serve --data DIR`: DIR is a small tmpfs this test mounts
 * (root only) and fills. Writes are refused with the typed 507 naming what was not stored,
 * the signing page still opens to be read, no partial `.tmp` file stays, a crashed writer's
 * temporary files are swept on the next start, and with space freed everything works again.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, open, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from './helpers/serve.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

const isRoot = process.getuid?.() === 0;
const skipReason = 'mounting a tmpfs needs root (run the suite as root to test a full disk)';

function start(data: string) {
  const s = startServe(['--no-auth', '--port', '0', '--data', data, '--log-level', 'silent']);
  return {
    url: s.url,
    stop: async () => {
      s.child.kill('SIGTERM');
      return s.exited;
    },
  };
}

type GqlResult = {
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: Array<{
      message: string;
      extensions: { name: string; status: number; fields: Array<{ property: string; message: string }> };
    }>;
  };
};

async function gql(base: string, query: string, variables: Record<string, unknown> = {}): Promise<GqlResult> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as GqlResult['body'] };
}

const CREATE =
  'mutation($files: [EtchFile!], $signers: [JSON!]){ createEtchPacket(name: "Disk", files: $files, signers: $signers){ eid documentGroup { signers { eid } } } }';
const packetVars = (label: string) => ({
  files: [
    {
      id: 'a',
      filename: 'a.pdf',
      title: 'A',
      fields: [
        { content: `Document ${label}` },
        { id: 's', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 30 } },
      ],
    },
  ],
  signers: [
    {
      id: 'x',
      name: 'X Y',
      email: 'x@example.com',
      signerType: 'embedded',
      acceptEachField: false,
      fields: [{ fileId: 'a', fieldId: 's' }],
    },
  ],
});

async function createPacket(base: string, label: string): Promise<{ result: GqlResult; signerEid?: string }> {
  const result = await gql(base, CREATE, packetVars(label));
  const created = result.body.data?.createEtchPacket as
    { documentGroup: { signers: Array<{ eid: string }> } } | undefined;
  return { result, signerEid: created?.documentGroup.signers[0]?.eid };
}

async function signUrl(base: string, signerEid: string): Promise<string> {
  const r = await gql(base, 'mutation($s: String!){ generateEtchSignURL(signerEid: $s, clientUserId: "u1") }', {
    s: signerEid,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data!.generateEtchSignURL as string;
}

const submit = (base: string, signerEid: string, token: string) =>
  fetch(`${base}/sign/${signerEid}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, signature: { type: 'typed', text: 'X Y' } }),
  });

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Writes until the file system refuses even a single byte. */
async function fill(file: string): Promise<number> {
  const handle = await open(file, 'w');
  let written = 0;
  try {
    for (const size of [1 << 20, 1 << 16, 4096, 1]) {
      const chunk = Buffer.alloc(size, 7);
      for (;;) {
        try {
          written += (await handle.write(chunk)).bytesWritten;
        } catch (e) {
          expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
          break;
        }
      }
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
  return written;
}

describe.skipIf(!isRoot)(
  `a full disk as --data (${isRoot ? 'tmpfs mounted by the test' : `skipped: ${skipReason}`})`,
  () => {
    let tmp: { dir: string; remove: () => Promise<void> };
    let data = '';
    let mounted = false;
    let server: ReturnType<typeof start> | undefined;

    beforeAll(async () => {
      tmp = await tempDir('castpress-fulldisk-');
      data = path.join(tmp.dir, 'data');
      await mkdir(data);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', data]);
      mounted = true;
    });

    afterAll(async () => {
      await server?.stop();
      if (mounted) execFileSync('umount', ['-l', data]);
      await tmp?.remove();
    });

    it('507 for writes (typed, naming what was not stored), the signing page still reads, no .tmp left; after freeing space and a restart all works', async () => {
      server = start(data);
      let base = await server.url;
      const first = await createPacket(base, 'before');
      expect(first.result.status, JSON.stringify(first.result.body)).toBe(200);
      const link = tokenOf(await signUrl(base, first.signerEid!));

      const filler = path.join(data, 'filler');
      expect(await fill(filler)).toBeGreaterThan(0);

      // A write: createEtchPacket stores documents first, so nothing of the packet is recorded.
      const refused = await createPacket(base, 'while full');
      expect(refused.result.status, JSON.stringify(refused.result.body)).toBe(507);
      const error = refused.result.body.errors![0]!;
      expect(error.extensions.name).toBe('InsufficientStorageError');
      expect(error.extensions.status).toBe(507);
      expect(['packets.documents', 'packets.database']).toContain(error.extensions.fields[0]!.property);

      // A read: the signing page opens (recording "viewed" may not fit: it waits), and the document is served.
      const page = await fetch(`${base}/sign/${link.signerEid}?token=${encodeURIComponent(link.token)}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('id="pad"');
      const doc = await fetch(`${base}/sign/${link.signerEid}/documents/0?token=${encodeURIComponent(link.token)}`);
      expect(doc.status).toBe(200);
      expect(doc.headers.get('content-type')).toBe('application/pdf');

      // Signing stores the signed documents: 507, in the signing page's event form.
      const signing = await submit(base, link.signerEid, link.token);
      expect(signing.status).toBe(507);
      const event = ((await signing.json()) as { event: { action: string; error: string; message: string } }).event;
      expect(event).toMatchObject({ action: 'signerError', error: 'InsufficientStorageError' });
      expect(event.message).toMatch(/disk is full/);

      // Nothing half-written: no temporary file of a failed write stays.
      expect((await filesUnder(data)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

      // Space is freed; a crashed writer's leftovers (a process that is gone, and an old-style name) are planted before the restart.
      await rm(filler);
      expect(await server.stop()).toBe(0);
      const blobDir = path.join(data, 'packets', 'blobs', 'ab');
      await mkdir(blobDir, { recursive: true });
      const crashed = path.join(blobDir, `${'ab'.repeat(32)}.4194305-0a0b0c.tmp`);
      const legacy = path.join(blobDir, `${'ab'.repeat(32)}.0123456789ab.tmp`);
      await writeFile(crashed, 'partial');
      await writeFile(legacy, 'partial');
      await utimes(legacy, new Date('2001-01-01'), new Date('2001-01-01'));

      server = start(data);
      base = await server.url;
      const again = await createPacket(base, 'after');
      expect(again.result.status, JSON.stringify(again.result.body)).toBe(200);
      expect((await filesUnder(data)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

      const page2 = await fetch(`${base}/sign/${link.signerEid}?token=${encodeURIComponent(link.token)}`);
      expect(page2.status).toBe(200);
      const signed = await submit(base, link.signerEid, link.token);
      expect(signed.status, await signed.clone().text()).toBe(200);
      expect(((await signed.json()) as { event: { action: string } }).event.action).toBe('signerComplete');
      const other = tokenOf(await signUrl(base, again.signerEid!));
      expect((await submit(base, other.signerEid, other.token)).status).toBe(200);
    }, 600_000);
  },
);

describe.skipIf(isRoot)(`a full disk as --data: skipped (${skipReason})`, () => {
  it.skip(skipReason, () => undefined);
});
