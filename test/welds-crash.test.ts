/**
 * Welds crash safety (#33): a child submits forges on an embedded store and is killed with SIGKILL
 * at random moments (WELD_CRASH_POINTS, default 3: each kill pays a child's start, ~20 s on this loaded machine). After each
 * kill the store must agree with itself: every run has its forges' submissions in order, a run is
 * `submitted` exactly when every forge is in, and every submission the child saw committed is there.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSqliteStore } from '../src/packets/index.js';
import { tempDir } from './helpers/signing.js';

const POINTS = Number(process.env.WELD_CRASH_POINTS ?? 3);
const CHILD = path.join(import.meta.dirname, 'helpers', 'welds-crash-child.ts');
let tmp: { dir: string; remove: () => Promise<void> };

const definition = {
  eid: 'weldCrash',
  slug: 'crash',
  title: 'Crash',
  forges: [
    {
      eid: 'f1',
      slug: 'one',
      name: 'One',
      fields: [{ name: 'name', type: 'shortText', label: 'Name', required: true }],
    },
    { eid: 'f2', slug: 'two', name: 'Two', fields: [{ name: 'note', type: 'longText', label: 'Note' }] },
  ],
  packet: { name: 'P {{one.name}}', files: [{ id: 'doc', fields: [{ content: 'x' }] }], signers: [{ id: 's' }] },
};

beforeAll(async () => {
  tmp = await tempDir('castpress-welds-crash-');
  await mkdir(path.join(tmp.dir, 'wf'), { recursive: true });
  await writeFile(path.join(tmp.dir, 'wf', 'crash.json'), JSON.stringify(definition));
});

afterAll(async () => tmp?.remove());

/** Runs the child until it has committed a few submissions, then kills it at a random moment; the eids it saw committed. */
async function killOnce(): Promise<string[]> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CHILD, path.join(tmp.dir, 'store'), path.join(tmp.dir, 'wf')],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const committed: string[] = [];
  let out = '';
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const l of lines) if (l.startsWith('ok ')) committed.push(l.slice(3));
      if (committed.length >= 2) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code} before working`)));
  });
  // Kill somewhere in the next few submissions (each is a transaction of a few milliseconds).
  await new Promise((r) => setTimeout(r, Math.random() * 60));
  child.kill('SIGKILL');
  await exited;
  return committed;
}

it(`a kill at ${POINTS} random points loses no committed submission and leaves no half-stored run`, async () => {
  const seen: string[] = [];
  for (let k = 0; k < POINTS; k++) {
    seen.push(...(await killOnce()));
    const store = await openSqliteStore({ dir: path.join(tmp.dir, 'store') });
    try {
      const runs = await store.welds.weldDatas('weldCrash');
      expect(runs.length).toBeGreaterThan(0);
      let submissions = 0;
      for (const run of runs) {
        const subs = await store.welds.submissions(run.eid);
        submissions += subs.length;
        expect(subs.map((s) => s.forgeSlug)).toEqual(['one', 'two'].slice(0, subs.length));
        expect(subs.length).toBeGreaterThan(0);
        expect(run.status).toBe(subs.length === 2 ? 'submitted' : 'open');
      }
      for (const eid of seen) expect(await store.welds.submission(eid), eid).toBeDefined();
      expect(submissions).toBeGreaterThanOrEqual(seen.length);
    } finally {
      await store.close();
    }
  }
}, 300_000);
