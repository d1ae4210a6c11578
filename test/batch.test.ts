import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBatch, progressLine } from '../src/batch/index.js';
import { pageText } from './helpers/pdf.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-batch-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const md = (i: number) =>
  JSON.stringify({
    id: `doc-${i}`,
    request: {
      title: `Doc ${i}`,
      includeTimestamp: false,
      logo: false,
      data: [{ heading: `Document ${i}` }, { content: `Body of **${i}**.` }],
    },
  });

describe('batch', () => {
  it('runs every good line, reports broken ones with line number and typed error, and resumes', async () => {
    const lines = [
      md(1),
      '{not json',
      md(2),
      '',
      JSON.stringify({ request: { data: [] } }),
      JSON.stringify({ kind: 'fill', request: { data: {} } }),
      md(3),
      JSON.stringify({ request: { data: [{ content: 'x' }] }, output: '../escape.pdf' }),
    ];
    const jobs = path.join(dir, 'jobs.jsonl');
    await writeFile(jobs, lines.join('\n') + '\n');
    const out = path.join(dir, 'out');

    const summary = await runBatch({ jobsFile: jobs, outDir: out, workers: 2 });
    expect(summary).toMatchObject({ total: 7, done: 3, failed: 4, skipped: 0 });
    const files = (await readdir(out)).sort();
    expect(files).toEqual(['doc-1.pdf', 'doc-2.pdf', 'doc-3.pdf', 'errors.jsonl']);
    expect((await pageText(new Uint8Array(await readFile(path.join(out, 'doc-2.pdf')))))[0]).toContain('Document 2');

    const errors = (await readFile(summary.errorsFile, 'utf8'))
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            line: number;
            status: number;
            error: { name: string; fields: Array<{ property: string; message: string }> };
          },
      );
    expect(errors.map((e) => e.line)).toEqual([2, 5, 6, 8]);
    expect(errors[0].error.fields[0]).toMatchObject({
      property: '(line)',
      message: expect.stringMatching(/Not valid JSON/),
    });
    expect(errors[1]).toMatchObject({
      status: 400,
      error: { name: 'ValidationError', fields: [{ property: 'data', message: expect.stringMatching(/at least 1/) }] },
    });
    expect(errors[2].error.fields[0]).toMatchObject({ property: 'template', message: 'A fill job needs a template' });
    expect(errors[3].error.fields[0].property).toBe('output');

    // A second run skips what exists and redoes only what is missing.
    const before = (await stat(path.join(out, 'doc-1.pdf'))).mtimeMs;
    await rm(path.join(out, 'doc-3.pdf'));
    const again = await runBatch({ jobsFile: jobs, outDir: out, workers: 1 });
    expect(again).toMatchObject({ total: 7, done: 1, skipped: 2, failed: 4 });
    expect((await stat(path.join(out, 'doc-1.pdf'))).mtimeMs).toBe(before);
    expect((await readdir(out)).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('draws a progress line with rate and ETA', () => {
    const line = progressLine({ done: 40, failed: 2, skipped: 8, total: 100, startedAt: 0 }, 10_000, 10);
    expect(line).toBe('[#####.....]  50/100  50%  4.2 jobs/s  ETA 12s  (2 failed)  (8 already done)');
  });

  it('progress is out of every job of the file from the first update, not out of the lines read so far', async () => {
    // 200 jobs that fail on their own line (no template) at once: the reader is far ahead of nothing.
    const lines = Array.from({ length: 200 }, (_, i) =>
      i % 50 === 7 ? '' : JSON.stringify({ kind: 'fill', request: { data: {} }, output: `n-${i}.pdf` }),
    );
    const jobs = path.join(dir, 'many.jsonl');
    await writeFile(jobs, lines.join('\n') + '\n');
    const seen: Array<{ finished: number; total: number }> = [];
    const record = (p: { done: number; failed: number; skipped: number; total: number }) =>
      seen.push({ finished: p.done + p.failed + p.skipped, total: p.total });
    const summary = await runBatch({
      jobsFile: jobs,
      outDir: path.join(dir, 'many-out'),
      workers: 1,
      progress: { update: record, finish: record },
    });
    expect(summary).toMatchObject({ total: 196, failed: 196 });
    expect(seen.length).toBeGreaterThan(100);
    expect(new Set(seen.map((s) => s.total))).toEqual(new Set([196]));
    expect(progressLine({ ...summary, done: 0, failed: 1 }, summary.startedAt, 10)).toContain('1/196  0%');
  });
});
