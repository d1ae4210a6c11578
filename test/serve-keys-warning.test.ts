/**
 * `castpress serve` warns at start about API keys that name no organization: they all
 * belong to the default organization and share every packet. The warning is one line of the server's
 * log naming each such key by its place in the keys file and the start of its SHA-256, never the key.
 * A keys file whose keys all name their organization starts without it.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/signing.js';
import { startServe } from './helpers/serve.js';

let tmp: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  tmp = await tempDir('castpress-keys-warning-');
});
afterAll(async () => tmp?.remove());

/** Starts `castpress serve` on this keys file and returns its log (stdout) up to the listening line. */
async function startLog(keys: unknown[]): Promise<Array<{ level: number; msg: string; keys?: string[] }>> {
  const file = path.join(tmp.dir, `keys-${keys.length}.json`);
  await writeFile(file, JSON.stringify({ keys }));
  const serve = startServe([
    '--port',
    '0',
    '--keys',
    file,
    '--data',
    path.join(tmp.dir, 'data'),
    '--log-level',
    'info',
  ]);
  let out = '';
  const listening = new Promise<void>((resolve) =>
    serve.child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Server listening')) resolve();
    }),
  );
  try {
    await serve.url;
    await listening;
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; keys?: string[] });
}

const sha = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 12);

describe('keys without an organization', () => {
  it('are named in a start-up warning of the server log, never by the key itself', async () => {
    const keys = [
      { key: 'prod-acme-0123456789', kind: 'production', organization: 'acme' },
      { key: 'prod-shared-0123456789', kind: 'production' },
      { key: 'dev-shared-0123456789', kind: 'development' },
    ];
    const log = await startLog(keys);
    const warnings = log.filter((l) => l.level === 40 && /organization/.test(l.msg));
    expect(warnings).toHaveLength(1);
    const warning = warnings[0]!;
    expect(warning.keys).toEqual([
      `keys[1] (production, sha256 ${sha('prod-shared-0123456789')})`,
      `keys[2] (development, sha256 ${sha('dev-shared-0123456789')})`,
    ]);
    expect(warning.msg).toContain('keys[1]');
    expect(warning.msg).toContain('"default"');
    expect(JSON.stringify(log)).not.toMatch(/prod-shared|dev-shared|prod-acme/);
  }, 60_000);

  it('no warning when every key names its organization', async () => {
    const log = await startLog([
      { key: 'prod-acme-0123456789', kind: 'production', organization: 'acme' },
      { key: 'prod-globex-0123456789', kind: 'production', organization: 'globex' },
    ]);
    expect(log.some((l) => l.msg?.includes('Server listening'))).toBe(true);
    expect(log.filter((l) => l.level >= 40)).toEqual([]);
  }, 60_000);
});
