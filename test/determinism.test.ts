/**
 * Same request, same bytes: the fill (flat and interactive), Markdown and HTML documents made in two
 * separate node processes, with the engine's clock pinned, are byte-identical. Chromium stamps the wall
 * clock into its print's /CreationDate and /ModDate; castpress puts the engine's clock in their place, in
 * the print's own revision as in the document information it writes.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const child = path.join(root, 'test', 'helpers', 'determinism-child.ts');

interface ChildOutput {
  fill: string;
  interactive: string;
  markdown: string;
  html: string;
  htmlBase64: string;
}

async function inChildProcess(): Promise<ChildOutput> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', child], {
    cwd: root,
    env: { ...process.env, HTML: '1' },
    timeout: 120_000,
    maxBuffer: 64 << 20,
  });
  return JSON.parse(stdout) as ChildOutput;
}

describe('determinism', () => {
  it('gives byte-identical fill, Markdown and HTML PDFs in two processes with a pinned clock', async () => {
    const started = Date.now(); // clock-ok: waits for the next second of the clock; asserts no duration
    const first = await inChildProcess();
    // The second process starts in a later second, so any wall-clock date in the output would show.
    await new Promise((r) => setTimeout(r, Math.max(0, 1100 - (Date.now() - started))));
    const second = await inChildProcess();

    expect(second.fill).toBe(first.fill);
    expect(second.interactive).toBe(first.interactive);
    expect(second.markdown).toBe(first.markdown);

    // Every date in the file, in every revision, is the pinned clock (2026-01-02T03:04:05Z).
    const html = Buffer.from(first.htmlBase64, 'base64').toString('latin1');
    const dates = [...html.matchAll(/\/(?:CreationDate|ModDate)\s*\(D:(\d{14})/g)].map((m) => m[1]);
    expect(dates.length).toBeGreaterThanOrEqual(2);
    expect(new Set(dates)).toEqual(new Set(['20260102030405']));
    expect(second.html).toBe(first.html);
  }, 240_000);
});
