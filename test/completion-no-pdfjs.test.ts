/**
 * Start-up: the certificate of completion draws the signers' adopted marks in the rooms the
 * Markdown layout reports (`RenderedPdf.blocks`), so completing a packet never loads pdf.js, which costs
 * every fresh process (`castpress worker`, the crash test's children) ~0.6-1.2 s of CPU at its first
 * completion. A child process works one packet to its completion (the crash test's child, whose signers
 * adopt drawn signatures) with test/helpers/module-log.mjs preloaded, and lists what it loaded.
 * The marks are then checked in place: read back with pdf.js here, in the test, never in the product.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { certificateDocument, certificateRequest, type CompletionCertificate } from '../src/packets/index.js';
import { createSigningIdentity, type SigningIdentity } from '../src/signing/index.js';
import { readText } from './helpers/pdf.js';
import { exited, waitForOutput } from './helpers/redis.js';
import { tempDir } from './helpers/signing.js';

let tmp: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  tmp = await tempDir('castpress-no-pdfjs-');
});
afterAll(() => tmp?.remove());

describe('completing a packet with adopted marks', () => {
  it('loads no pdf.js module in a fresh process', async () => {
    const log = path.join(tmp.dir, 'modules.log');
    const recorder = pathToFileURL(path.resolve('test/helpers/module-log.mjs')).href;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        recorder,
        path.resolve('test/helpers/workflow-crash-child.ts'),
        path.join(tmp.dir, 'store'),
        path.join(tmp.dir, 'identity'),
        'http://127.0.0.1:9/hooks',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, CASTPRESS_MODULE_LOG: log } },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    try {
      await waitForOutput(child, /ready\n/, 120_000);
      const done = waitForOutput(child, /done /, 120_000);
      child.stdin.write('go\n');
      await done;
      // The packet went through its completion (the seal and the certificate with its signers' marks).
      expect(output).toMatch(/at submit b\n[\s\S]*done /);
    } finally {
      // A closed stdin ends the child (exit code 0), and the recorder writes CommonJS modules at exit.
      child.stdin.end();
      await exited(child);
    }
    const modules = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    // The recorder saw the packet code (so the list is real) and no module of pdfjs-dist.
    expect(modules.some((m) => m.includes('src/packets/signatures/complete.ts'))).toBe(true);
    expect(modules.filter((m) => /[\\/]pdfjs-dist[\\/]/.test(m))).toEqual([]);
  }, 240_000);
});

describe('the adopted marks on the certificate', () => {
  const engine = createEngine({ now: () => new Date('2026-01-05T10:00:00Z') });
  let identity: SigningIdentity;
  beforeAll(async () => {
    identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'marks-identity') });
  }, 60_000);
  afterAll(() => engine.close());

  it('are drawn in the rooms the layout reports, each in its own signer’s and kind’s cell', async () => {
    // The identity is made now: the seal's signing time must fall in its validity.
    const at = new Date();
    const certificate: CompletionCertificate = {
      packetName: 'Rooms',
      packetEid: 'p1',
      completedAt: at,
      documents: [{ name: 'Terms', sha256Before: 'a'.repeat(64), sha256After: 'b'.repeat(64) }],
      sealingCertificate: { subject: 'CN=test', sha256: 'c'.repeat(64) },
      signers: [
        {
          name: 'Ada',
          email: 'ada@example.com',
          routingOrder: 1,
          signedAt: at,
          adopted: { signature: { type: 'typed', text: 'AdaSigns' }, initials: { type: 'typed', text: 'AdaIn' } },
        },
        { name: 'Bo', email: 'bo@example.com', routingOrder: 2, signedAt: at },
        {
          name: 'Cy',
          email: 'cy@example.com',
          routingOrder: 3,
          signedAt: at,
          adopted: { initials: { type: 'typed', text: 'CyIn' } },
        },
      ],
    };
    // The same request certificateDocument lays out (the sealing certificate is named already).
    const { blocks = [] } = await engine.generateDocument(certificateRequest(certificate));
    const pdf = await certificateDocument(engine, { identity, certificate });
    const pages = await readText(pdf);
    const rooms = blocks.flatMap((b) =>
      (b.cells ?? []).filter((c) => c.row === 1).map((c) => ({ ...c, id: b.id, page: b.page })),
    );
    expect(rooms.map((r) => `${r.id}/${r.column}`)).toEqual([
      'adopted-marks-1/0',
      'adopted-marks-1/1',
      'adopted-marks-3/0',
    ]);
    const labels: Record<string, string> = {
      AdaSigns: 'Adopted signature (signer 1)',
      AdaIn: 'Adopted initials (signer 1)',
      CyIn: 'Adopted initials (signer 3)',
    };
    for (const [text, room] of [
      ['AdaSigns', rooms[0]!],
      ['AdaIn', rooms[1]!],
      ['CyIn', rooms[2]!],
    ] as const) {
      const drawn = pages.flatMap((p, page) => p.items.filter((i) => i.str === text).map((item) => ({ page, item })));
      expect(drawn, text).toHaveLength(1);
      const { page, item } = drawn[0]!;
      expect(page, text).toBe(room.page);
      expect(item.x, text).toBeGreaterThanOrEqual(room.x);
      expect(item.x + item.width, text).toBeLessThanOrEqual(room.x + room.width);
      expect(item.y, text).toBeGreaterThanOrEqual(room.y);
      expect(item.baseline, text).toBeLessThanOrEqual(room.y + room.height);
      // Its label stands right above its room, in the header row of the same table.
      const label = pages[page]!.items.filter(
        (i) => i.x >= room.x && i.x < room.x + room.width && i.baseline < room.y && room.y - i.baseline < 20,
      );
      expect(
        label
          .map((i) => i.str)
          .join('')
          .trim(),
        text,
      ).toBe(labels[text]);
    }
  }, 120_000);
});
