/**
 * Same request, same bytes: the fill (flat and interactive) and Markdown documents made in two
 * separate node processes, with the engine's clock pinned, are byte-identical. HTML goes through
 * Chromium, which stamps the wall clock into /CreationDate and /ModDate and a fresh /ID into the
 * trailer and offers no way to pin them: its PDFs are identical apart from those three entries.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

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

let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** qpdf's uncompressed form with the entries Chromium takes from the wall clock blanked. */
async function withoutClock(pdf: Buffer, name: string): Promise<{ text: string; blanked: number }> {
  dir ??= await mkdtemp(path.join(tmpdir(), 'castpress-determinism-'));
  const input = path.join(dir, `${name}.pdf`);
  const output = path.join(dir, `${name}.qdf.pdf`);
  await writeFile(input, pdf);
  await run('qpdf', ['--qdf', '--object-streams=disable', input, output]);
  let blanked = 0;
  const text = (await readFile(output, 'latin1')).replace(
    /\/(CreationDate|ModDate) \(D:[^)]*\)|\/ID \[<[0-9a-f]+><[0-9a-f]+>\]/gi,
    (m) => {
      blanked++;
      return m.startsWith('/ID') ? '/ID []' : m.replace(/\(D:[^)]*\)/, '()');
    },
  );
  return { text, blanked };
}

describe('determinism', () => {
  it("gives byte-identical fill and Markdown PDFs in two processes with a pinned clock; HTML differs only in Chromium's dates and /ID", async () => {
    const started = Date.now(); // clock-ok: waits for the next second of the clock; asserts no duration
    const first = await inChildProcess();
    // The second process starts in a later second, so any wall-clock date in the output would show.
    await new Promise((r) => setTimeout(r, Math.max(0, 1100 - (Date.now() - started))));
    const second = await inChildProcess();

    expect(second.fill).toBe(first.fill);
    expect(second.interactive).toBe(first.interactive);
    expect(second.markdown).toBe(first.markdown);

    const a = await withoutClock(Buffer.from(first.htmlBase64, 'base64'), 'a');
    const b = await withoutClock(Buffer.from(second.htmlBase64, 'base64'), 'b');
    expect(a.blanked).toBe(3);
    expect(b.text).toBe(a.text);
  }, 240_000);
});
