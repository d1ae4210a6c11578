// CLI: usage and errors on stderr with exit 2, `--version`, `help CMD`,
// and a missing output folder created rather than reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCastpress } from './helpers/cli.js';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pageText } from './helpers/pdf.js';

const root = repoRoot;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-cli-msg-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const castpress = (args: string[]) => runCastpress(args, dir, 120_000);

describe('castpress CLI messages', () => {
  it('wrong argument counts print usage to stderr only, exit 2', async () => {
    for (const args of [
      ['fill', 'only-one.json'],
      ['generate'],
      ['generate', 'a.json', 'b.json'],
      ['import-template'],
      [],
    ]) {
      const r = await castpress(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(/castpress (fill|generate|import-template|<command>)/);
    }
  });

  it('unknown commands and unknown options are usage errors: stderr, exit 2', async () => {
    const unknown = await castpress(['fil']);
    expect([unknown.code, unknown.stdout]).toEqual([2, '']);
    expect(unknown.stderr).toContain('unknown command "fil"');
    const option = await castpress(['generate', 'x.json', '--bogus']);
    expect([option.code, option.stdout]).toEqual([2, '']);
    expect(option.stderr).toMatch(/--bogus/);
    expect(option.stderr).toContain('castpress generate REQUEST.json');
  });

  it("--version prints the package version; help CMD prints that command's usage on stdout, exit 0", async () => {
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string };
    const version = await castpress(['--version']);
    expect([version.code, version.stdout.trim()]).toEqual([0, pkg.version]);
    const help = await castpress(['help', 'fill']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^castpress fill TEMPLATE DATA\.json/);
    expect(help.stdout).not.toContain('castpress generate');
    const asked = await castpress(['generate', '--help']);
    expect([asked.code, asked.stderr]).toEqual([0, '']);
    expect(asked.stdout).toContain('castpress generate REQUEST.json');
  });

  it('creates an output folder that does not exist', async () => {
    await writeFile(
      path.join(dir, 'gen.json'),
      JSON.stringify({ includeTimestamp: false, data: [{ heading: 'Nested output' }] }),
    );
    const r = await castpress(['generate', 'gen.json', '-o', 'new/deeper/out.pdf']);
    expect(r.code).toBe(0);
    expect((await pageText(new Uint8Array(await readFile(path.join(dir, 'new', 'deeper', 'out.pdf')))))[0]).toContain(
      'Nested output',
    );
  });

  it('typed errors with exit 2: missing input, missing --templates folder, --version abc, unknown EID (404)', async () => {
    await writeFile(path.join(dir, 'data.json'), JSON.stringify({ data: { a: 'x' } }));
    const cases: Array<[string[], number, string]> = [
      [['generate', 'nope.json'], 400, 'nope.json'],
      [['fill', 'some-eid', 'nope.json'], 400, 'nope.json'],
      [['fill', 'some-eid', 'data.json', '--templates', 'no-such-dir'], 400, '--templates'],
      [['fill', 'some-eid', 'data.json', '--version', 'abc'], 400, '--version'],
      [['fill', 'some-eid', 'data.json'], 404, 'castEid'],
    ];
    for (const [args, status, property] of cases) {
      const r = await castpress(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      const body = JSON.parse(r.stderr) as { status: number; fields: Array<{ property: string; message: string }> };
      expect(body.status, args.join(' ')).toBe(status);
      expect(body.fields[0].property, args.join(' ')).toBe(property);
      expect(body.fields[0].message).not.toMatch(/createEngine|to the engine/);
    }
  });

  it('import-template writes to the current folder without -o, creates -o folders, refuses a PDF without fields', async () => {
    await mkdir(path.join(dir, 'corpus'), { recursive: true });
    await copyFile(
      path.join(root, 'test', 'fixtures', 'corpus', 'fillable_pdfs', 'irs_fw9_rev2018_xfa.pdf'),
      path.join(dir, 'corpus', 'fw9.pdf'),
    );
    const plain = await castpress(['import-template', 'corpus/fw9.pdf']);
    expect(plain.code).toBe(0);
    expect(await readdir(path.join(dir, 'corpus'))).toEqual(['fw9.pdf']);
    expect(JSON.parse(await readFile(path.join(dir, 'fw9.template.json'), 'utf8')).fields).toHaveLength(22);

    const served = await castpress(['import-template', 'corpus/fw9.pdf', '-o', 'templates/w9/v1.json']);
    expect(served.code).toBe(0);
    expect((await readdir(path.join(dir, 'templates', 'w9'))).sort()).toEqual(['v1.json', 'v1.pdf']);
    await writeFile(
      path.join(dir, 'w9-data.json'),
      JSON.stringify({ data: { 'topmostSubform[0].Page1[0].f1_1[0]': 'Ada' } }),
    );
    const byEid = await castpress(['fill', 'w9', 'w9-data.json', '--templates', 'templates', '-o', 'w9-by-eid.pdf']);
    expect([byEid.code, byEid.stdout]).toEqual([0, '']);

    await writeFile(
      path.join(dir, 'plain.json'),
      JSON.stringify({ includeTimestamp: false, data: [{ content: 'no fields here' }] }),
    );
    expect((await castpress(['generate', 'plain.json', '-o', 'plain.pdf'])).code).toBe(0);
    const none = await castpress(['import-template', 'plain.pdf', '-o', 'plain.template.json']);
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stderr).fields[0].message).toMatch(/no form fields/);
    expect((await readdir(dir)).includes('plain.template.json')).toBe(false);
  });
});
