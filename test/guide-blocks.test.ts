/**
 * docs.test.ts runs a guide's ts blocks in one process (test/helpers/guide-blocks.ts) instead of one
 * process per block: a block must still pass or fail as it did as a process of its own.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuideRunner } from './helpers/guide-blocks.js';
import { tempDir } from './helpers/signing.js';

let tmp: { dir: string; remove: () => Promise<void> };
let runner: GuideRunner;

const BLOCKS: Record<string, string> = {
  'waits.mjs': "setTimeout(() => console.log('late'), 200);\nconsole.log('early');\n",
  'unref.mjs': "setInterval(() => undefined, 1000).unref();\nconsole.log('unref');\n",
  'cwd.mjs': "import { writeFileSync } from 'node:fs';\nwriteFileSync('here.txt', 'x');\nconsole.log(process.cwd());\n",
  'leaks.mjs': "import { createServer } from 'node:http';\ncreateServer().listen(0, '127.0.0.1');\n",
  'throws.mjs': "await Promise.resolve();\nthrow new Error('block error');\n",
  'exit-code.mjs': 'process.exitCode = 3;\n',
  'rejects-later.mjs': "setTimeout(() => Promise.reject(new Error('nobody handles this')), 10);\n",
};

beforeAll(async () => {
  tmp = await tempDir('castpress-guide-blocks-');
  for (const [name, code] of Object.entries(BLOCKS)) await writeFile(path.join(tmp.dir, name), code);
  // A short settle ceiling: the leaking block fails in 2 s instead of the docs' 150 s.
  runner = new GuideRunner(tmp.dir, { ...process.env, BLOCK_SETTLE_MS: '2000' });
});

afterAll(async () => {
  await runner?.close();
  await tmp?.remove();
});

const block = (name: string) => runner.run(path.join(tmp.dir, name), tmp.dir, 60_000);

describe('guide blocks in one process', () => {
  it('a block ends when its process would have: after its pending timers, not before', async () => {
    expect((await block('waits.mjs')).stdout).toBe('early\nlate\n');
    expect((await block('unref.mjs')).stdout).toBe('unref\n');
  });

  it('runs in the folder it is given', async () => {
    const sub = path.join(tmp.dir, 'sub');
    await mkdir(sub);
    await writeFile(path.join(sub, 'cwd.mjs'), BLOCKS['cwd.mjs']!);
    expect((await runner.run(path.join(sub, 'cwd.mjs'), sub, 60_000)).stdout.trim()).toBe(sub);
  });

  it('fails a block that throws, that sets a failing exit code, or that leaves a server open', async () => {
    await expect(block('throws.mjs')).rejects.toThrow('block error');
    await expect(block('exit-code.mjs')).rejects.toThrow('exit code 3');
    await expect(block('leaks.mjs')).rejects.toThrow(/left the process running: TCPServerWrap/);
  });

  it('an unhandled rejection after the block returned ends the runner, and fails the block', async () => {
    const late = new GuideRunner(tmp.dir, process.env);
    try {
      await expect(late.run(path.join(tmp.dir, 'rejects-later.mjs'), tmp.dir, 60_000)).rejects.toThrow(
        /runner ended[\s\S]*nobody handles this/,
      );
    } finally {
      await late.close();
    }
  });
});
