import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCastpress } from './helpers/cli.js';
import { mkdtemp, readFile, readdir, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeMixedJobs } from '../bench/batch.js';
import { pageText, pdffonts, readFields } from './helpers/pdf.js';

const root = repoRoot;
const corpus = path.join(root, 'test', 'fixtures', 'corpus', 'fillable_pdfs');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const castpress = (args: string[]) => runCastpress(args, dir, 300_000);

describe('castpress CLI', () => {
  it('imports a fillable PDF as a template and fills it by field name', async () => {
    await copyFile(path.join(corpus, 'irs_fw9_rev2018_xfa.pdf'), path.join(dir, 'fw9.pdf'));
    const imported = await castpress(['import-template', 'fw9.pdf', '-o', 'w9.json']);
    expect(imported.code).toBe(0);
    const template = JSON.parse(await readFile(path.join(dir, 'w9.json'), 'utf8')) as {
      pdf: string;
      fields: Array<{ alias: string }>;
    };
    expect(template.pdf).toBe('w9.pdf');
    expect(template.fields).toHaveLength(22);

    await writeFile(
      path.join(dir, 'w9-data.json'),
      JSON.stringify({ data: { 'topmostSubform[0].Page1[0].f1_1[0]': 'Ada Lovelace' } }),
    );
    const filled = await castpress(['fill', 'w9.json', 'w9-data.json', '-o', 'w9-out.pdf']);
    expect(filled.code).toBe(0);
    const bytes = new Uint8Array(await readFile(path.join(dir, 'w9-out.pdf')));
    const name = (await readFields(bytes)).find((f) => f.name === 'topmostSubform[0].Page1[0].f1_1[0]');
    const text = (await pageText(bytes))[0];
    expect(name?.value === 'Ada Lovelace' || text.includes('Ada Lovelace')).toBe(true);
  });

  it('generates from a request on stdin-less file and prints typed errors as JSON with exit code 2', async () => {
    await writeFile(
      path.join(dir, 'gen.json'),
      JSON.stringify({ includeTimestamp: false, data: [{ heading: 'From the CLI' }] }),
    );
    expect((await castpress(['generate', 'gen.json', '-o', 'gen.pdf'])).code).toBe(0);
    expect((await pageText(new Uint8Array(await readFile(path.join(dir, 'gen.pdf')))))[0]).toContain('From the CLI');

    await writeFile(path.join(dir, 'bad.json'), JSON.stringify({ data: [{ content: 'x', fontSize: 99 }] }));
    const bad = await castpress(['generate', 'bad.json', '-o', 'bad.pdf']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr)).toMatchObject({
      status: 400,
      name: 'ValidationError',
      fields: [{ property: 'data[0].fontSize' }],
    });
  });

  it('finds font families in --font-dir folders (Markdown fontFamily); an unknown folder is a 400 on the flag', async () => {
    const request = { fontFamily: 'Castpress Catalogue Test', logo: false, data: [{ content: 'From a font folder' }] };
    await writeFile(path.join(dir, 'font-request.json'), JSON.stringify(request));
    // Nothing installed has the family (a renamed Noto Serif Display, test/fixtures/font-catalogue-remote).
    const without = await castpress(['generate', 'font-request.json', '-o', 'no-font.pdf']);
    expect(without.code).toBe(2);
    expect(JSON.parse(without.stdout || without.stderr)).toMatchObject({ fields: [{ property: 'fontFamily' }] });
    const folder = path.join(root, 'test', 'fixtures', 'font-catalogue-remote');
    const made = await castpress(['generate', 'font-request.json', '--font-dir', folder, '-o', 'font.pdf']);
    expect(made.code).toBe(0);
    const fonts = await pdffonts(await readFile(path.join(dir, 'font.pdf')));
    // castpress names its subsets PostScript name + a suffix.
    expect(fonts.some((f) => f.name.startsWith('CastpressCatalogueTest-Regular') && f.emb)).toBe(true);
    const typo = await castpress(['generate', 'font-request.json', '--font-dir', path.join(dir, 'no-such-folder')]);
    expect(typo.code).toBe(2);
    expect(JSON.parse(typo.stdout || typo.stderr)).toMatchObject({ fields: [{ property: '--font-dir' }] });
  }, 120_000);

  it('runs a 1,000-job batch with progress and an errors file, losing none of the good jobs', async () => {
    const jobsFile = await writeMixedJobs(dir, 990);
    const broken = [
      '{oops',
      JSON.stringify({ request: { data: [] } }),
      JSON.stringify({ template: 'missing.json', request: { data: {} } }),
      JSON.stringify({ template: 'form.json', request: { data: { ssn: 'not digits' } } }),
      JSON.stringify({ request: { data: [{ table: { rows: 'x' } }] } }),
    ];
    const lines = (await readFile(jobsFile, 'utf8')).trim().split('\n');
    const brokenAt = new Set<number>();
    for (let i = 0; i < 10; i++) {
      const at = 50 + i * 97;
      lines.splice(at, 0, broken[i % broken.length]);
      brokenAt.add(at + 1);
    }
    expect(lines).toHaveLength(1000);
    await writeFile(jobsFile, lines.join('\n') + '\n');

    const result = await castpress(['batch', 'jobs.jsonl', '--out', 'batch-out', '--workers', '2']);
    expect(result.stderr).toMatch(/\[[#.]+\]\s+\d+\/1000\s+\d+%\s+[\d.]+ jobs\/s\s+ETA/);
    expect(result.stderr).toMatch(/990 written, 10 failed, 0 already done/);
    expect(result.code).toBe(3);

    const files = new Set(await readdir(path.join(dir, 'batch-out')));
    const expected = lines.map((l, i) => ({ l, n: i + 1 })).filter(({ n }) => !brokenAt.has(n));
    for (const { l } of expected) expect(files.has(`${(JSON.parse(l) as { id: string }).id}.pdf`)).toBe(true);
    const errors = (await readFile(path.join(dir, 'batch-out', 'errors.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; error: { name: string } });
    expect(errors.map((e) => e.line)).toEqual([...brokenAt].sort((a, b) => a - b));
    expect(errors.every((e) => typeof e.error.name === 'string')).toBe(true);
  }, 600_000);
});
