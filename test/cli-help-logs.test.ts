/**
 * The command line says what is wrong and where, and the server's log is levelled JSON:
 * `castpress --help` is one line per command (a command's options come with its own `--help`),
 * a missing argument is named, a JSON file that is not JSON is reported with its line and column,
 * and `castpress serve` writes only JSON lines on stdout, answers logged at their status's level
 * (4xx warn, 5xx error, the rest info).
 */
import { writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCastpress } from './helpers/cli.js';
import { startServe } from './helpers/serve.js';
import { tempDir } from './helpers/signing.js';
import { startTestServer } from './server-setup.js';
import path from 'node:path';

let tmp: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  tmp = await tempDir('castpress-help-logs-');
});
afterAll(async () => tmp?.remove());

const castpress = (args: string[]) => runCastpress(args, tmp.dir);
const COMMANDS = ['fill', 'generate', 'import-template', 'batch', 'worker', 'serve', 'verify'];

describe('castpress --help and argument messages', () => {
  it('--help lists each command on one line; a command prints its own help', async () => {
    const r = await castpress(['--help']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    for (const c of COMMANDS)
      expect(
        r.stdout.split('\n').filter((l) => l.startsWith(`  ${c} `)),
        c,
      ).toEqual([expect.stringMatching(new RegExp(`^  ${c} +[a-z].{10,}$`))]);
    // Options are each command's own business.
    expect(r.stdout).not.toContain('--templates');
    expect(r.stdout.split('\n').length).toBeLessThan(20);
    for (const c of COMMANDS) {
      const own = await castpress([c, '--help']);
      expect([own.code, own.stderr], c).toEqual([0, '']);
      expect(own.stdout, c).toMatch(new RegExp(`^castpress ${c} `));
    }
  });

  it('a missing argument is named, before the usage on stderr (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['fill'], 'castpress fill: missing TEMPLATE and DATA.json'],
      [['fill', 'form.json'], 'castpress fill: missing DATA.json'],
      [['generate'], 'castpress generate: missing REQUEST.json'],
      [['generate', 'a.json', 'b.json'], 'castpress generate: unexpected argument "b.json" (it takes REQUEST.json)'],
      [['import-template'], 'castpress import-template: missing FORM.pdf'],
      [['batch', 'jobs.jsonl'], 'castpress batch: missing --out DIR'],
      [['worker', '--out', 'x'], 'castpress worker: missing --queue redis://HOST:PORT/DB'],
      [['verify'], 'castpress verify: missing FILE.pdf'],
    ];
    for (const [args, first] of cases) {
      const r = await castpress(args);
      expect([r.code, r.stdout], args.join(' ')).toEqual([2, '']);
      expect(r.stderr.split('\n')[0], args.join(' ')).toBe(first);
    }
  });

  it('a JSON file that is not JSON: the file, the line and the column', async () => {
    await writeFile(
      path.join(tmp.dir, 'comma.json'),
      '{\n  "data": [\n    {"heading": "a"}\n    {"heading": "b"}\n  ]\n}\n',
    );
    await writeFile(path.join(tmp.dir, 'token.json'), '{\n  "data": {\n    "name": Ada\n  }\n}\n');
    await writeFile(path.join(tmp.dir, 'short.json'), '{"data": [');
    const cases: Array<[string[], string]> = [
      [['generate', 'comma.json'], 'not valid JSON at line 4, column 5'],
      [['fill', 'form.json', 'token.json'], 'not valid JSON at line 3, column 13'],
      [['generate', 'short.json'], 'not valid JSON at line 1, column 11'],
    ];
    for (const [args, where] of cases) {
      const r = await castpress(args);
      expect(r.code, args.join(' ')).toBe(2);
      const body = JSON.parse(r.stderr) as {
        status: number;
        message: string;
        fields: Array<{ property: string; message: string }>;
      };
      const file = args[args.length - 1]!;
      expect(body.status).toBe(400);
      expect(body.fields).toEqual([{ property: file, message: expect.stringContaining(where) }]);
      expect(body.message.startsWith(`${file}: ${where}`), body.message).toBe(true);
    }
  });
});

describe('server logs', () => {
  it('castpress serve: every stdout line is JSON; 4xx answers at warn, 2xx at info', async () => {
    const serve = startServe(['--no-auth', '--port', '0', '--data', path.join(tmp.dir, 'data'), '--log-level', 'info']);
    let out = '';
    serve.child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    let lines: Array<{ level: number; msg: string; res?: { statusCode: number } }>;
    try {
      const url = await serve.url;
      expect((await fetch(`${url}/health`)).status).toBe(200);
      const bad = await fetch(`${url}/api/v1/generate-pdf`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: [] }),
      });
      expect(bad.status).toBe(400);
      expect((await fetch(`${url}/api/v1/no-such-route`)).status).toBe(404);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    const text = out.split('\n').filter((l) => l !== '');
    for (const l of text) expect(() => JSON.parse(l), l).not.toThrow();
    lines = text.map((l) => JSON.parse(l) as (typeof lines)[number]);
    const answers = lines.filter((l) => l.msg === 'request completed').map((l) => [l.res?.statusCode, l.level]);
    expect(answers).toEqual([
      [200, 30],
      [400, 40],
      [404, 40],
    ]);
    expect(lines.filter((l) => l.msg === 'incoming request').every((l) => l.level === 30)).toBe(true);
  });

  it('a 5xx answer is logged at error', async () => {
    const log: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        log.push(
          ...chunk
            .toString()
            .split('\n')
            .filter((l) => l !== ''),
        );
        done();
      },
    });
    const server = await startTestServer({
      logger: 'info',
      logStream: stream,
      beforeListen: (app) => {
        app.get('/boom', async () => {
          throw new Error('a bug');
        });
      },
    });
    try {
      expect((await fetch(`${server.base}/boom`)).status).toBe(500);
    } finally {
      await server.close();
    }
    const completed = log
      .map((l) => JSON.parse(l) as { level: number; msg: string; res?: { statusCode: number } })
      .filter((l) => l.msg === 'request completed');
    expect(completed.map((l) => [l.res?.statusCode, l.level])).toEqual([[500, 50]]);
  });
});
